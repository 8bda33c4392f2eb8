/**
 * A notice above the side panel's tabs that the person can close: closed once, it stays closed
 * (notices.ts remembers its id), so nothing stays pinned above every tab.
 */

import type { ComponentChildren } from 'preact';
import { dismissNotice } from '../notices.js';

interface NoticeProps {
  /** Names the situation; a dismissed id is never shown again. */
  id: string;
  /** What the notice is about, for its region and its close button's name. */
  label: string;
  /** The ids dismissed so far; undefined until read (nothing shows before, so nothing flashes). */
  dismissed: readonly string[] | undefined;
  children: ComponentChildren;
}

export function Notice({ id, label, dismissed, children }: NoticeProps) {
  if (!dismissed || dismissed.includes(id)) return null;
  return (
    <section class="tg-notice" aria-label={label} data-notice={id}>
      <div class="tg-notice-body">{children}</div>
      <button
        type="button"
        class="tg-notice-close"
        aria-label={`Dismiss notice: ${label}`}
        title="Dismiss"
        onClick={() => void dismissNotice(id)}
      >
        ×
      </button>
    </section>
  );
}

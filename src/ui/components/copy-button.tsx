/**
 * A Copy button: the text goes to the clipboard through navigator.clipboard.writeText, and the
 * outcome is said beside the button in a live region ("Copied"), since a clipboard gives no sign of
 * its own. When the browser refuses (no permission, an insecure page, a frame without the right), the
 * text is shown selected in a read-only box instead, so Ctrl+C (⌘C) still copies it.
 */

import { signal, useSignal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef } from 'preact/hooks';

/** The button pressed last: only its "Copied" is shown, since the clipboard holds only its text. */
const lastPressed = signal<object | undefined>(undefined);

/** How long "Copied" stays: long enough to read, short enough not to describe an older copy. */
const CONFIRMATION_MS = 4000;

const REFUSED =
  'The browser refused to copy. The text is selected below: press Ctrl+C (⌘C on a Mac) to copy it.';

/** Puts `text` on the clipboard; false when the browser refused. */
async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function CopyButton({
  text,
  label,
  children = 'Copy',
}: {
  /** Read when pressed, so a large value is serialised only when someone copies it. */
  text: () => string;
  /** The accessible name, when the visible text alone does not say what is copied. */
  label?: string;
  children?: ComponentChildren;
}) {
  const state = useSignal<'idle' | 'copied' | 'refused'>('idle');
  const refusedText = useSignal('');
  const box = useRef<HTMLTextAreaElement>(null);
  const self = useMemo(() => ({}), []);
  const current = lastPressed.value === self;
  useEffect(() => {
    if (state.value === 'refused') box.current?.select();
    if (state.value !== 'copied') return;
    const timer = setTimeout(() => {
      state.value = 'idle';
    }, CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [state.value]);
  const copy = async () => {
    const value = text();
    state.value = 'idle';
    lastPressed.value = self;
    if (await writeClipboard(value)) state.value = 'copied';
    else {
      refusedText.value = value;
      state.value = 'refused';
    }
  };
  return (
    <span class="tg-copy">
      <button type="button" class="tg-copy-button" aria-label={label} onClick={() => void copy()}>
        {children}
      </button>
      {/* aria-live, not role=status: a result holds many of these, and they are not the call's status. */}
      <span class="tg-copy-note" aria-live="polite">
        {!current ? '' : state.value === 'copied' ? 'Copied' : state.value === 'refused' ? REFUSED : ''}
      </span>
      {current && state.value === 'refused' && (
        <textarea
          ref={box}
          class="tg-copy-fallback"
          readOnly
          rows={Math.min(8, refusedText.value.split('\n').length)}
          aria-label="Text to copy"
          value={refusedText.value}
        />
      )}
    </span>
  );
}

/**
 * The panel's modal: a backdrop and a labelled dialog that takes focus itself (not a button, so
 * nothing is approved by a stray Enter), traps Tab, and hands Escape to the caller (deny, cancel,
 * refuse). Other keys go to `onKeyDown`.
 */

import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { trapFocus } from '../focus-trap.js';

export interface ModalDialogProps {
  titleId: string;
  onEscape: () => void;
  onKeyDown?: (event: KeyboardEvent) => void;
  class?: string;
  children: ComponentChildren;
}

export function ModalDialog({ titleId, onEscape, onKeyDown, class: className, children }: ModalDialogProps) {
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    dialog.current?.focus();
    return trapFocus(dialog.current);
  }, []);
  return (
    <div class="tg-backdrop">
      <div
        ref={dialog}
        class={className ? `tg-dialog ${className}` : 'tg-dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onEscape();
            return;
          }
          onKeyDown?.(event);
        }}
      >
        {children}
      </div>
    </div>
  );
}

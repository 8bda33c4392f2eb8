/**
 * The panel's modal: a backdrop and a labelled dialog that takes focus itself (not a button, so
 * nothing is approved by a stray Enter), traps Tab, and hands Escape to the caller (deny, cancel,
 * refuse). Other keys go to `onKeyDown`. When it closes, focus goes back to what had it when the
 * dialog opened (the button that made the call), never to the page's body. Newly shown, it ignores
 * clicks and acting keys for a moment and then counts only input that began inside it
 * (session/dialog-arming.ts), so a double click or a held key meant for the dialog before it answers
 * nothing here.
 */

import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { armDialog } from '../../session/index.js';
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
  // Before the browser paints it, so no input reaches the dialog unguarded.
  useLayoutEffect(() => (dialog.current ? armDialog(dialog.current) : undefined), []);
  // Focus moves in the same task as the render: with a plain effect (run after paint, up to 100 ms
  // later in a busy or hidden page) an Escape pressed at once would reach the opener instead.
  useLayoutEffect(() => {
    const opener = focusedElement(dialog.current);
    dialog.current?.focus();
    const release = trapFocus(dialog.current);
    return () => {
      release();
      // After this dialog is gone, unless something else (the next dialog) took focus meanwhile.
      queueMicrotask(() => {
        const now = focusedElement(opener);
        const lost = !now || now === document.body || !now.isConnected;
        if (lost && opener?.isConnected) opener.focus({ preventScroll: true });
      });
    };
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

/** The focused element as seen from `near`'s shadow root, descending into nested shadow roots. */
function focusedElement(near: Element | null | undefined): HTMLElement | undefined {
  const root = (near?.getRootNode() ?? document) as Document | ShadowRoot;
  let active = root.activeElement ?? document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : undefined;
}

/** Keeps Tab and Shift+Tab inside a dialog (the rest of the panel is inert while it is open). */

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

export function trapFocus(container: HTMLElement | null): () => void {
  if (!container) return () => undefined;
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Tab') return;
    const items = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(canTakeFocus);
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items.at(-1)!;
    // Inside a shadow root, the focused element is the root's activeElement, not the document's.
    const root = container.getRootNode() as Document | ShadowRoot;
    const active = root.activeElement;
    if (event.shiftKey && (active === first || active === container)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };
  container.addEventListener('keydown', onKey);
  return () => container.removeEventListener('keydown', onKey);
}

/**
 * Shown, so focus() works. Not `offsetParent`: Chromium hides a closed <details>' content with
 * `content-visibility: hidden`, which keeps an offsetParent, so a button in "Other choices" counted
 * as the last stop, focus() on it did nothing, and Tab walked out of the dialog.
 */
function canTakeFocus(item: HTMLElement): boolean {
  return typeof item.checkVisibility === 'function' ? item.checkVisibility() : item.offsetParent !== null;
}

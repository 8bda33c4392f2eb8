/**
 * A question put to the person is answered only by input aimed at it. A dialog that has just
 * appeared may sit where the person was already clicking or pressing a key: the second click of a
 * double click on the dialog before it, a held Enter, a click pressed on one dialog and released on
 * the next. Without this, a site's, app's or model's call queued behind the person's own is approved
 * unseen, and "Always allow" stores a grant for a stranger. Browsers' own permission prompts ignore
 * input for a moment after they appear for the same reason.
 *
 * `armDialog` makes an element such a question: for a moment after it is shown it ignores clicks
 * and the keys that act (Enter, Space, Escape), and its controls read as disabled meanwhile
 * (`aria-disabled`, so they keep focus and a screen reader still reads them); once armed it counts
 * a pointer click only when the press began inside it after arming (on the same button, for a
 * button), and a key only when it went down after arming and is not a key repeat.
 *
 * Plain DOM so that every room that asks the person uses this one guard: the panel's dialogs
 * (ui/components/modal-dialog.tsx) and an MCP App's link and permission questions (apps/).
 */

import { currentArmingDelayMs } from './dialog-arming-settings.js';

/** The controls that read as disabled while the dialog arms (what a click or a key could act on). */
const CONTROLS =
  'button, select, a[href], input[type="checkbox"], input[type="radio"], input[type="button"], input[type="submit"], input[type="reset"], input[type="image"]';
/** Attribute on the dialog while it arms, for styles and for tests that want the moment to pass. */
export const ARMING_ATTRIBUTE = 'data-arming';

const TYPING_INPUTS = /^(?:text|search|email|url|tel|password|number|date|datetime-local|month|week|time)$/;

/** Whether `key` on `target` acts (answers, submits, toggles) rather than types. */
function acts(key: string, target: EventTarget | null): boolean {
  if (key === 'Escape') return true;
  if (key !== 'Enter' && key !== ' ') return false;
  const element = target instanceof HTMLElement ? target : undefined;
  if (!element) return true;
  if (element.isContentEditable || element instanceof HTMLTextAreaElement) return false;
  // Space types in a text field; Enter there submits the form around it, so it acts.
  if (element instanceof HTMLInputElement && TYPING_INPUTS.test(element.type)) return key === 'Enter';
  return true;
}

/** A click made by a pointer, as opposed to one made by the keyboard (or by script) on a focused control. */
function byPointer(event: MouseEvent): boolean {
  if (typeof PointerEvent !== 'undefined' && event instanceof PointerEvent) return event.pointerType !== '';
  return event.detail > 0;
}

function ignore(event: Event): void {
  event.preventDefault();
  event.stopImmediatePropagation();
}

/**
 * Guards `dialog` from the moment it is shown; returns the release (call when it goes). Call it
 * before the browser can deliver input to the dialog (a layout effect), so no event slips in first.
 */
export function armDialog(dialog: HTMLElement, delayMs = currentArmingDelayMs()): () => void {
  let armed = false;
  /** Where the current pointer press began, if it began inside the armed dialog. */
  let pressed: Element | undefined;
  /** Keys that went down while armed and have not come up. */
  const held = new Set<string>();
  const marked = new Set<Element>();

  const mark = (root: Element) => {
    const found = root.matches(CONTROLS) ? [root] : [];
    for (const control of [...found, ...root.querySelectorAll(CONTROLS)]) {
      if (control.hasAttribute('aria-disabled')) continue;
      control.setAttribute('aria-disabled', 'true');
      marked.add(control);
    }
  };
  // Controls drawn while the dialog arms (a lazy part, a re-render) arm with it.
  const observer =
    typeof MutationObserver === 'undefined'
      ? undefined
      : new MutationObserver((records) => {
          for (const record of records)
            for (const node of record.addedNodes) if (node instanceof Element) mark(node);
        });

  const onPointerDown = (event: PointerEvent) => {
    pressed = armed && event.target instanceof Element ? event.target : undefined;
  };
  const onClick = (event: MouseEvent) => {
    if (!armed) return ignore(event);
    if (!byPointer(event)) return;
    const start = pressed;
    pressed = undefined;
    const target = event.target instanceof Element ? event.target : undefined;
    const button = target?.closest('button');
    if (!start || !dialog.contains(start) || (button && !button.contains(start))) ignore(event);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!acts(event.key, event.target)) return;
    if (!armed || event.repeat) return ignore(event);
    held.add(event.key);
  };
  const onKeyUp = (event: KeyboardEvent) => {
    if (!acts(event.key, event.target)) return;
    // Space acts when it comes up: only if it went down here, after arming.
    if (!held.delete(event.key)) ignore(event);
  };

  dialog.setAttribute(ARMING_ATTRIBUTE, '');
  mark(dialog);
  observer?.observe(dialog, { childList: true, subtree: true });
  dialog.addEventListener('pointerdown', onPointerDown, true);
  dialog.addEventListener('click', onClick, true);
  dialog.addEventListener('keydown', onKeyDown, true);
  dialog.addEventListener('keyup', onKeyUp, true);

  const unmark = () => {
    observer?.disconnect();
    for (const control of marked) control.removeAttribute('aria-disabled');
    marked.clear();
    dialog.removeAttribute(ARMING_ATTRIBUTE);
  };
  const timer = setTimeout(() => {
    armed = true;
    unmark();
  }, delayMs);

  return () => {
    clearTimeout(timer);
    unmark();
    dialog.removeEventListener('pointerdown', onPointerDown, true);
    dialog.removeEventListener('click', onClick, true);
    dialog.removeEventListener('keydown', onKeyDown, true);
    dialog.removeEventListener('keyup', onKeyUp, true);
  };
}

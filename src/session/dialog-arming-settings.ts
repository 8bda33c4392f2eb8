/**
 * How long newly shown dialogs ignore input (session/dialog-arming.ts says why they do). Apart from
 * the guard itself so that a page can configure it at start-up without loading the guard, which
 * only the lazily loaded dialogs need.
 */

/** About the moment browsers' permission prompts wait before they take input. */
const DEFAULT_ARMING_DELAY_MS = 700;

export interface DialogArmingOptions {
  /** How long (ms) a newly shown dialog ignores clicks and acting keys. Default 700. */
  armingDelayMs?: number;
}

let armingDelayMs = DEFAULT_ARMING_DELAY_MS;

/** Sets how long newly shown dialogs on this page ignore input (call before a dialog is shown). */
export function configureDialogArming(options: DialogArmingOptions): void {
  const delay = options.armingDelayMs;
  if (delay === undefined) return;
  if (!Number.isFinite(delay) || delay < 0)
    throw new TypeError(`armingDelayMs must be a number of milliseconds ≥ 0, not ${delay}`);
  armingDelayMs = delay;
}

/** The delay dialogs shown now arm with. */
export function currentArmingDelayMs(): number {
  return armingDelayMs;
}

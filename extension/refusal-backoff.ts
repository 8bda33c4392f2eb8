/**
 * How long a site the person refused must wait before it may ask again, so that a page cannot
 * answer a refusal by opening the consent dialog again and again. The first refusal closes the
 * door for a minute; each further one doubles the wait, up to an hour. A day without a refusal
 * starts the count afresh, and a grant clears it.
 */

export const FIRST_WAIT_MS = 60_000;
export const LONGEST_WAIT_MS = 60 * 60_000;
/** After this long without another refusal, the next one counts as the first again. */
export const FORGET_AFTER_MS = 24 * 60 * 60_000;

/** The person's refusals of one origin so far, kept across worker restarts. */
export interface Refusal {
  origin: string;
  /** Refusals in a row (since the last grant, within FORGET_AFTER_MS of each other). */
  count: number;
  refusedAt: number;
}

/** The wait after the count-th refusal in a row: 1, 2, 4, ... minutes, at most an hour. */
export function waitAfter(count: number): number {
  return Math.min(FIRST_WAIT_MS * 2 ** Math.max(0, count - 1), LONGEST_WAIT_MS);
}

/** The refusal record after one more refusal at `now`. */
export function nextRefusal(previous: Refusal | undefined, origin: string, now: number): Refusal {
  const inARow = previous && now - previous.refusedAt < FORGET_AFTER_MS ? previous.count : 0;
  return { origin, count: inARow + 1, refusedAt: now };
}

/** Milliseconds until the origin may ask again (0: it may ask now). */
export function remainingWait(refusal: Refusal | undefined, now: number): number {
  if (!refusal) return 0;
  return Math.max(0, refusal.refusedAt + waitAfter(refusal.count) - now);
}

/** "45 seconds", "1 minute", "16 minutes", "1 hour": the wait, rounded up, for a sentence. */
export function describeWait(ms: number): string {
  const unit = (count: number, name: string) => `${count} ${name}${count === 1 ? '' : 's'}`;
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return unit(Math.max(1, seconds), 'second');
  const minutes = Math.ceil(seconds / 60);
  return minutes < 60 ? unit(minutes, 'minute') : unit(Math.ceil(minutes / 60), 'hour');
}

/**
 * Waits for `work`, or rejects as soon as `signal` aborts (with the signal's reason, or what
 * `reasonOf` makes of it), without cancelling `work` itself: for waits a caller may give up on
 * while the work carries on for others (an approval, a sign-in several requests share).
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  reasonOf: (signal: AbortSignal) => unknown = (aborted) => aborted.reason,
): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reasonOf(signal));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Appends to one log are serialized across every context of the origin (tabs, side panel, service
 * worker) with the Web Locks API. Where it is missing, a promise chain serializes within the
 * context, and the optimistic head check in the write transaction keeps the chain correct across
 * contexts (a loser re-reads the head and retries).
 */

export type Exclusive = <T>(work: () => Promise<T>) => Promise<T>;

export function createExclusive(lockName: string, locks: LockManager | undefined = webLocks()): Exclusive {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = locks ? () => locks.request(lockName, { mode: 'exclusive' }, work) as Promise<T> : work;
    const result = tail.then(run, run);
    tail = result.catch(() => undefined);
    return result;
  };
}

/**
 * Holds a lock named after this log session for as long as the session lives, so other contexts can
 * tell a live sender from one that closed or crashed (its pending calls are then "interrupted").
 */
export function holdSessionLock(
  lockName: string,
  locks: LockManager | undefined = webLocks(),
): { granted: Promise<void>; release: () => void } {
  if (!locks) return { granted: Promise.resolve(), release: () => undefined };
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let markGranted: () => void = () => undefined;
  const granted = new Promise<void>((resolve) => {
    markGranted = resolve;
  });
  locks
    .request(lockName, { mode: 'exclusive' }, () => {
      markGranted();
      return held;
    })
    .catch(() => markGranted());
  return { granted, release };
}

/**
 * Resolves once the lock is free: its holder (a session that was alive when looked at) closed or
 * crashed. Holding nothing, it lets the holder go first and releases at once. A stopped worker's
 * locks may be released only after the next worker looked, so a look alone can miss it.
 */
export async function whenReleased(
  lockName: string,
  signal: AbortSignal,
  locks: LockManager | undefined = webLocks(),
): Promise<void> {
  if (!locks) return;
  await locks.request(lockName, { mode: 'exclusive', signal }, () => undefined);
}

/** Names of the locks held right now anywhere in the origin; undefined without Web Locks. */
export async function heldLockNames(
  locks: LockManager | undefined = webLocks(),
): Promise<Set<string> | undefined> {
  if (!locks) return undefined;
  const snapshot = await locks.query();
  return new Set((snapshot.held ?? []).map((lock) => lock.name).filter((name): name is string => !!name));
}

function webLocks(): LockManager | undefined {
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : undefined;
}

/**
 * Retention: drop the oldest entries beyond a count or an age, with their chain events, leaving a
 * checkpoint (the last removed event's seq and hash) so the rest of the chain still verifies.
 *
 * The cut is made in chain order and only at a clean point: every removed entry has all its events
 * below the cut and every kept entry all of its events above it, so no kept entry loses evidence.
 * Calls still pending are never removed (their final event is yet to come). When calls overlap a
 * clean point can fall short of the target; the next pruning catches up.
 */

import type { HeadRecord } from './appender.js';
import { type ChainAnchor, type ChainEvent, GENESIS } from './chain.js';
import { FIRST_SEQ_INDEX, META_KEY, STORE } from './database.js';
import type { AuditEntry, OutcomeCounts } from './entry.js';
import { requestResult, transactionDone } from './idb.js';

export interface RetentionPolicy {
  /** Keep at most this many entries (the newest). */
  maxEntries?: number;
  /** Remove entries that started longer ago than this. */
  maxAgeMs?: number;
}

/**
 * What a log keeps unless the host or the person chose otherwise: the newest 20,000 entries. Enough
 * for months of a person's own use, small enough that a browser's storage quota is not reached by
 * the log alone. Older entries are removed with a checkpoint, so the rest still verifies.
 */
export const DEFAULT_RETENTION: RetentionPolicy = { maxEntries: 20_000 };

/** A stored or given retention setting, checked; anything else reads as undefined. */
export function parseRetention(value: unknown): RetentionPolicy | false | undefined {
  if (value === false) return false;
  if (typeof value !== 'object' || value === null) return undefined;
  const { maxEntries, maxAgeMs } = value as RetentionPolicy;
  const positive = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n > 0;
  if (maxEntries !== undefined && !positive(maxEntries)) return undefined;
  if (maxAgeMs !== undefined && !positive(maxAgeMs)) return undefined;
  if (maxEntries === undefined && maxAgeMs === undefined) return undefined;
  return { ...(maxEntries ? { maxEntries } : {}), ...(maxAgeMs ? { maxAgeMs } : {}) };
}

export interface PruneReport {
  removedEntries: number;
  removedEvents: number;
  checkpoint: ChainAnchor;
}

/** Runs under the append lock: nothing appends while the cut is computed and applied. */
export async function pruneLog(
  database: IDBDatabase,
  policy: RetentionPolicy,
  now: number,
): Promise<PruneReport> {
  const read = database.transaction([STORE.entries, STORE.meta], 'readonly');
  const entries = read.objectStore(STORE.entries);
  const total = await requestResult(entries.count());
  const checkpoint =
    ((await requestResult(read.objectStore(STORE.meta).get(META_KEY.checkpoint))) as
      | ChainAnchor
      | undefined) ?? GENESIS;
  const overCount = policy.maxEntries !== undefined ? Math.max(0, total - policy.maxEntries) : 0;
  const cutoffTime = policy.maxAgeMs !== undefined ? now - policy.maxAgeMs : Number.NEGATIVE_INFINITY;
  const removable = (entry: AuditEntry, index: number) =>
    entry.outcome !== 'pending' && (index < overCount || entry.startedAt < cutoffTime);

  const { removing, cutSeq } = await new Promise<{ removing: AuditEntry[]; cutSeq: number }>(
    (resolve, reject) => {
      const walked: AuditEntry[] = [];
      let clean = { removing: [] as AuditEntry[], cutSeq: checkpoint.seq };
      let maxLast = checkpoint.seq;
      const request = entries.index(FIRST_SEQ_INDEX).openCursor();
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        const cursor = request.result;
        const entry = cursor?.value as AuditEntry | undefined;
        // Before taking the next entry: is the cut after the ones walked so far clean?
        const nextFirst = entry ? entry.firstSeq : Number.POSITIVE_INFINITY;
        if (walked.length > 0 && maxLast < nextFirst) clean = { removing: [...walked], cutSeq: maxLast };
        if (!cursor || !entry || !removable(entry, walked.length)) return resolve(clean);
        walked.push(entry);
        maxLast = Math.max(maxLast, ...entry.seqs);
        cursor.continue();
      };
    },
  );
  if (removing.length === 0 || cutSeq <= checkpoint.seq)
    return { removedEntries: 0, removedEvents: 0, checkpoint };

  const write = database.transaction([STORE.events, STORE.entries, STORE.meta], 'readwrite');
  const events = write.objectStore(STORE.events);
  const cutEvent = (await requestResult(events.get(cutSeq))) as ChainEvent | undefined;
  if (!cutEvent) {
    write.abort();
    throw new Error(
      `Audit event ${cutSeq} is missing, so the log cannot be pruned safely. Verify the log first.`,
    );
  }
  const next: ChainAnchor = { seq: cutEvent.seq, hash: cutEvent.hash };
  events.delete(IDBKeyRange.bound(checkpoint.seq + 1, cutSeq));
  const store = write.objectStore(STORE.entries);
  for (const entry of removing) store.delete(entry.invocationId);
  const meta = write.objectStore(STORE.meta);
  meta.put(next, META_KEY.checkpoint);
  // New counts, and a new generation so every context's cached head (and counts) goes stale.
  const head: HeadRecord =
    ((await requestResult(meta.get(META_KEY.head))) as HeadRecord | undefined) ?? GENESIS;
  const counts: OutcomeCounts = { ...(head.counts ?? {}) };
  for (const entry of removing) counts[entry.outcome] = Math.max(0, (counts[entry.outcome] ?? 0) - 1);
  meta.put({ ...head, counts, generation: (head.generation ?? 0) + 1 } satisfies HeadRecord, META_KEY.head);
  await transactionDone(write);
  return { removedEntries: removing.length, removedEvents: cutSeq - checkpoint.seq, checkpoint: next };
}

/**
 * Retention: drop the oldest entries beyond a count or an age, with their chain events, leaving a
 * checkpoint (the last removed event's seq and hash) so the rest of the chain still verifies.
 *
 * The cut is made in chain order and only at a clean point: every removed entry has all its events
 * below the cut and every kept entry all of its events above it, so no kept entry loses evidence.
 * Calls still pending are never removed (their final event is yet to come). When calls overlap a
 * clean point can fall short of the target; the next pruning catches up.
 *
 * Removed entries leave their segments (a segment left empty is deleted, one left partly is
 * rebuilt without them, words and all), so the search index is pruned with the log.
 */

import { blocksCovering, lastSeqOf, type StoredBlock } from './blocks.js';
import { type ChainAnchor, GENESIS } from './chain.js';
import { INDEX_KEY, type IndexState, META_KEY, STORE } from './database.js';
import type { AuditEntry, EntryOutcome } from './entry.js';
import { requestResult, transactionDone } from './idb.js';
import { READ_STORES } from './query.js';
import {
  buildSegment,
  putSummary,
  putWords,
  readSummary,
  type SegmentInfo,
  type SegmentPage,
} from './segment.js';
import type { UnsealedEntries } from './unsealed.js';

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

/** An entry as retention sees it: its place in the chain, and where it is kept. */
export interface ChainRef {
  invocationId: string;
  firstSeq: number;
  lastSeq: number;
  startedAt: number;
  outcome: EntryOutcome;
  /** The segment holding it; undefined while unsealed. */
  segment?: number;
}

/**
 * How many of the oldest entries (in chain order) a prune removes, and the cut: the last event of
 * the removed ones. Walks until an entry may not go; the cut is the last clean point seen.
 */
export async function findCut(
  refs: AsyncIterable<ChainRef>,
  checkpoint: ChainAnchor,
  removable: (ref: ChainRef, index: number) => boolean,
): Promise<{ count: number; cutSeq: number }> {
  let clean = { count: 0, cutSeq: checkpoint.seq };
  let walked = 0;
  let maxLast = checkpoint.seq;
  for await (const ref of refs) {
    // Before taking the next entry: is the cut after the ones walked so far clean?
    if (walked > 0 && maxLast < ref.firstSeq) clean = { count: walked, cutSeq: maxLast };
    if (!removable(ref, walked)) return clean;
    walked++;
    maxLast = Math.max(maxLast, ref.lastSeq);
  }
  return walked > 0 ? { count: walked, cutSeq: maxLast } : clean;
}

function refOf(entry: AuditEntry): ChainRef {
  return {
    invocationId: entry.invocationId,
    firstSeq: entry.firstSeq,
    lastSeq: entry.seqs.at(-1) ?? entry.firstSeq,
    startedAt: entry.startedAt,
    outcome: entry.outcome,
  };
}

const byFirstSeq = (a: ChainRef, b: ChainRef) => a.firstSeq - b.firstSeq;

/**
 * Every entry in chain order (by first event), reading a segment's summary only when its oldest
 * entry is next: segments are sealed in order, but an entry that was pending across a seal lands
 * in a later segment than its neighbours, so the segments' entries are merged.
 */
async function* chainOrder(
  summaries: IDBObjectStore,
  directory: readonly SegmentInfo[],
  unsealed: Iterable<AuditEntry>,
): AsyncGenerator<ChainRef> {
  const segments = [...directory].sort((a, b) => a.minFirstSeq - b.minFirstSeq);
  let pool = [...unsealed].map(refOf).sort(byFirstSeq);
  let taken = 0;
  for (let i = 0; ; i++) {
    const nextFirst = segments[i]?.minFirstSeq ?? Number.POSITIVE_INFINITY;
    while (taken < pool.length && pool[taken]!.firstSeq < nextFirst) yield pool[taken++]!;
    const info = segments[i];
    if (!info) return;
    const summary = await readSummary(summaries, info.from);
    if (!summary) continue;
    const refs: ChainRef[] = summary.ids.map((invocationId, p) => ({
      invocationId,
      firstSeq: summary.firstSeq[p]!,
      lastSeq: summary.lastSeq[p]!,
      startedAt: summary.startedAt[p]!,
      outcome: summary.outcomes[summary.outcome[p]!]!,
      segment: info.from,
    }));
    pool = [...pool.slice(taken), ...refs].sort(byFirstSeq);
    taken = 0;
  }
}

/** Runs under the append lock, in one transaction: nothing appends, seals or prunes meanwhile. */
export async function pruneLog(
  database: IDBDatabase,
  unsealed: UnsealedEntries,
  policy: RetentionPolicy,
  now: number,
): Promise<PruneReport> {
  const transaction = database.transaction(READ_STORES, 'readwrite');
  const done = transactionDone(transaction);
  done.catch(() => undefined);
  try {
    return await prune(transaction, unsealed, policy, now, done);
  } catch (error) {
    // Nothing half done: a failure before the last request aborts every change.
    if (!transaction.error) abortQuietly(transaction);
    throw error;
  }
}

function abortQuietly(transaction: IDBTransaction): void {
  try {
    transaction.abort();
  } catch {
    // Already finished.
  }
}

async function prune(
  transaction: IDBTransaction,
  unsealed: UnsealedEntries,
  policy: RetentionPolicy,
  now: number,
  done: Promise<void>,
): Promise<PruneReport> {
  const { view, state } = await unsealed.at(transaction);
  const meta = transaction.objectStore(STORE.meta);
  const checkpoint =
    ((await requestResult(meta.get(META_KEY.checkpoint))) as ChainAnchor | undefined) ?? GENESIS;
  const total =
    state.segments.reduce((sum, info) => sum + info.count, 0) + view.entries.size - view.shadows.size;
  const overCount = policy.maxEntries !== undefined ? Math.max(0, total - policy.maxEntries) : 0;
  const cutoffTime = policy.maxAgeMs !== undefined ? now - policy.maxAgeMs : Number.NEGATIVE_INFINITY;
  const summaries = transaction.objectStore(STORE.segments);
  const removed: ChainRef[] = [];
  // A shadow is walked as its segment copy (still pending there, so never removed).
  const unsealedEntries = [...view.entries.values()].filter((entry) => !view.shadows.has(entry.invocationId));
  const refs = chainOrder(summaries, state.segments, unsealedEntries);
  const { count, cutSeq } = await findCut(
    (async function* () {
      for await (const ref of refs) {
        removed.push(ref);
        yield ref;
      }
    })(),
    checkpoint,
    (ref, index) => ref.outcome !== 'pending' && (index < overCount || ref.startedAt < cutoffTime),
  );
  removed.length = count;
  if (count === 0 || cutSeq <= checkpoint.seq) {
    await done;
    return { removedEntries: 0, removedEvents: 0, checkpoint };
  }

  const next = await cutBlocks(transaction, cutSeq);
  const directory = await removeFromSegments(transaction, state.segments, removed);
  const nextState: IndexState = {
    sealedThrough: Math.max(state.sealedThrough, cutSeq),
    segments: directory,
    version: state.version + 1,
  };
  transaction.objectStore(STORE.index).put(nextState, INDEX_KEY);
  meta.put(next, META_KEY.checkpoint);
  await done;
  return { removedEntries: count, removedEvents: cutSeq - checkpoint.seq, checkpoint: next };
}

/**
 * Deletes the blocks up to the cut (trimming the one it falls in) and returns the new checkpoint.
 * The last block is never deleted: the chain's head is read from it, and an appender in another
 * context that still holds an older head must find a block after that head and start over.
 */
async function cutBlocks(transaction: IDBTransaction, cutSeq: number): Promise<ChainAnchor> {
  const blocks = transaction.objectStore(STORE.blocks);
  const [holding] = await blocksCovering(blocks, cutSeq - 1, cutSeq);
  if (!holding || holding.from > cutSeq) {
    transaction.abort();
    throw new Error(
      `Audit event ${cutSeq} is missing, so the log cannot be pruned safely. Verify the log first.`,
    );
  }
  const anchor: ChainAnchor = { seq: cutSeq, hash: holding.hashes[cutSeq - holding.from]! };
  blocks.delete(IDBKeyRange.upperBound(holding.from, true));
  if (lastSeqOf(holding) > cutSeq) {
    const keep = cutSeq + 1 - holding.from;
    blocks.delete(holding.from);
    blocks.put({
      from: cutSeq + 1,
      texts: holding.texts.slice(keep),
      hashes: holding.hashes.slice(keep),
    } satisfies StoredBlock);
  } else {
    const isLast =
      (await requestResult(blocks.getKey(IDBKeyRange.lowerBound(holding.from, true)))) === undefined;
    if (!isLast) blocks.delete(holding.from);
  }
  return anchor;
}

/** Removes entries from their segments; returns the directory after. */
async function removeFromSegments(
  transaction: IDBTransaction,
  directory: readonly SegmentInfo[],
  removed: readonly ChainRef[],
): Promise<SegmentInfo[]> {
  const bySegment = new Map<number, Set<string>>();
  for (const ref of removed) {
    if (ref.segment === undefined) continue;
    const ids = bySegment.get(ref.segment) ?? new Set<string>();
    ids.add(ref.invocationId);
    bySegment.set(ref.segment, ids);
  }
  const summaries = transaction.objectStore(STORE.segments);
  const terms = transaction.objectStore(STORE.segmentTerms);
  const ids = transaction.objectStore(STORE.segmentIds);
  const words = transaction.objectStore(STORE.segmentWords);
  const pages = transaction.objectStore(STORE.pages);
  const next: SegmentInfo[] = [];
  for (const info of directory) {
    const gone = bySegment.get(info.from);
    if (!gone) {
      next.push(info);
      continue;
    }
    const allPages = IDBKeyRange.bound([info.from, 0], [info.from, Number.POSITIVE_INFINITY]);
    const kept =
      gone.size >= info.count
        ? []
        : ((await requestResult(pages.getAll(allPages))) as SegmentPage[])
            .flatMap((page) => page.entries)
            .filter((entry) => !gone.has(entry.invocationId));
    pages.delete(allPages);
    if (kept.length === 0) {
      summaries.delete(info.from);
      terms.delete(info.from);
      ids.delete(info.from);
      words.delete(info.from);
      continue;
    }
    const rebuilt = buildSegment(info.from, info.to, kept);
    putSummary(summaries, rebuilt.summary);
    terms.put(rebuilt.terms);
    ids.put(rebuilt.ids);
    putWords(words, rebuilt.words);
    for (const page of rebuilt.pages) pages.put(page);
    next.push(rebuilt.info);
  }
  return next;
}

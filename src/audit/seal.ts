/**
 * Sealing: the unsealed entries become one index segment, and segment entries that changed since
 * they were sealed (calls that were pending then) are patched where they are. It runs after
 * appends once enough events piled up, in a transaction of its own that does not touch the chain,
 * so appends never wait for it. Another context may seal (or prune) first: the index state's
 * version is checked in the same transaction, and the loser leaves it be.
 */

import { EMPTY_INDEX, INDEX_KEY, type IndexState, STORE } from './database.js';
import type { AuditEntry } from './entry.js';
import { requestResult, transactionDone } from './idb.js';
import {
  buildSegment,
  patchSegment,
  putBuiltSegment,
  putSummary,
  readSummary,
  type SegmentInfo,
  type SegmentPage,
  slotOf,
} from './segment.js';
import type { UnsealedEntries } from './unsealed.js';

/**
 * Seals everything `view` has folded in; false when another context changed the index first. The
 * view must have no unresolved events (take a snapshot first).
 */
export async function sealUnsealed(database: IDBDatabase, view: UnsealedEntries): Promise<boolean> {
  const version = view.version;
  const after = view.sealedThrough;
  const through = view.through;
  if (through <= after) return true;
  if (view.unresolved.length > 0) return false;
  const fresh: AuditEntry[] = [];
  const patches = new Map<number, AuditEntry[]>();
  for (const [id, entry] of view.entries) {
    const shadow = view.shadows.get(id);
    if (!shadow) fresh.push(entry);
    else patches.set(shadow.segment, [...(patches.get(shadow.segment) ?? []), entry]);
  }
  const built = fresh.length > 0 ? buildSegment(after + 1, through, fresh) : undefined;

  const transaction = database.transaction(
    [STORE.index, STORE.segments, STORE.segmentWords, STORE.segmentTerms, STORE.segmentIds, STORE.pages],
    'readwrite',
  );
  const done = transactionDone(transaction);
  done.catch(() => undefined);
  const index = transaction.objectStore(STORE.index);
  const state = ((await requestResult(index.get(INDEX_KEY))) as IndexState | undefined) ?? EMPTY_INDEX;
  if (state.version !== version || state.sealedThrough !== after) {
    transaction.abort();
    return false;
  }
  const directory = await patchAll(transaction, state.segments, patches);
  const next: IndexState = {
    sealedThrough: through,
    segments: built ? [...directory, built.info] : directory,
    version: version + 1,
  };
  index.put(next, INDEX_KEY);
  if (built) putBuiltSegment(transaction, built, STORE);
  await done;
  view.sealed(next, through, version);
  return true;
}

/** Patches each segment's changed entries (summary, the pages holding them, directory counts). */
async function patchAll(
  transaction: IDBTransaction,
  directory: readonly SegmentInfo[],
  patches: ReadonlyMap<number, AuditEntry[]>,
): Promise<SegmentInfo[]> {
  if (patches.size === 0) return [...directory];
  const summaries = transaction.objectStore(STORE.segments);
  const pageStore = transaction.objectStore(STORE.pages);
  const patched = await Promise.all(
    directory.map(async (info) => {
      const updated = patches.get(info.from);
      if (!updated) return info;
      const summary = await readSummary(summaries, info.from);
      if (!summary) return info;
      const numbers = new Set<number>();
      for (const entry of updated) {
        const position = summary.ids.indexOf(entry.invocationId);
        if (position >= 0) numbers.add(slotOf(summary, position).page);
      }
      const pages = new Map<number, SegmentPage>();
      for (const number of numbers) {
        const page = (await requestResult(pageStore.get([info.from, number]))) as SegmentPage | undefined;
        if (page) pages.set(number, page);
      }
      const next = patchSegment(summary, pages, info, updated);
      putSummary(summaries, summary);
      for (const page of pages.values()) pageStore.put(page);
      return next;
    }),
  );
  return patched;
}

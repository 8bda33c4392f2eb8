/**
 * Sealing: the unsealed entries that have finished become one index segment, those still pending
 * are carried in the index state. It runs after appends once enough events piled up, in a
 * transaction of its own that does not touch the chain, so appends never wait for it. Another
 * context may seal (or prune) first: the index state's version is checked in the same transaction,
 * and the loser leaves it be.
 */

import { EMPTY_INDEX, INDEX_KEY, type IndexState, STORE } from './database.js';
import { transactionDone } from './idb.js';
import { buildSegment } from './segment.js';
import type { UnsealedEntries } from './unsealed.js';

/** Seals everything `view` has folded in; false when another context changed the index first. */
export async function sealUnsealed(database: IDBDatabase, view: UnsealedEntries): Promise<boolean> {
  const version = view.version;
  const after = view.sealedThrough;
  const through = view.through;
  if (through <= after) return true;
  const entries = [...view.entries.values()];
  const finished = entries.filter((entry) => entry.outcome !== 'pending');
  const carried = entries.filter((entry) => entry.outcome === 'pending');
  const built = finished.length > 0 ? buildSegment(after + 1, through, finished) : undefined;

  const transaction = database.transaction(
    [STORE.index, STORE.segments, STORE.segmentTerms, STORE.pages],
    'readwrite',
  );
  const index = transaction.objectStore(STORE.index);
  let next: IndexState | undefined;
  let moved = false;
  const request = index.get(INDEX_KEY);
  request.onsuccess = () => {
    const state = (request.result as IndexState | undefined) ?? EMPTY_INDEX;
    if (state.version !== version || state.sealedThrough !== after) {
      moved = true;
      return transaction.abort();
    }
    next = {
      sealedThrough: through,
      carried,
      segments: built ? [...state.segments, built.info] : state.segments,
      version: version + 1,
    };
    index.put(next, INDEX_KEY);
  };
  if (built) {
    transaction.objectStore(STORE.segments).put(built.summary);
    transaction.objectStore(STORE.segmentTerms).put(built.terms);
    const pages = transaction.objectStore(STORE.pages);
    for (const page of built.pages) pages.put(page);
  }
  try {
    await transactionDone(transaction);
  } catch (error) {
    if (moved) return false;
    throw error;
  }
  view.sealed(next!, through, version);
  return true;
}

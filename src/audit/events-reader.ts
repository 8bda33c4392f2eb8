/** The chain's bounds, and its events in seq order, read a page of blocks per transaction. */

import { eventJson, forEachEvent, readHead, walkBlocks } from './blocks.js';
import { type ChainAnchor, GENESIS } from './chain.js';
import { INDEX_KEY, type IndexState, META_KEY, STORE } from './database.js';
import { requestResult } from './idb.js';

/**
 * The checkpoint (or genesis), the head, and how far the index was sealed (the chain must reach at
 * least that far), read together.
 */
export async function readBounds(
  database: IDBDatabase,
): Promise<{ anchor: ChainAnchor; head: ChainAnchor; sealedThrough: number }> {
  const transaction = database.transaction([STORE.meta, STORE.blocks, STORE.index], 'readonly');
  const [checkpoint, head, state] = await Promise.all([
    requestResult(transaction.objectStore(STORE.meta).get(META_KEY.checkpoint)),
    readHead(transaction),
    requestResult(transaction.objectStore(STORE.index).get(INDEX_KEY)),
  ]);
  return {
    anchor: (checkpoint as ChainAnchor | undefined) ?? GENESIS,
    head,
    sealedThrough: (state as IndexState | undefined)?.sealedThrough ?? 0,
  };
}

/**
 * Events with afterSeq < seq <= throughSeq, in order, each as one line of JSON (the export's
 * form), without parsing them.
 */
export async function* readEventJson(
  database: IDBDatabase,
  afterSeq: number,
  throughSeq: number,
): AsyncGenerator<string> {
  for await (const block of walkBlocks(database, afterSeq, throughSeq)) {
    const lines: string[] = [];
    forEachEvent([block], afterSeq, throughSeq, (stored, i) => lines.push(eventJson(stored, i)));
    yield* lines;
  }
}

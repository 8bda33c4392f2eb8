/** The chain's bounds, and its events in seq order, read a page of blocks per transaction. */

import { eventJson, eventOf, forEachEvent, walkBlocks } from './blocks.js';
import { type ChainAnchor, type ChainEvent, GENESIS } from './chain.js';
import { META_KEY, STORE } from './database.js';
import { requestResult } from './idb.js';

/** The checkpoint (or genesis) and the head, read together. */
export async function readBounds(database: IDBDatabase): Promise<{ anchor: ChainAnchor; head: ChainAnchor }> {
  const transaction = database.transaction(STORE.meta, 'readonly');
  const meta = transaction.objectStore(STORE.meta);
  const [checkpoint, head] = await Promise.all([
    requestResult(meta.get(META_KEY.checkpoint)),
    requestResult(meta.get(META_KEY.head)),
  ]);
  const anchor = (checkpoint as ChainAnchor | undefined) ?? GENESIS;
  return { anchor, head: (head as ChainAnchor | undefined) ?? anchor };
}

/** Events with afterSeq < seq <= throughSeq, in order. */
export async function* readEvents(
  database: IDBDatabase,
  afterSeq: number,
  throughSeq: number,
): AsyncGenerator<ChainEvent> {
  for await (const block of walkBlocks(database, afterSeq, throughSeq)) {
    const events: ChainEvent[] = [];
    forEachEvent([block], afterSeq, throughSeq, (stored, i) => events.push(eventOf(stored, i)));
    yield* events;
  }
}

/** The same events, each as one line of JSON (the export's form), without parsing them. */
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

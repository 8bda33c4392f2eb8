/** Reads chain events in seq order, a page per transaction, so long walks never hold one open. */

import { type ChainAnchor, type ChainEvent, GENESIS } from './chain.js';
import { META_KEY, STORE } from './database.js';
import { requestResult } from './idb.js';

const PAGE = 1000;

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

/** Events with anchor.seq < seq <= head.seq, in order. */
export async function* readEvents(
  database: IDBDatabase,
  afterSeq: number,
  throughSeq: number,
): AsyncGenerator<ChainEvent> {
  let next = afterSeq + 1;
  while (next <= throughSeq) {
    const last = Math.min(next + PAGE - 1, throughSeq);
    const transaction = database.transaction(STORE.events, 'readonly');
    const page = (await requestResult(
      transaction.objectStore(STORE.events).getAll(IDBKeyRange.bound(next, last)),
    )) as ChainEvent[];
    yield* page;
    next = last + 1;
  }
}

/** The events of one invocation (its entry lists their seqs). */
export async function readEventsBySeq(database: IDBDatabase, seqs: readonly number[]): Promise<ChainEvent[]> {
  const transaction = database.transaction(STORE.events, 'readonly');
  const store = transaction.objectStore(STORE.events);
  const events = await Promise.all(seqs.map((seq) => requestResult(store.get(seq))));
  return events.filter((event): event is ChainEvent => event !== undefined);
}

/**
 * The chain as stored: one record per appended batch (a block), holding each event as the exact
 * text its hash covers. One record per batch is what makes appends cheap (IndexedDB costs about the
 * same per record whatever its size), and storing the hashed text means verify and export never
 * serialize an event again.
 */

import { type ChainAnchor, type ChainEvent, GENESIS } from './chain.js';
import { META_KEY, STORE } from './database.js';
import { requestResult } from './idb.js';

export interface StoredBlock {
  /** The seq of texts[0]; texts[i] is event from + i. */
  from: number;
  /** Each event's canonical JSON without its hash (what the hash covers). */
  texts: string[];
  hashes: string[];
}

/** Events per read when walking the chain: a page per transaction. */
const WALK_EVENTS = 4000;

export function lastSeqOf(block: StoredBlock): number {
  return block.from + block.texts.length - 1;
}

/** The event at position `i` of a block, parsed. */
export function eventOf(block: StoredBlock, i: number): ChainEvent {
  return { ...(JSON.parse(block.texts[i]!) as Omit<ChainEvent, 'hash'>), hash: block.hashes[i]! };
}

/** The event at position `i` as one line of JSON with its hash (the export's form), without parsing it. */
export function eventJson(block: StoredBlock, i: number): string {
  return `${block.texts[i]!.slice(0, -1)},"hash":${JSON.stringify(block.hashes[i]!)}}`;
}

/**
 * The chain's head: the last event of the last block (pruning always keeps the last block), or the
 * checkpoint when nothing was ever appended after it. Needs the blocks and meta stores.
 */
export async function readHead(transaction: IDBTransaction): Promise<ChainAnchor> {
  const last = await new Promise<StoredBlock | undefined>((resolve, reject) => {
    const request = transaction.objectStore(STORE.blocks).openCursor(null, 'prev');
    request.onsuccess = () => resolve(request.result?.value as StoredBlock | undefined);
    request.onerror = () => reject(request.error);
  });
  const checkpoint =
    ((await requestResult(transaction.objectStore(STORE.meta).get(META_KEY.checkpoint))) as
      | ChainAnchor
      | undefined) ?? GENESIS;
  return last && lastSeqOf(last) >= checkpoint.seq
    ? { seq: lastSeqOf(last), hash: last.hashes.at(-1)! }
    : checkpoint;
}

/** The blocks holding events after `after` through `through`, in order (the first may start earlier). */
export async function blocksCovering(
  store: IDBObjectStore,
  after: number,
  through: number,
): Promise<StoredBlock[]> {
  if (through <= after) return [];
  const first = await new Promise<StoredBlock | undefined>((resolve, reject) => {
    const request = store.openCursor(IDBKeyRange.upperBound(after + 1), 'prev');
    request.onsuccess = () => resolve(request.result?.value as StoredBlock | undefined);
    request.onerror = () => reject(request.error);
  });
  const rest =
    through > after + 1
      ? ((await requestResult(store.getAll(IDBKeyRange.bound(after + 1, through, true)))) as StoredBlock[])
      : [];
  return first && lastSeqOf(first) > after ? [first, ...rest] : rest;
}

/** Calls `visit` for every stored event with after < seq <= through, in order. */
export function forEachEvent(
  blocks: readonly StoredBlock[],
  after: number,
  through: number,
  visit: (block: StoredBlock, index: number) => void,
): void {
  for (const block of blocks)
    for (let i = Math.max(0, after + 1 - block.from); i < block.texts.length; i++) {
      if (block.from + i > through) return;
      visit(block, i);
    }
}

/** A page of blocks per transaction, so a long walk never holds one open. */
export async function* walkBlocks(
  database: IDBDatabase,
  after: number,
  through: number,
): AsyncGenerator<StoredBlock> {
  let next = after;
  while (next < through) {
    const store = database.transaction(STORE.blocks, 'readonly').objectStore(STORE.blocks);
    const page = await blocksCovering(store, next, Math.min(next + WALK_EVENTS, through));
    if (page.length === 0) return;
    yield* page;
    next = lastSeqOf(page.at(-1)!);
  }
}

/** The stored events with the given seqs (an entry's evidence), in the order given. */
export async function readEventsBySeq(database: IDBDatabase, seqs: readonly number[]): Promise<ChainEvent[]> {
  const store = database.transaction(STORE.blocks, 'readonly').objectStore(STORE.blocks);
  const found = await Promise.all(
    seqs.map(async (seq) => {
      const [block] = await blocksCovering(store, seq - 1, seq);
      return block && block.from <= seq ? eventOf(block, seq - block.from) : undefined;
    }),
  );
  return found.filter((event): event is ChainEvent => event !== undefined);
}

/**
 * Version 1 to 2, inside the upgrade transaction: each stored event becomes the text its hash was
 * computed over (the hashes are kept, not recomputed, so the log verifies exactly as before, and an
 * event edited before the upgrade still fails), and the entries are sealed into index segments.
 * The version 1 stores are then deleted. Only
 * IndexedDB requests are awaited, so the upgrade transaction stays open throughout.
 */

import { lastSeqOf, type StoredBlock } from './blocks.js';
import { type ChainAnchor, type ChainEvent, eventText, GENESIS } from './chain.js';
import { INDEX_KEY, type IndexState, META_KEY, STORE } from './database.js';
import type { AuditEntry } from './entry.js';
import { requestResult } from './idb.js';
import { buildSegment, putBuiltSegment, type SegmentInfo } from './segment.js';

/** The version 1 layout, as it shipped. */
const V1 = { events: 'events', entries: 'entries', firstSeqIndex: 'first-seq' } as const;

const READ_PAGE = 1000;
const SEGMENT_ENTRIES = 2000;

export async function migrateV1(database: IDBDatabase, transaction: IDBTransaction): Promise<void> {
  const meta = transaction.objectStore(STORE.meta);
  const head = (await requestResult(meta.get(META_KEY.head))) as ChainAnchor | undefined;
  const checkpoint =
    ((await requestResult(meta.get(META_KEY.checkpoint))) as ChainAnchor | undefined) ?? GENESIS;
  await moveEvents(transaction);
  const segments = await sealEntries(transaction);
  const state: IndexState = {
    sealedThrough: Math.max(head?.seq ?? 0, checkpoint.seq),
    segments,
    version: 1,
  };
  transaction.objectStore(STORE.index).put(state, INDEX_KEY);
  // The head is the last block now; a version 1 head beyond the last stored event stays on record
  // as sealedThrough, so verify still reports the missing events.
  meta.delete(META_KEY.head);
  database.deleteObjectStore(V1.events);
  database.deleteObjectStore(V1.entries);
}

/** Events into blocks of consecutive seqs (a gap starts a new block, so verify still reports it). */
async function moveEvents(transaction: IDBTransaction): Promise<void> {
  const events = transaction.objectStore(V1.events);
  const blocks = transaction.objectStore(STORE.blocks);
  let after: number | undefined;
  for (;;) {
    const page = (await requestResult(
      events.getAll(after === undefined ? null : IDBKeyRange.lowerBound(after, true), READ_PAGE),
    )) as ChainEvent[];
    if (page.length === 0) return;
    let block: StoredBlock | undefined;
    for (const event of page) {
      if (!block || event.seq !== lastSeqOf(block) + 1) {
        if (block) blocks.put(block);
        block = { from: event.seq, texts: [], hashes: [] };
      }
      block.texts.push(textOf(event));
      block.hashes.push(String(event.hash));
    }
    if (block) blocks.put(block);
    after = page.at(-1)!.seq;
  }
}

/** An event that cannot be written as canonical JSON was edited: keep something that fails verify. */
function textOf(event: ChainEvent): string {
  try {
    return eventText(event);
  } catch (error) {
    return JSON.stringify({ unreadable: String(error), seq: event.seq });
  }
}

/** Entries in chain order, into segments (pending ones too: their later events patch them). */
async function sealEntries(transaction: IDBTransaction): Promise<SegmentInfo[]> {
  const index = transaction.objectStore(V1.entries).index(V1.firstSeqIndex);
  const segments: SegmentInfo[] = [];
  let group: AuditEntry[] = [];
  const flush = () => {
    if (group.length === 0) return;
    const from = Math.min(...group.map((entry) => entry.firstSeq));
    const to = Math.max(...group.map((entry) => entry.seqs.at(-1) ?? entry.firstSeq));
    const built = buildSegment(from, to, group);
    putBuiltSegment(transaction, built, STORE);
    segments.push(built.info);
    group = [];
  };
  let after: number | undefined;
  for (;;) {
    const page = (await requestResult(
      index.getAll(after === undefined ? null : IDBKeyRange.lowerBound(after, true), READ_PAGE),
    )) as (AuditEntry & { search?: string })[];
    if (page.length === 0) break;
    for (const stored of page) {
      // Version 1 kept a lower-case copy of the searchable text; words are indexed per segment now.
      const { search: _search, ...entry } = stored;
      group.push(entry);
      if (group.length >= SEGMENT_ENTRIES) flush();
    }
    after = page.at(-1)!.firstSeq;
  }
  flush();
  return segments;
}

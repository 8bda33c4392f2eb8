/**
 * Searching the log: newest first, paged by an exact key, without reading entries that do not
 * match. The unsealed entries (the newest few thousand events) are filtered in memory. Segments are
 * narrowed by the directory (time, outcome counts) and by the term index (tool, server, each search
 * word: which segments have it at all), then visited newest first; each one's summary gives the
 * matching positions, and the visit stops once no older segment can add to the page. Only the pages
 * holding the entries returned are read.
 */

import { STORE, TERM_INDEX } from './database.js';
import type { AuditEntry, EntryOutcome } from './entry.js';
import {
  type AuditQuery,
  compareNewestFirst,
  type EntryFilter,
  encodeCursor,
  entryPasses,
  filterOf,
  type OrderKey,
} from './filter.js';
import { requestResult } from './idb.js';
import {
  findSealed,
  matchPositions,
  pendingIn,
  readEntriesAt,
  readSummary,
  readWords,
  type SealedPlace,
  type SegmentInfo,
  segmentExcluded,
  slotOf,
  TERM,
} from './segment.js';
import type { UnsealedEntries } from './unsealed.js';

export type { AuditQuery } from './filter.js';

export interface AuditPage {
  entries: AuditEntry[];
  /** Present when there may be more (older) entries. */
  cursor?: string;
}

/** Every store a read needs, so one read-only transaction gives one consistent moment. */
export const READ_STORES = [
  STORE.meta,
  STORE.index,
  STORE.blocks,
  STORE.segments,
  STORE.segmentWords,
  STORE.segmentTerms,
  STORE.segmentIds,
  STORE.pages,
];

interface Hit {
  key: OrderKey;
  /** An unsealed entry, or where a sealed one is kept. */
  entry?: AuditEntry;
  place?: SealedPlace;
}

const byKey = (a: Hit, b: Hit) => compareNewestFirst(a.key, b.key);

export async function queryEntries(
  database: IDBDatabase,
  unsealed: UnsealedEntries,
  query: AuditQuery,
): Promise<AuditPage> {
  const limit = Math.max(1, Math.min(query.limit ?? 50, 10_000));
  // One more than asked tells us whether another page exists.
  const wanted = limit + 1;
  const filter = filterOf(query);
  const transaction = database.transaction(READ_STORES, 'readonly');
  const { view, state } = await unsealed.at(transaction);
  const hits: Hit[] = [];
  for (const entry of view.entries.values()) if (entryPasses(entry, filter)) hits.push({ key: entry, entry });
  hits.sort(byKey);
  hits.length = Math.min(hits.length, wanted);

  const summaries = transaction.objectStore(STORE.segments);
  const wordStore = transaction.objectStore(STORE.segmentWords);
  for (const info of await candidateSegments(transaction, state.segments, filter)) {
    // Segments come newest first by their newest entry: once the page is full of entries newer
    // than anything this one holds, no later segment can change it.
    if (hits.length >= wanted && hits[wanted - 1]!.key.startedAt > info.maxAt) break;
    const [summary, words] = await Promise.all([
      readSummary(summaries, info.from),
      filter.words.length > 0 ? readWords(wordStore, info.from) : undefined,
    ]);
    if (!summary || (filter.words.length > 0 && !words)) continue;
    for (const position of matchPositions(summary, filter, wanted + view.shadows.size, words)) {
      // A later state of this entry is in memory (and was filtered there).
      if (view.shadows.has(summary.ids[position]!)) continue;
      hits.push({
        key: { startedAt: summary.startedAt[position]!, invocationId: summary.ids[position]! },
        place: { segment: info.from, ...slotOf(summary, position) },
      });
    }
    hits.sort(byKey);
    hits.length = Math.min(hits.length, wanted);
  }
  const entries = await entriesOf(transaction, hits);
  const page = entries.slice(0, limit);
  return entries.length > limit ? { entries: page, cursor: encodeCursor(page.at(-1)!) } : { entries: page };
}

/**
 * The segments that may hold matches, newest first. Each lookup in the term index lists the
 * segments having a tool, a server or a word beginning with a search word; a word so common that
 * it is in nearly every segment many times over narrows nothing and is left to the summaries.
 */
async function candidateSegments(
  transaction: IDBTransaction,
  directory: readonly SegmentInfo[],
  filter: EntryFilter,
): Promise<SegmentInfo[]> {
  let candidates = directory.filter((info) => !segmentExcluded(info, filter));
  if (candidates.length === 0) return [];
  const ranges: IDBKeyRange[] = [];
  if (filter.toolName !== undefined) ranges.push(IDBKeyRange.only(TERM.tool + filter.toolName));
  if (filter.serverId !== undefined) ranges.push(IDBKeyRange.only(TERM.server + filter.serverId));
  for (const word of filter.words)
    ranges.push(IDBKeyRange.bound(TERM.word + word, `${TERM.word}${word}\uffff`));
  const index = transaction.objectStore(STORE.segmentTerms).index(TERM_INDEX);
  const cap = Math.max(256, directory.length * 4);
  const found = await Promise.all(
    ranges.map(async (range) => {
      const keys = (await requestResult(index.getAllKeys(range, cap + 1))) as number[];
      return keys.length > cap ? undefined : new Set(keys);
    }),
  );
  for (const segments of found)
    if (segments) candidates = candidates.filter((info) => segments.has(info.from));
  return candidates.sort((a, b) => b.maxAt - a.maxAt);
}

/** The entries behind the hits, reading each needed page once. */
async function entriesOf(transaction: IDBTransaction, hits: readonly Hit[]): Promise<AuditEntry[]> {
  const sealed = hits.filter((hit) => !hit.entry);
  const read = await readEntriesAt(
    transaction.objectStore(STORE.pages),
    sealed.map((hit) => hit.place!),
  );
  const found = new Map(sealed.map((hit, i) => [hit, read[i]]));
  return hits
    .map((hit) => hit.entry ?? found.get(hit))
    .filter((entry): entry is AuditEntry => entry !== undefined);
}

/** One entry by id: unsealed in memory, else from the segment whose id list has it. */
export async function getEntry(
  database: IDBDatabase,
  unsealed: UnsealedEntries,
  invocationId: string,
): Promise<AuditEntry | undefined> {
  const transaction = database.transaction(READ_STORES, 'readonly');
  const { view } = await unsealed.at(transaction);
  const own = view.entries.get(invocationId);
  if (own) return own;
  const found = await findSealed(
    transaction.objectStore(STORE.segmentIds),
    transaction.objectStore(STORE.segments),
    invocationId,
  );
  if (!found) return undefined;
  const [entry] = await readEntriesAt(transaction.objectStore(STORE.pages), [
    { segment: found.summary.from, ...slotOf(found.summary, found.position) },
  ]);
  return entry;
}

/** Entries per outcome (all of them, or those started within a time range), and the total. */
export async function countEntries(
  database: IDBDatabase,
  unsealed: UnsealedEntries,
  outcomes: readonly EntryOutcome[],
  range: { from?: number; to?: number } = {},
): Promise<{ counts: Record<EntryOutcome, number>; total: number }> {
  const transaction = database.transaction(READ_STORES, 'readonly');
  const { view, state } = await unsealed.at(transaction);
  const counts = Object.fromEntries(outcomes.map((outcome) => [outcome, 0])) as Record<EntryOutcome, number>;
  let total = 0;
  const inRange = (at: number) =>
    (range.from === undefined || at >= range.from) && (range.to === undefined || at <= range.to);
  const add = (outcome: EntryOutcome, n: number) => {
    total += n;
    if (outcome in counts) counts[outcome] += n;
  };
  for (const entry of view.entries.values()) {
    if (!inRange(entry.startedAt)) continue;
    add(entry.outcome, 1);
    // A shadow's segment copy is counted below under its old outcome: take that back.
    const shadow = view.shadows.get(entry.invocationId);
    if (shadow) add(shadow.stale, -1);
  }
  const summaries = transaction.objectStore(STORE.segments);
  for (const info of state.segments) {
    if (inRange(info.minAt) && inRange(info.maxAt)) {
      for (const [outcome, n] of Object.entries(info.counts)) add(outcome as EntryOutcome, n ?? 0);
      continue;
    }
    if (
      (range.to !== undefined && info.minAt > range.to) ||
      (range.from !== undefined && info.maxAt < range.from)
    )
      continue;
    // Partly inside the range: count its entries from the summary's columns.
    const summary = await readSummary(summaries, info.from);
    if (!summary) continue;
    for (let i = 0; i < summary.ids.length; i++)
      if (inRange(summary.startedAt[i]!)) add(summary.outcomes[summary.outcome[i]!]!, 1);
  }
  return { counts, total };
}

/** A call still pending: who sent it and when (for marking interrupted calls). */
interface PendingCall {
  invocationId: string;
  session?: string;
  sentAt: number;
}

/** Every entry still pending: unsealed ones from memory, sealed ones from their segments' columns. */
export async function pendingCalls(database: IDBDatabase, unsealed: UnsealedEntries): Promise<PendingCall[]> {
  const transaction = database.transaction(READ_STORES, 'readonly');
  const { view, state } = await unsealed.at(transaction);
  const found: PendingCall[] = [];
  for (const entry of view.entries.values())
    if (entry.outcome === 'pending')
      found.push({
        invocationId: entry.invocationId,
        ...(entry.pendingSession ? { session: entry.pendingSession } : {}),
        sentAt: entry.timestamps.sent ?? entry.startedAt,
      });
  const summaries = transaction.objectStore(STORE.segments);
  const holding = state.segments.filter((info) => (info.counts.pending ?? 0) > 0);
  const read = await Promise.all(holding.map((info) => readSummary(summaries, info.from)));
  for (const summary of read)
    if (summary)
      for (const call of pendingIn(summary)) if (!view.shadows.has(call.invocationId)) found.push(call);
  return found;
}

/** The servers and tools the log holds entries of: what a viewer's pickers offer. */
export interface AuditFacets {
  serverIds: string[];
  toolNames: string[];
}

/**
 * Every server id and tool name with an entry in the log, sorted: the unsealed entries' from
 * memory, the sealed ones' from the term index (one key per distinct name, never an entry read).
 */
export async function facetsOf(database: IDBDatabase, unsealed: UnsealedEntries): Promise<AuditFacets> {
  const transaction = database.transaction(READ_STORES, 'readonly');
  const { view } = await unsealed.at(transaction);
  const servers = new Set<string>();
  const tools = new Set<string>();
  for (const entry of view.entries.values()) {
    servers.add(entry.serverId);
    tools.add(entry.toolName);
  }
  const index = transaction.objectStore(STORE.segmentTerms).index(TERM_INDEX);
  await Promise.all([distinctTerms(index, TERM.server, servers), distinctTerms(index, TERM.tool, tools)]);
  const sorted = (names: Set<string>) => [...names].sort((a, b) => a.localeCompare(b));
  return { serverIds: sorted(servers), toolNames: sorted(tools) };
}

/** Adds each distinct term under `prefix` (without it) to `into`, walking unique index keys only. */
function distinctTerms(index: IDBIndex, prefix: string, into: Set<string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = index.openKeyCursor(IDBKeyRange.bound(prefix, `${prefix}\uffff`), 'nextunique');
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const cursor = request.result;
      if (!cursor) return resolve();
      into.add(String(cursor.key).slice(prefix.length));
      cursor.continue();
    };
  });
}

/** What outcome counts can be narrowed by: everything a query filters on except outcome and paging. */
export type CountQuery = Pick<AuditQuery, 'from' | 'to' | 'serverId' | 'toolName' | 'text'>;

/**
 * Entries per outcome among those a query finds (server, tool, words, time): the unsealed ones
 * filtered in memory, the sealed ones counted from the columns of the segments the directory and
 * the term index leave, never an entry read.
 */
export async function countMatching(
  database: IDBDatabase,
  unsealed: UnsealedEntries,
  outcomes: readonly EntryOutcome[],
  query: CountQuery,
): Promise<Record<EntryOutcome, number>> {
  const filter = filterOf(query);
  const counts = Object.fromEntries(outcomes.map((outcome) => [outcome, 0])) as Record<EntryOutcome, number>;
  const add = (outcome: EntryOutcome) => {
    if (outcome in counts) counts[outcome]++;
  };
  const transaction = database.transaction(READ_STORES, 'readonly');
  const { view, state } = await unsealed.at(transaction);
  // In memory: new entries, and the later state of sealed ones (their segment copy is skipped below).
  for (const entry of view.entries.values()) if (entryPasses(entry, filter)) add(entry.outcome);
  const summaries = transaction.objectStore(STORE.segments);
  const wordStore = transaction.objectStore(STORE.segmentWords);
  for (const info of await candidateSegments(transaction, state.segments, filter)) {
    const [summary, words] = await Promise.all([
      readSummary(summaries, info.from),
      filter.words.length > 0 ? readWords(wordStore, info.from) : undefined,
    ]);
    if (!summary || (filter.words.length > 0 && !words)) continue;
    for (const position of matchPositions(summary, filter, Number.POSITIVE_INFINITY, words))
      if (!view.shadows.has(summary.ids[position]!)) add(summary.outcomes[summary.outcome[position]!]!);
  }
  return counts;
}

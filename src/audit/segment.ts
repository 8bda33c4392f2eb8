/**
 * Index segments: finished entries, sealed in bulk, so that appends write one record per batch and
 * the per-entry index work happens a thousand entries at a time.
 *
 * A segment is five records. The summary holds the columns a query filters on (start time,
 * tool, server, outcome, chain positions), newest entry first, and the words record the word
 * postings (read only for a search), so a query picks matching positions without reading a single
 * entry. The pages hold the entries themselves,
 * PAGE_ENTRIES per record, grouped by server and tool (so a filter on either reads few pages),
 * read only for the entries a query returns. The terms record lists the segment's words, tools and
 * servers under a multi-entry index, which tells a query which segments can match at all. The ids
 * record lists its invocation ids as one string, for finding one entry by id.
 *
 * An entry still pending when sealed is patched in place when its later events are sealed (its
 * outcome, last event and session change; its time, tool, server and words do not), and retention
 * rebuilds a segment whose oldest entries it removes. Otherwise a segment never changes.
 */

import type { STORE } from './database.js';
import type { AuditEntry, EntryOutcome, OutcomeCounts } from './entry.js';
import { compareNewestFirst, type EntryFilter, inTimeWindow } from './filter.js';
import { lowerBound, visitWords } from './search-terms.js';

export const PAGE_ENTRIES = 32;

/** Prefixes that keep the kinds of term apart in the one multi-entry index. */
export const TERM = { word: 'w:', tool: 't:', server: 's:' } as const;

/** What the directory (kept with the index state) knows of a segment without reading it. */
export interface SegmentInfo {
  /** The segment's key: the first chain event it covers. */
  from: number;
  /** The last chain event it covers. */
  to: number;
  count: number;
  minAt: number;
  maxAt: number;
  /** The oldest chain event of its entries (retention cuts in chain order). */
  minFirstSeq: number;
  counts: OutcomeCounts;
}

interface SegmentSummary {
  from: number;
  ids: string[];
  startedAt: Float64Array;
  firstSeq: Float64Array;
  lastSeq: Float64Array;
  toolNames: string[];
  tool: Uint32Array;
  serverIds: string[];
  server: Uint32Array;
  outcomes: EntryOutcome[];
  outcome: Uint8Array;
  /** The sending log session of a pending entry, as 1 + its index in `sessions`; 0 for none. */
  sessions: string[];
  session: Uint32Array;
  /** When a pending entry's call was sent (for sessions whose liveness is unknown). */
  sentAt: Float64Array;
  /** Where each position's entry is kept: page slot / PAGE_ENTRIES, at slot % PAGE_ENTRIES. */
  slot: Uint32Array;
}

/** A segment's words and which positions have them. */
interface SegmentWords {
  from: number;
  /** Sorted distinct words; the positions having words[i] are postings[wordStart[i] .. wordStart[i+1]). */
  words: string[];
  wordStart: Uint32Array;
  postings: Uint16Array | Uint32Array;
}

/** A segment's invocation ids as one JSON string (a search for one id reads them all at once). */
interface SegmentIds {
  from: number;
  ids: string;
}

interface SegmentTerms {
  from: number;
  terms: string[];
}

export interface SegmentPage {
  from: number;
  page: number;
  entries: AuditEntry[];
}

interface BuiltSegment {
  info: SegmentInfo;
  summary: SegmentSummary;
  words: SegmentWords;
  terms: SegmentTerms;
  ids: SegmentIds;
  pages: SegmentPage[];
}

/** The page and the index in it where the entry at `position` is kept. */
export function slotOf(summary: SegmentSummary, position: number): { page: number; index: number } {
  const slot = summary.slot[position]!;
  return { page: Math.floor(slot / PAGE_ENTRIES), index: slot % PAGE_ENTRIES };
}

/** Interns strings to small numbers (a column of tool names becomes a list and indexes into it). */
function interner(list: string[] = []): { list: string[]; id: (value: string) => number } {
  const ids = new Map<string, number>(list.map((value, i) => [value, i]));
  return {
    list,
    id: (value) => {
      let id = ids.get(value);
      if (id === undefined) {
        id = list.length;
        list.push(value);
        ids.set(value, id);
      }
      return id;
    },
  };
}

export function buildSegment(from: number, to: number, entries: readonly AuditEntry[]): BuiltSegment {
  const sorted = [...entries].sort(compareNewestFirst);
  const n = sorted.length;
  const tools = interner();
  const servers = interner();
  const outcomes = interner();
  const sessions = interner();
  const summary: SegmentSummary = {
    from,
    ids: new Array<string>(n),
    startedAt: new Float64Array(n),
    firstSeq: new Float64Array(n),
    lastSeq: new Float64Array(n),
    toolNames: tools.list,
    tool: new Uint32Array(n),
    serverIds: servers.list,
    server: new Uint32Array(n),
    outcomes: outcomes.list as EntryOutcome[],
    outcome: new Uint8Array(n),
    sessions: sessions.list,
    session: new Uint32Array(n),
    sentAt: new Float64Array(n),
    slot: new Uint32Array(n),
  };
  const byWord = new Map<string, number[]>();
  const counts: OutcomeCounts = {};
  const terms = new Set<string>();
  let minAt = Number.POSITIVE_INFINITY;
  let maxAt = Number.NEGATIVE_INFINITY;
  let minFirstSeq = Number.POSITIVE_INFINITY;
  for (const [i, entry] of sorted.entries()) {
    summary.ids[i] = entry.invocationId;
    summary.startedAt[i] = entry.startedAt;
    summary.firstSeq[i] = entry.firstSeq;
    summary.lastSeq[i] = entry.seqs.at(-1) ?? entry.firstSeq;
    summary.tool[i] = tools.id(entry.toolName);
    summary.server[i] = servers.id(entry.serverId);
    summary.outcome[i] = outcomes.id(entry.outcome);
    summary.session[i] = entry.pendingSession === undefined ? 0 : sessions.id(entry.pendingSession) + 1;
    summary.sentAt[i] = entry.timestamps.sent ?? entry.startedAt;
    counts[entry.outcome] = (counts[entry.outcome] ?? 0) + 1;
    minAt = Math.min(minAt, entry.startedAt);
    maxAt = Math.max(maxAt, entry.startedAt);
    minFirstSeq = Math.min(minFirstSeq, entry.firstSeq);
    visitWords(entry, (word) => {
      const list = byWord.get(word);
      if (!list) byWord.set(word, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    });
  }
  const sortedWords = [...byWord.keys()].sort();
  const wordStart = new Uint32Array(sortedWords.length + 1);
  let total = 0;
  for (const [i, word] of sortedWords.entries()) {
    wordStart[i] = total;
    total += byWord.get(word)!.length;
  }
  wordStart[sortedWords.length] = total;
  const postings = n <= 0xffff ? new Uint16Array(total) : new Uint32Array(total);
  for (const [i, word] of sortedWords.entries()) postings.set(byWord.get(word)!, wordStart[i]);
  for (const word of sortedWords) terms.add(TERM.word + word);
  for (const tool of tools.list) terms.add(TERM.tool + tool);
  for (const server of servers.list) terms.add(TERM.server + server);

  // Pages by server, then tool, newest first within: a filter on either finds its entries together.
  const byGroup = [...sorted.keys()].sort(
    (a, b) => summary.server[a]! - summary.server[b]! || summary.tool[a]! - summary.tool[b]! || a - b,
  );
  const pages: SegmentPage[] = [];
  for (const [slot, position] of byGroup.entries()) {
    summary.slot[position] = slot;
    if (slot % PAGE_ENTRIES === 0) pages.push({ from, page: slot / PAGE_ENTRIES, entries: [] });
    pages.at(-1)!.entries.push(sorted[position]!);
  }
  return {
    info: { from, to, count: n, minAt, maxAt, minFirstSeq, counts },
    summary,
    words: { from, words: sortedWords, wordStart, postings },
    terms: { from, terms: [...terms] },
    ids: { from, ids: JSON.stringify(summary.ids) },
    pages,
  };
}

/** Positions (newest first) whose words include one beginning with `prefix`, as a mask. */
function wordMask(words: SegmentWords, count: number, prefix: string): Uint8Array {
  const mask = new Uint8Array(count);
  for (let w = lowerBound(words.words, prefix); w < words.words.length; w++) {
    if (!words.words[w]!.startsWith(prefix)) break;
    for (let p = words.wordStart[w]!; p < words.wordStart[w + 1]!; p++) mask[words.postings[p]!] = 1;
  }
  return mask;
}

/**
 * The positions (in order, newest first) of the entries that pass, at most `limit` of them. A
 * filter with search words needs the segment's words.
 */
export function matchPositions(
  summary: SegmentSummary,
  filter: EntryFilter,
  limit: number,
  words?: SegmentWords,
): number[] {
  const lookup = (list: readonly string[], value: string | undefined) =>
    value === undefined ? -1 : list.indexOf(value);
  const tool = lookup(summary.toolNames, filter.toolName);
  const server = lookup(summary.serverIds, filter.serverId);
  if ((filter.toolName !== undefined && tool < 0) || (filter.serverId !== undefined && server < 0)) return [];
  let outcomes: Uint8Array | undefined;
  if (filter.outcomes) {
    outcomes = new Uint8Array(summary.outcomes.length);
    for (const [i, outcome] of summary.outcomes.entries()) if (filter.outcomes.has(outcome)) outcomes[i] = 1;
  }
  if (filter.words.length > 0 && !words) throw new Error('a search needs the segment words');
  const masks = filter.words.map((word) => wordMask(words!, summary.ids.length, word));
  const found: number[] = [];
  for (let i = 0; i < summary.ids.length && found.length < limit; i++) {
    if (tool >= 0 && summary.tool[i] !== tool) continue;
    if (server >= 0 && summary.server[i] !== server) continue;
    if (outcomes && outcomes[summary.outcome[i]!] !== 1) continue;
    if (!masks.every((mask) => mask[i] === 1)) continue;
    if (!inTimeWindow(filter, { startedAt: summary.startedAt[i]!, invocationId: summary.ids[i]! })) continue;
    found.push(i);
  }
  return found;
}

/** Whether the directory alone rules a segment out for this filter. */
export function segmentExcluded(info: SegmentInfo, filter: EntryFilter): boolean {
  if (info.count === 0) return true;
  if (filter.from !== undefined && info.maxAt < filter.from) return true;
  if (filter.to !== undefined && info.minAt > filter.to) return true;
  if (filter.after && info.minAt > filter.after.startedAt) return true;
  if (filter.outcomes && ![...filter.outcomes].some((outcome) => (info.counts[outcome] ?? 0) > 0))
    return true;
  return false;
}

/**
 * Writes later states of some of a segment's entries (pending ones that finished) into its summary
 * columns, its pages (given, keyed by page number) and its directory info.
 */
export function patchSegment(
  summary: SegmentSummary,
  pages: ReadonlyMap<number, SegmentPage>,
  info: SegmentInfo,
  updated: readonly AuditEntry[],
): SegmentInfo {
  const outcomes = interner(summary.outcomes);
  const sessions = interner(summary.sessions);
  const counts: OutcomeCounts = { ...info.counts };
  for (const entry of updated) {
    const position = summary.ids.indexOf(entry.invocationId);
    if (position < 0) continue;
    const { page: number, index } = slotOf(summary, position);
    const page = pages.get(number);
    if (!page) continue;
    const before = summary.outcomes[summary.outcome[position]!]!;
    counts[before] = Math.max(0, (counts[before] ?? 0) - 1);
    counts[entry.outcome] = (counts[entry.outcome] ?? 0) + 1;
    summary.outcome[position] = outcomes.id(entry.outcome);
    summary.lastSeq[position] = entry.seqs.at(-1) ?? entry.firstSeq;
    summary.session[position] =
      entry.pendingSession === undefined ? 0 : sessions.id(entry.pendingSession) + 1;
    summary.sentAt[position] = entry.timestamps.sent ?? entry.startedAt;
    page.entries[index] = entry;
  }
  return { ...info, counts };
}

/** Positions of the entries still pending, with their sending session and when they were sent. */
export function pendingIn(
  summary: SegmentSummary,
): { invocationId: string; session?: string; sentAt: number }[] {
  const pending = summary.outcomes.indexOf('pending');
  const found: { invocationId: string; session?: string; sentAt: number }[] = [];
  if (pending < 0) return found;
  for (let i = 0; i < summary.ids.length; i++) {
    if (summary.outcome[i] !== pending) continue;
    const session = summary.session[i]! > 0 ? summary.sessions[summary.session[i]! - 1] : undefined;
    found.push({
      invocationId: summary.ids[i]!,
      ...(session ? { session } : {}),
      sentAt: summary.sentAt[i]!,
    });
  }
  return found;
}

/**
 * A summary as stored: its ids as one JSON string, and the words record's words one per line (a
 * word never holds a line break). Reading one long string back is a copy; reading thousands of
 * small ones measured several times slower, and these are what queries read.
 */
interface StoredSummary extends Omit<SegmentSummary, 'ids'> {
  ids: string;
}
interface StoredWords extends Omit<SegmentWords, 'words'> {
  words: string;
}

export function putSummary(store: IDBObjectStore, summary: SegmentSummary): void {
  const stored: StoredSummary = { ...summary, ids: JSON.stringify(summary.ids) };
  store.put(stored);
}

export function putWords(store: IDBObjectStore, words: SegmentWords): void {
  const stored: StoredWords = { ...words, words: words.words.join('\n') };
  store.put(stored);
}

/**
 * Writes a built segment (summary, terms, ids, words, pages) in `transaction`. The store names come
 * from the caller (database.ts's STORE), which keeps this module free of the database's imports.
 */
export function putBuiltSegment(
  transaction: IDBTransaction,
  built: BuiltSegment,
  stores: typeof STORE,
): void {
  putSummary(transaction.objectStore(stores.segments), built.summary);
  transaction.objectStore(stores.segmentTerms).put(built.terms);
  transaction.objectStore(stores.segmentIds).put(built.ids);
  putWords(transaction.objectStore(stores.segmentWords), built.words);
  const pages = transaction.objectStore(stores.pages);
  for (const page of built.pages) pages.put(page);
}

function read<T>(store: IDBObjectStore, from: number): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const request = store.get(from);
    request.onsuccess = () => resolve(request.result as T | undefined);
    request.onerror = () => reject(request.error);
  });
}

export async function readSummary(store: IDBObjectStore, from: number): Promise<SegmentSummary | undefined> {
  const stored = await read<StoredSummary>(store, from);
  return stored ? { ...stored, ids: JSON.parse(stored.ids) as string[] } : undefined;
}

export async function readWords(store: IDBObjectStore, from: number): Promise<SegmentWords | undefined> {
  const stored = await read<StoredWords>(store, from);
  return stored ? { ...stored, words: stored.words === '' ? [] : stored.words.split('\n') } : undefined;
}

/** Where a sealed entry is: its segment, and its page and index there. */
export interface SealedPlace {
  segment: number;
  page: number;
  index: number;
}

/** The entries at these places, each page read once (in `pages`, the pages store). */
export async function readEntriesAt(
  pages: IDBObjectStore,
  places: readonly SealedPlace[],
): Promise<(AuditEntry | undefined)[]> {
  const read = new Map<string, Promise<SegmentPage | undefined>>();
  return Promise.all(
    places.map(async ({ segment, page, index }) => {
      const key = `${segment}:${page}`;
      let request = read.get(key);
      if (!request) {
        request = new Promise<SegmentPage | undefined>((resolve, reject) => {
          const get = pages.get([segment, page]);
          get.onsuccess = () => resolve(get.result as SegmentPage | undefined);
          get.onerror = () => reject(get.error);
        });
        read.set(key, request);
      }
      return (await request)?.entries[index];
    }),
  );
}

/**
 * The segment holding an invocation, by reading every segment's id list at once (a lookup by id is
 * rare: an entry's detail, a call finishing after its seal); undefined when none does.
 */
export async function findSealed(
  ids: IDBObjectStore,
  summaries: IDBObjectStore,
  invocationId: string,
): Promise<{ summary: SegmentSummary; position: number } | undefined> {
  const all = await new Promise<SegmentIds[]>((resolve, reject) => {
    const request = ids.getAll();
    request.onsuccess = () => resolve(request.result as SegmentIds[]);
    request.onerror = () => reject(request.error);
  });
  const needle = JSON.stringify(invocationId);
  for (const record of all) {
    // A quick look in the text first; the summary then says exactly.
    if (!record.ids.includes(needle)) continue;
    const summary = await readSummary(summaries, record.from);
    const position = summary?.ids.indexOf(invocationId) ?? -1;
    if (summary && position >= 0) return { summary, position };
  }
  return undefined;
}

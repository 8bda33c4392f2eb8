/**
 * Searching the log: newest first, paged by an exact key. The most selective index that covers the
 * filters narrows the range (server+tool, tool, server, outcome, or time alone); remaining filters
 * (a second outcome, free text) are applied while walking it. Without residual filters a page is one
 * getAllRecords call where the browser has it.
 */

import { type EntryIndexName, STORE } from './database.js';
import type { AuditEntry, EntryOutcome } from './entry.js';
import { requestResult } from './idb.js';

export interface AuditQuery {
  /** Inclusive bounds on startedAt (ms since epoch). */
  from?: number;
  to?: number;
  serverId?: string;
  toolName?: string;
  outcome?: EntryOutcome | readonly EntryOutcome[];
  /** Case-insensitive substring of the tool name, server or arguments. */
  text?: string;
  /** Entries per page; default 50. */
  limit?: number;
  /** From the previous page; omit for the newest page. */
  cursor?: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** Present when there may be more (older) entries. */
  cursor?: string;
}

interface Plan {
  index: EntryIndexName;
  prefix: IDBValidKey[];
  residual: (entry: AuditEntry) => boolean;
  hasResidual: boolean;
}

export function planQuery(query: AuditQuery): Plan {
  const outcomes =
    query.outcome === undefined ? [] : Array.isArray(query.outcome) ? query.outcome : [query.outcome];
  const text = query.text?.trim().toLowerCase() ?? '';
  let index: EntryIndexName = 'time';
  let prefix: IDBValidKey[] = [];
  // Tool names are selective (and rarely shared across servers); the server is then checked per entry.
  if (query.toolName !== undefined) {
    index = 'tool';
    prefix = [query.toolName];
  } else if (query.serverId !== undefined) {
    index = 'server';
    prefix = [query.serverId];
  } else if (outcomes.length === 1) {
    index = 'outcome';
    prefix = [outcomes[0]!];
  }
  const checkOutcome = outcomes.length > 0 && index !== 'outcome';
  const checks: ((entry: AuditEntry) => boolean)[] = [];
  if (query.serverId !== undefined && index !== 'server') {
    const serverId = query.serverId;
    checks.push((entry) => entry.serverId === serverId);
  }
  if (checkOutcome) checks.push((entry) => outcomes.includes(entry.outcome));
  if (text) checks.push((entry) => entry.search.includes(text));
  return {
    index,
    prefix,
    residual: (entry) => checks.every((check) => check(entry)),
    hasResidual: checks.length > 0,
  };
}

interface CursorKey {
  startedAt: number;
  invocationId: string;
}

function encodeCursor(entry: AuditEntry): string {
  return JSON.stringify([entry.startedAt, entry.invocationId]);
}

function decodeCursor(cursor: string): CursorKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(cursor);
  } catch {
    throw new TypeError('The audit query cursor is not one this log issued.');
  }
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'number' || typeof parsed[1] !== 'string')
    throw new TypeError('The audit query cursor is not one this log issued.');
  return { startedAt: parsed[0], invocationId: parsed[1] };
}

/** The key range of one index for the prefix, the time bounds and the cursor (exclusive). */
export function rangeOf(prefix: IDBValidKey[], query: AuditQuery): IDBKeyRange {
  const lower = [...prefix, query.from ?? Number.NEGATIVE_INFINITY];
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor);
    const to = query.to !== undefined && query.to < after.startedAt ? query.to : undefined;
    if (to !== undefined) return IDBKeyRange.bound(lower, [...prefix, to, []]);
    return IDBKeyRange.bound(lower, [...prefix, after.startedAt, after.invocationId], false, true);
  }
  // An array sorts after every string, so [.., to, []] includes every id at `to`.
  return IDBKeyRange.bound(lower, [...prefix, query.to ?? Number.POSITIVE_INFINITY, []]);
}

interface RecordsIndex {
  getAllRecords(options: {
    query?: IDBKeyRange;
    count?: number;
    direction?: IDBCursorDirection;
  }): IDBRequest<{ value: unknown }[]>;
}

export async function queryEntries(database: IDBDatabase, query: AuditQuery): Promise<AuditPage> {
  const limit = Math.max(1, Math.min(query.limit ?? 50, 10_000));
  const plan = planQuery(query);
  const transaction = database.transaction(STORE.entries, 'readonly');
  const index = transaction.objectStore(STORE.entries).index(plan.index);
  const range = rangeOf(plan.prefix, query);
  // One more than asked tells us whether another page exists.
  const wanted = limit + 1;
  const hasRecords = 'getAllRecords' in index;
  let found: AuditEntry[];
  if (!plan.hasResidual && hasRecords) {
    const records = await requestResult(
      (index as unknown as RecordsIndex).getAllRecords({ query: range, count: wanted, direction: 'prev' }),
    );
    found = records.map((record) => record.value as AuditEntry);
  } else if (hasRecords) {
    found = await scanPages(index as unknown as RecordsIndex, plan.prefix, query, wanted, plan.residual);
  } else {
    found = await walk(index.openCursor(range, 'prev'), wanted, plan.residual);
  }
  const entries = found.slice(0, limit);
  return found.length > limit ? { entries, cursor: encodeCursor(entries.at(-1)!) } : { entries };
}

/**
 * Filtering scan in pages of records, newest first: one request per page instead of one per entry
 * (a cursor step costs a round trip each). Each page continues below the last key seen.
 */
async function scanPages(
  index: RecordsIndex,
  prefix: IDBValidKey[],
  query: AuditQuery,
  wanted: number,
  keep: (entry: AuditEntry) => boolean,
): Promise<AuditEntry[]> {
  const found: AuditEntry[] = [];
  let page = 200;
  let cursor = query.cursor;
  for (;;) {
    const records = await requestResult(
      index.getAllRecords({ query: rangeOf(prefix, { ...query, cursor }), count: page, direction: 'prev' }),
    );
    for (const record of records) {
      const entry = record.value as AuditEntry;
      if (keep(entry)) found.push(entry);
      if (found.length >= wanted) return found;
    }
    if (records.length < page) return found;
    const last = records.at(-1)!.value as AuditEntry;
    cursor = encodeCursor(last);
    // Rare matches: read further per request.
    page = Math.min(page * 2, 2000);
  }
}

function walk(
  request: IDBRequest<IDBCursorWithValue | null>,
  wanted: number,
  keep: (entry: AuditEntry) => boolean,
): Promise<AuditEntry[]> {
  return new Promise((resolve, reject) => {
    const found: AuditEntry[] = [];
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const cursor = request.result;
      if (!cursor) return resolve(found);
      const entry = cursor.value as AuditEntry;
      if (keep(entry)) found.push(entry);
      if (found.length >= wanted) return resolve(found);
      cursor.continue();
    };
  });
}

/** How many entries have each outcome, optionally within a time range. */
export async function countByOutcome(
  database: IDBDatabase,
  outcomes: readonly EntryOutcome[],
  range: { from?: number; to?: number } = {},
): Promise<Record<EntryOutcome, number>> {
  const transaction = database.transaction(STORE.entries, 'readonly');
  const index = transaction.objectStore(STORE.entries).index('outcome');
  const counts = await Promise.all(
    outcomes.map((outcome) => requestResult(index.count(rangeOf([outcome], range)))),
  );
  return Object.fromEntries(outcomes.map((outcome, i) => [outcome, counts[i]!])) as Record<
    EntryOutcome,
    number
  >;
}

/**
 * A query as a filter on entries, and the log's one order: newest first by [startedAt,
 * invocationId]. The same filter runs over entries in memory (not yet indexed) and over the columns
 * of an index segment, so both agree on what matches.
 */

import type { AuditEntry, EntryOutcome } from './entry.js';
import { matchesWords, searchWords } from './search-terms.js';

export interface AuditQuery {
  /** Inclusive bounds on startedAt (ms since epoch). */
  from?: number;
  to?: number;
  serverId?: string;
  toolName?: string;
  outcome?: EntryOutcome | readonly EntryOutcome[];
  /**
   * Words to find in the tool name, server or arguments preview (case-insensitive). Every word must
   * begin a word of the entry: `exam` finds `example.com`, `tool_4` finds `tool_42`.
   */
  text?: string;
  /** Entries per page; default 50. */
  limit?: number;
  /** From the previous page; omit for the newest page. */
  cursor?: string;
}

/** An entry's place in the order: compared newest first. */
export interface OrderKey {
  startedAt: number;
  invocationId: string;
}

export interface EntryFilter {
  from?: number | undefined;
  to?: number | undefined;
  serverId?: string | undefined;
  toolName?: string | undefined;
  outcomes?: ReadonlySet<EntryOutcome> | undefined;
  words: readonly string[];
  /** Only entries after this one in the order (the cursor). */
  after?: OrderKey | undefined;
}

/** Negative when `a` comes first (is newer), positive when `b` does. */
export function compareNewestFirst(a: OrderKey, b: OrderKey): number {
  if (a.startedAt !== b.startedAt) return b.startedAt - a.startedAt;
  return a.invocationId < b.invocationId ? 1 : a.invocationId > b.invocationId ? -1 : 0;
}

export function encodeCursor(key: OrderKey): string {
  return JSON.stringify([key.startedAt, key.invocationId]);
}

function decodeCursor(cursor: string): OrderKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(cursor);
  } catch {
    // A cursor we did not issue: say so instead of the parser's message.
    throw new TypeError('The audit query cursor is not one this log issued.');
  }
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'number' || typeof parsed[1] !== 'string')
    throw new TypeError('The audit query cursor is not one this log issued.');
  return { startedAt: parsed[0], invocationId: parsed[1] };
}

export function filterOf(query: AuditQuery): EntryFilter {
  const outcomes =
    query.outcome === undefined ? undefined : Array.isArray(query.outcome) ? query.outcome : [query.outcome];
  return {
    from: query.from,
    to: query.to,
    serverId: query.serverId,
    toolName: query.toolName,
    outcomes: outcomes && outcomes.length > 0 ? new Set(outcomes as EntryOutcome[]) : undefined,
    words: searchWords(query.text ?? ''),
    after: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
  };
}

/** Whether an entry whose startedAt is `at` can pass the time bounds and the cursor. */
export function inTimeWindow(filter: EntryFilter, key: OrderKey): boolean {
  if (filter.from !== undefined && key.startedAt < filter.from) return false;
  if (filter.to !== undefined && key.startedAt > filter.to) return false;
  return !filter.after || compareNewestFirst(filter.after, key) < 0;
}

export function entryPasses(entry: AuditEntry, filter: EntryFilter): boolean {
  return (
    inTimeWindow(filter, entry) &&
    (filter.serverId === undefined || entry.serverId === filter.serverId) &&
    (filter.toolName === undefined || entry.toolName === filter.toolName) &&
    (!filter.outcomes || filter.outcomes.has(entry.outcome)) &&
    matchesWords(entry, filter.words)
  );
}

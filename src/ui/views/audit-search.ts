/**
 * The search box's queries. The log indexes server ids, but the table shows server names
 * ("Files (work)"): a search whose every word begins a word of some servers' names also finds those
 * servers' entries, by one indexed query per server merged with the text's own (the log's word
 * search over tool, server id, caller and arguments), newest first, without repeats.
 */

import type { AuditLog, AuditPage, AuditQuery, CountQuery, EntryOutcome } from '../../audit/index.js';
import { encodeCursor } from '../../audit/index.js';

interface NamedServer {
  id: string;
  /** What the lists show, and the server's own label. */
  names: readonly string[];
}

/** Lower-cased words of a name, with their parts: "toolgate-peer (alpha)" has "toolgate-peer", "peer", "alpha". */
function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const run of text.toLowerCase().split(/[^\p{L}\p{N}._-]+/u)) {
    if (!run) continue;
    words.push(run);
    for (const part of run.split(/[._-]+/)) if (part && part !== run) words.push(part);
  }
  return words;
}

/** The ids of the servers every word of `text` names (undefined when the text is not such a search). */
export function serversNamed(text: string, servers: readonly NamedServer[]): string[] | undefined {
  const wanted = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}._-]+/u)
    .filter(Boolean);
  if (wanted.length === 0) return undefined;
  const named = servers.filter((server) => {
    const own = server.names.flatMap(wordsOf);
    return wanted.every((word) => own.some((candidate) => candidate.startsWith(word)));
  });
  return named.length > 0 ? named.map((server) => server.id) : undefined;
}

/**
 * The servers a search names, within the server picker's choice: their entries are found besides
 * what the text itself finds (a word can be a tool's and a server's at once).
 */
export function namedServers(query: AuditQuery, servers: readonly NamedServer[]): readonly string[] {
  const named = query.text ? (serversNamed(query.text, servers) ?? []) : [];
  return query.serverId === undefined ? named : named.filter((id) => id === query.serverId);
}

const withoutText = <Q extends { text?: string }>(query: Q): Omit<Q, 'text'> => {
  const { text: _text, ...rest } = query;
  return rest;
};

/**
 * One page of what `query` finds, together with every entry of the `named` servers: each an
 * indexed query, merged newest first without repeats. The cursor is a position in the log's one
 * order, so it continues every list at once.
 */
export async function searchLog(
  log: AuditLog,
  query: AuditQuery,
  named: readonly string[],
): Promise<AuditPage> {
  if (named.length === 0) return log.query(query);
  const pages = await Promise.all([
    log.query(query),
    ...named.map((serverId) => log.query({ ...withoutText(query), serverId })),
  ]);
  const seen = new Set<string>();
  const merged = pages
    .flatMap((page) => page.entries)
    .filter((entry) => !seen.has(entry.invocationId) && seen.add(entry.invocationId))
    .sort((a, b) => b.startedAt - a.startedAt || (a.invocationId < b.invocationId ? 1 : -1));
  const entries = merged.slice(0, query.limit ?? 50);
  const last = entries.at(-1);
  const more = merged.length > entries.length || pages.some((page) => page.cursor !== undefined);
  return { entries, ...(more && last ? { cursor: encodeCursor(last) } : {}) };
}

/**
 * Entries per outcome among what `searchLog` finds: the text's count, plus each named server's
 * entries the text did not already find (servers are disjoint, so nothing is counted twice).
 */
export async function countLog(
  log: AuditLog,
  query: CountQuery,
  named: readonly string[],
): Promise<Record<EntryOutcome, number>> {
  const [base, ...rest] = await Promise.all([
    log.countByOutcome(query),
    ...named.flatMap((serverId) => [
      log.countByOutcome({ ...withoutText(query), serverId }),
      log.countByOutcome({ ...query, serverId }),
    ]),
  ]);
  const total = { ...base! };
  for (let i = 0; i < rest.length; i += 2)
    for (const outcome of Object.keys(total) as EntryOutcome[])
      total[outcome] += rest[i]![outcome] - rest[i + 1]![outcome];
  return total;
}

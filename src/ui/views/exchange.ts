/**
 * A connection's JSON-RPC messages as exchanges: each request with its response (matched by id, in
 * the opposite direction: ours answered by the server, and the server's requests answered by us),
 * with the time between them; notifications and unmatched messages on their own. Newest first.
 */

import type { TrafficEntry } from '../../session/index.js';

export type Exchange =
  | { kind: 'pair'; request: TrafficEntry; response?: TrafficEntry; latencyMs?: number; method: string }
  | { kind: 'notification'; entry: TrafficEntry; method: string }
  | { kind: 'single'; entry: TrafficEntry };

interface Fields {
  method?: string;
  id?: string | number;
}

function fieldsOf(message: unknown): Fields {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return {};
  const { method, id } = message as { method?: unknown; id?: unknown };
  return {
    ...(typeof method === 'string' ? { method } : {}),
    ...(typeof id === 'string' || typeof id === 'number' ? { id } : {}),
  };
}

/** The key a request and its response share: who asked, and the id. */
const keyOf = (asker: TrafficEntry['direction'], id: string | number) => `${asker}:${typeof id}:${id}`;

export function pairExchange(entries: readonly TrafficEntry[]): Exchange[] {
  const exchanges: Exchange[] = [];
  /** Requests still waiting for their response, by key, as their index in `exchanges`. */
  const open = new Map<string, number>();
  for (const entry of entries) {
    const { method, id } = fieldsOf(entry.message);
    if (method !== undefined && id !== undefined) {
      open.set(keyOf(entry.direction, id), exchanges.length);
      exchanges.push({ kind: 'pair', request: entry, method });
    } else if (method !== undefined) {
      exchanges.push({ kind: 'notification', entry, method });
    } else if (id !== undefined) {
      // A response answers a request that went the other way.
      const key = keyOf(entry.direction === 'sent' ? 'received' : 'sent', id);
      const at = open.get(key);
      const pair = at === undefined ? undefined : exchanges[at];
      if (pair?.kind === 'pair') {
        open.delete(key);
        exchanges[at!] = { ...pair, response: entry, latencyMs: Math.max(0, entry.at - pair.request.at) };
      } else exchanges.push({ kind: 'single', entry });
    } else exchanges.push({ kind: 'single', entry });
  }
  return exchanges.reverse();
}

/** The method an exchange is about ('' for a message that names none). */
export const methodOf = (exchange: Exchange): string => ('method' in exchange ? exchange.method : '');

/** The messages of an exchange, in the order they went. */
export const messagesOf = (exchange: Exchange): TrafficEntry[] =>
  exchange.kind === 'pair'
    ? [exchange.request, ...(exchange.response ? [exchange.response] : [])]
    : [exchange.entry];

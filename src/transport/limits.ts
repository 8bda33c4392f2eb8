/**
 * How much a server may make Toolgate read, and how often it may make it reconnect. A client
 * embedded in other people's pages must not hand its memory or its person's time to whatever a
 * server sends: every answer is read against a cap, and a reader that reaches one stops, cancels the
 * request and says so. connect() takes these per server (`limits`); every field has a default.
 * The error for an answer over its cap, and the sizes it names, are in too-large.ts.
 */

import type { ConnectionLimits } from '../protocol/index.js';

const MB = 1024 * 1024;

export type { ConnectionLimits };

/** Every limit filled in. */
export type ResolvedLimits = Readonly<Required<ConnectionLimits>>;

/** The defaults: far above any real MCP answer, far below what would hurt a browser tab. */
export const DEFAULT_LIMITS: ResolvedLimits = Object.freeze({
  maxBodyBytes: 16 * MB,
  maxEventBytes: 8 * MB,
  maxMessageBytes: 16 * MB,
  maxReconnects: 5,
  maxEmptyStreams: 3,
  minRetryMs: 500,
  reconnectDelayMs: 1_000,
  maxReconnectDelayMs: 30_000,
  maxSessionRestarts: 3,
});

/** Fills in defaults; throws a TypeError naming the field for a value that is not a positive number (0 allowed for counts). */
export function resolveLimits(limits: ConnectionLimits = {}): ResolvedLimits {
  const resolved = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as Array<keyof ConnectionLimits>) {
    const value = limits[key];
    if (value === undefined) continue;
    const isCount =
      key === 'maxReconnects' ||
      key === 'maxEmptyStreams' ||
      key === 'maxSessionRestarts' ||
      key === 'minRetryMs';
    if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || (!isCount && value === 0))
      throw new TypeError(
        `limits.${key} must be a ${isCount ? 'non-negative' : 'positive'} number, not ${String(value)}`,
      );
    resolved[key] = value;
  }
  return Object.freeze(resolved);
}

/**
 * How long to wait before reopen attempt `attempt` (0 for the first) of a dropped SSE stream: the
 * server's `retry:` (or our first delay) raised to the floor, doubled per failed attempt, capped.
 */
export function reconnectDelay(
  attempt: number,
  serverRetryMs: number | undefined,
  limits: ResolvedLimits,
): number {
  const base = Math.max(limits.minRetryMs, serverRetryMs ?? limits.reconnectDelayMs);
  return Math.min(limits.maxReconnectDelayMs, base * 2 ** attempt);
}

/**
 * How much a server may make Toolgate read, and how often it may make it reconnect. A client
 * embedded in other people's pages must not hand its memory or its person's time to whatever a
 * server sends: every answer is read against a cap, and a reader that reaches one stops, cancels the
 * request and says so. connect() takes these per server (`limits`); every field has a default.
 */

import { type ConnectionLimits, ToolgateError } from '../protocol/index.js';

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

/** "16 MB", "1.5 MB", "300 KB": a size as a person reads it. */
export function describeBytes(bytes: number): string {
  if (bytes >= MB) {
    const mb = bytes / MB;
    return `${mb >= 10 || Number.isInteger(mb) ? Math.round(mb) : mb.toFixed(1)} MB`;
  }
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Which cap an answer ran into. */
export type SizeCap = 'body' | 'stream' | 'event' | 'message';

/** Which ConnectionLimits field raises each cap. */
const OPTION_OF: Readonly<Record<SizeCap, keyof ConnectionLimits>> = {
  body: 'maxBodyBytes',
  stream: 'maxBodyBytes',
  event: 'maxEventBytes',
  message: 'maxMessageBytes',
};

/**
 * An answer outgrew its cap. Toolgate stopped reading at the cap, cancelled the request and used
 * nothing from the answer. `bytes` is exact when the server declared the size up front, otherwise
 * what had arrived when reading stopped (`atLeast`).
 */
export class ResponseTooLargeError extends ToolgateError {
  readonly kind = 'too-large';
  constructor(
    readonly server: string,
    readonly method: string,
    readonly cap: SizeCap,
    readonly bytes: number,
    readonly limit: number,
    readonly atLeast: boolean,
  ) {
    super(
      `response too large (${sizeText(cap, bytes, limit, atLeast)}, limit ${describeBytes(limit)}${
        cap === 'event' ? ' per event' : cap === 'message' ? ' per message' : ''
      }): ${server} answered ${method} with more than Toolgate reads from one server. It stopped reading, ` +
        `cancelled the request and used nothing from the answer. If answers this big are expected, ` +
        `raise limits.${OPTION_OF[cap]} for this server.`,
    );
    this.name = 'ResponseTooLargeError';
  }
}

function sizeText(cap: SizeCap, bytes: number, limit: number, atLeast: boolean): string {
  // Reading stopped just past the cap, so what arrived says no more than "over the limit".
  const size = atLeast ? `over ${describeBytes(limit)}` : describeBytes(bytes);
  if (cap === 'event') return `an event of ${size}`;
  if (cap === 'stream') return `${size} in its event stream`;
  return size;
}

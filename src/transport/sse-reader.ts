/**
 * Server-Sent Events over fetch. We read SSE from `fetch` bodies rather than with EventSource because
 * MCP needs custom request headers (Authorization, session, version) and POST-initiated streams.
 *
 * Reading is bounded. Lines are cut from the raw bytes here (CR and LF never occur inside a UTF-8
 * sequence), so sizes are counted exactly, the same however the network chunks the stream, and a
 * line is never buffered past the cap; eventsource-parser then reads the fields of each whole line.
 */

import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import { TransportError } from '../protocol/index.js';
import { DEFAULT_LIMITS } from './limits.js';

export type { EventSourceMessage };

/** Callbacks for one SSE connection. */
interface SseHandlers {
  /** One complete event, in arrival order. */
  onEvent: (event: EventSourceMessage) => void;
  /** The server set its reconnection delay (`retry:` field), in milliseconds. */
  onRetry?: (milliseconds: number) => void;
  /** Bytes arrived (each chunk as read, before its events are dispatched). */
  onBytes?: (bytes: number) => void;
}

/** Caps for one SSE connection. */
interface SseLimits {
  /**
   * Most bytes one event may take: the bytes of its lines, line breaks not counted. Default 8 MB.
   * An endless line or an event without end fails here instead of filling the page's memory.
   */
  maxEventBytes?: number;
  /** Most bytes the connection may carry in all. Default: no cap (long-lived streams). */
  maxTotalBytes?: number;
}

/** A stream went past one of its caps; reading stopped there and nothing partial was dispatched. */
export class SseLimitError extends Error {
  constructor(
    /** `event`: one event was too big; `total`: the stream as a whole. */
    readonly cap: 'event' | 'total',
    /** Bytes counted when reading stopped (more than `limit`). */
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(
      cap === 'event'
        ? `an event exceeded ${limit} bytes; reading stopped`
        : `the stream exceeded ${limit} bytes; reading stopped`,
    );
    this.name = 'SseLimitError';
  }
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Cuts an SSE byte stream into lines and hands each to eventsource-parser, counting the bytes of
 * the event being read. Throws SseLimitError as soon as an event outgrows `maxEventBytes`.
 */
class SseLineReader {
  private readonly parser: EventSourceParser;
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** Bytes of the line being read, kept only across chunk boundaries. */
  private pending: Uint8Array[] = [];
  /** Bytes of the event being read (its non-blank lines, line breaks excluded). */
  private eventBytes = 0;
  /** The previous chunk ended in CR: a LF opening this one belongs to the same line break. */
  private afterCr = false;
  private firstLine = true;

  constructor(
    handlers: SseHandlers,
    private readonly maxEventBytes: number = DEFAULT_LIMITS.maxEventBytes,
  ) {
    this.parser = createParser({
      onEvent: handlers.onEvent,
      ...(handlers.onRetry ? { onRetry: handlers.onRetry } : {}),
      // Unknown fields and malformed retry values are ignored, as the SSE standard says.
    });
  }

  /** Reads one chunk of the body. */
  push(chunk: Uint8Array): void {
    let start = 0;
    if (this.afterCr && chunk.length > 0) {
      this.afterCr = false;
      if (chunk[0] === LF) start = 1;
    }
    let nextLf = chunk.indexOf(LF, start);
    let nextCr = chunk.indexOf(CR, start);
    while (start < chunk.length) {
      if (nextLf !== -1 && nextLf < start) nextLf = chunk.indexOf(LF, start);
      if (nextCr !== -1 && nextCr < start) nextCr = chunk.indexOf(CR, start);
      const end = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
      if (end === -1) {
        this.keep(chunk.subarray(start));
        return;
      }
      this.count(end - start);
      this.line(chunk.subarray(start, end));
      start = end + 1;
      if (chunk[end] === CR) {
        if (start === chunk.length) this.afterCr = true;
        else if (chunk[start] === LF) start++;
      }
    }
  }

  /** The body ended: an event cut off before its blank line is not dispatched (SSE standard). */
  end(): void {
    this.pending = [];
  }

  private keep(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.count(bytes.length);
    // Copied: the stream may reuse the chunk's buffer.
    this.pending.push(bytes.slice());
  }

  private count(bytes: number): void {
    this.eventBytes += bytes;
    if (this.eventBytes > this.maxEventBytes) {
      this.pending = [];
      throw new SseLimitError('event', this.eventBytes, this.maxEventBytes);
    }
  }

  private line(tail: Uint8Array): void {
    let bytes = tail;
    if (this.pending.length > 0) {
      this.pending.push(tail);
      bytes = concat(this.pending);
      this.pending = [];
    }
    let text = this.decoder.decode(bytes);
    if (this.firstLine) {
      this.firstLine = false;
      // A byte order mark may open the stream (SSE standard); nowhere else.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text === '') this.eventBytes = 0;
    this.parser.feed(`${text}\n`);
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

/**
 * Reads an SSE body to its end and resolves with the bytes it carried. Rejects when the connection
 * breaks or the body is aborted, and with SseLimitError (after cancelling the body, so the
 * connection is freed and the server sees us go) when an event or the whole stream outgrows its cap.
 * Events wholly inside the caps are dispatched whatever the chunking; the one that broke a cap never is.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  handlers: SseHandlers,
  limits: SseLimits = {},
): Promise<number> {
  const lines = new SseLineReader(handlers, limits.maxEventBytes ?? DEFAULT_LIMITS.maxEventBytes);
  const maxTotal = limits.maxTotalBytes ?? Number.POSITIVE_INFINITY;
  const reader = body.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxTotal - total;
      total += value.byteLength;
      handlers.onBytes?.(value.byteLength);
      if (value.byteLength > room) {
        // Whatever fits is still read, so what was dispatched does not depend on the chunking.
        lines.push(value.subarray(0, room));
        throw new SseLimitError('total', total, maxTotal);
      }
      lines.push(value);
    }
    lines.end();
    return total;
  } finally {
    // Frees the connection when we stop early (a cap); a no-op once the body ended.
    await reader.cancel().catch(() => undefined);
  }
}

/** Result of reading one SSE `data` payload as JSON. */
type SseJson = { ok: true; value: unknown } | { ok: false; reason: string };

/** Parses the data of a JSON-RPC carrying event, without throwing. */
function parseEventJson(data: string): SseJson {
  try {
    return { ok: true, value: JSON.parse(data) as unknown };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : 'invalid JSON' };
  }
}

/** True for events that carry a JSON-RPC message: type `message` (or none) with non-empty data. */
export function carriesMessage(event: EventSourceMessage): boolean {
  // Empty data is a priming event (an id and maybe a retry) or a keep-alive, not a message.
  return (event.event === undefined || event.event === 'message') && event.data.trim() !== '';
}

/**
 * The JSON-RPC payload an event carries: undefined for events that carry none (priming, keep-alive,
 * other event types); an error, for the caller to count and report, when its data is not JSON.
 */
export function messageOfEvent(
  event: EventSourceMessage,
  source: { url: string; label: string; droppedSoFar: number },
): { value: unknown } | { error: TransportError } | undefined {
  if (!carriesMessage(event)) return undefined;
  const parsed = parseEventJson(event.data);
  if (parsed.ok) return { value: parsed.value };
  return {
    error: new TransportError(
      source.url,
      'not-mcp',
      `${source.label} sent an event whose data is not JSON (${parsed.reason}); dropped it (${source.droppedSoFar + 1} so far)`,
    ),
  };
}

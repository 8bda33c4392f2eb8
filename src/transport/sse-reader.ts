/**
 * Server-Sent Events over fetch. We read SSE from `fetch` bodies rather than with EventSource because
 * MCP needs custom request headers (Authorization, session, version) and POST-initiated streams.
 */

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { TransportError } from '../protocol/errors.js';

export type { EventSourceMessage };

/**
 * Most characters one event may buffer. A server streaming an endless line must not exhaust the
 * page's memory; real MCP messages stay far below this.
 */
export const MAX_EVENT_CHARS = 32 * 1024 * 1024;

/** Callbacks for one SSE connection. */
export interface SseHandlers {
  /** One complete event, in arrival order. */
  onEvent: (event: EventSourceMessage) => void;
  /** The server set its reconnection delay (`retry:` field), in milliseconds. */
  onRetry?: (milliseconds: number) => void;
}

/**
 * Reads an SSE body to its end. Resolves when the server ends the stream; rejects when the connection
 * breaks, the body is aborted, or one event outgrows `maxEventChars`.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  handlers: SseHandlers,
  maxEventChars = MAX_EVENT_CHARS,
): Promise<void> {
  let overflow: Error | undefined;
  const parser = createParser({
    onEvent: handlers.onEvent,
    ...(handlers.onRetry ? { onRetry: handlers.onRetry } : {}),
    // Unknown fields and malformed retry values are ignored, as the SSE standard says; only an
    // overflow ends the stream.
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = error;
    },
    maxBufferSize: maxEventChars,
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      if (overflow) throw new Error(`an event exceeded ${maxEventChars} characters`);
    }
    // An event cut off before its blank line is not dispatched (SSE standard), so no final flush.
  } finally {
    // Frees the connection when we stop early (overflow); a no-op once the body ended.
    await reader.cancel().catch(() => undefined);
  }
}

/** Result of reading one SSE `data` payload as JSON. */
export type SseJson = { ok: true; value: unknown } | { ok: false; reason: string };

/** Parses the data of a JSON-RPC carrying event, without throwing. */
export function parseEventJson(data: string): SseJson {
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

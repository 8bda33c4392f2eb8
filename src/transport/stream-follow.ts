/**
 * Following an SSE stream of Streamable HTTP once it is open: reading its events, reopening a
 * dropped legacy stream with GET + Last-Event-ID after the server's `retry` delay (bounded:
 * limits.ts), the standalone GET stream, and the messages for streams that end without their answer.
 *
 * Loaded with the SSE reader at the first event stream (streamable-http.ts, loadFollower): a server
 * that answers every request with JSON never needs any of it, so it stays out of the eager bundle.
 */

import { type RequestId, redactUrlsInText, TransportError } from '../protocol/index.js';
import { discardBody } from './bounded-body.js';
import type { HttpEndpoint } from './http-endpoint.js';
import type { FailureContext } from './http-failure.js';
import { type ResolvedLimits, reconnectDelay } from './limits.js';
import {
  carriesMessage,
  type EventSourceMessage,
  messageOfEvent,
  readSse,
  SseLimitError,
} from './sse-reader.js';
import { describeBytes, ResponseTooLargeError } from './too-large.js';

/** One logical SSE stream: a POST's response stream (possibly resumed) or the standalone GET stream. */
export interface StreamState {
  /** The request this stream answers; undefined for the standalone GET stream. */
  requestId?: RequestId;
  /** That request's method, for messages. */
  method?: string;
  /** Bytes the stream carried so far, over all its connections (a request's stream has a cap). */
  bytes: number;
  /** Aborts every connection of the stream and any wait between them. */
  controller: AbortController;
  release: () => void;
  lastEventId?: string | undefined;
  /** The server's `retry` for this stream, in ms. */
  retryMs?: number;
  /** Reopen attempts in a row that brought no message (a priming event or keep-alive is not one). */
  failures: number;
  /**
   * Of those, reopened streams the server accepted and then closed with no message: a server that is
   * reachable but says nothing is given up on sooner (limits.maxEmptyStreams) than a network that fails.
   */
  emptyStreams: number;
}

/** What the follower needs of its transport (StreamableHttpTransport): its state and its session rules. */
export interface FollowerHost {
  readonly label: string;
  readonly http: HttpEndpoint;
  limits(): ResolvedLimits;
  modern(): boolean;
  closed(): boolean;
  /** Headers for a request accepting `accept` (protocol version, session id). */
  requestHeaders(accept: string): Headers;
  /** What failure messages may say (the session id hidden). */
  context(): FailureContext;
  session(): string | undefined;
  captureSession(context: FailureContext, response: Response): Promise<void>;
  sessionGone(context: FailureContext, sentSession: string): TransportError;
  /** Inbound events dropped so far because their data was not JSON. */
  invalidMessages(): number;
  /** Drops an event whose data was not JSON: counts it and reports `error`. */
  dropInvalid(error: Error): void;
  /** Hands a decoded message on (and closes the stream it answers). */
  deliver(message: unknown): void;
  /** The stream is over: releases it and forgets it as awaiting or as the server stream. */
  end(state: StreamState): void;
  onerror(error: Error): void;
  onresponselost(id: RequestId, error: Error): void;
  onresponsefailed(id: RequestId, error: Error): boolean;
}

/** Reads a stream to its end, reopening it while the era and the server allow. */
export async function follow(
  host: FollowerHost,
  state: StreamState,
  first: ReadableStream<Uint8Array>,
): Promise<void> {
  try {
    let body: ReadableStream<Uint8Array> | undefined = first;
    // The first connection may close after its priming event (the spec's polling); a reopened one
    // that the server closes cleanly with nothing in it counts as empty.
    let reopened = false;
    while (body) {
      const { messages, error, tooLarge } = await readConnection(host, state, body);
      if (stopped(host, state)) return;
      if (tooLarge) {
        reportTooLarge(host, state, tooLarge);
        return;
      }
      if (messages > 0) {
        state.failures = 0;
        state.emptyStreams = 0;
      } else if (reopened && error === undefined) state.emptyStreams++;
      if (!resumable(host, state)) {
        lost(host, state, endedMessage(host, state, error));
        return;
      }
      body = await reopen(host, state, error);
      reopened = true;
    }
  } finally {
    host.end(state);
  }
}

/**
 * Legacy: opens the standalone GET stream (`state`, already the transport's server stream) and
 * follows it. Resolves quietly when the server offers none (405).
 */
export async function openServerStream(host: FollowerHost, state: StreamState): Promise<void> {
  let response: Response | undefined;
  try {
    response = await openGet(host, state);
  } catch (error) {
    host.end(state);
    if (state.controller.signal.aborted) return;
    throw error;
  }
  if (!response?.body || response.status === 405) {
    if (response) await discardBody(response);
    host.end(state);
    return;
  }
  follow(host, state, response.body).catch((error: unknown) =>
    host.onerror(error instanceof Error ? error : new Error(String(error))),
  );
}

async function readConnection(
  host: FollowerHost,
  state: StreamState,
  body: ReadableStream<Uint8Array>,
): Promise<{ messages: number; error?: unknown; tooLarge?: SseLimitError }> {
  let messages = 0;
  const limits = host.limits();
  try {
    await readSse(
      body,
      {
        onEvent: (event) => {
          if (carriesMessage(event)) messages++;
          // An empty id resets the cursor (SSE standard): nothing to resume from.
          if (event.id !== undefined) state.lastEventId = event.id === '' ? undefined : event.id;
          receiveEvent(host, event);
        },
        onRetry: (milliseconds) => {
          state.retryMs = milliseconds;
        },
        onBytes: (bytes) => {
          state.bytes += bytes;
        },
      },
      {
        maxEventBytes: limits.maxEventBytes,
        // A request's answer has a cap over all its connections; the standalone stream lives on.
        ...(state.requestId !== undefined
          ? { maxTotalBytes: Math.max(0, limits.maxBodyBytes - state.bytes) }
          : {}),
      },
    );
    return { messages };
  } catch (error) {
    // The stream broke or outgrew a cap: both end this connection.
    if (error instanceof SseLimitError) return { messages, error, tooLarge: error };
    return { messages, error };
  }
}

/** A stream outgrew a cap: reading has stopped; its request fails as too large, or the server stream ends. */
function reportTooLarge(host: FollowerHost, state: StreamState, error: SseLimitError): void {
  state.controller.abort();
  if (state.requestId === undefined) {
    host.onerror(
      new TransportError(
        host.http.scope.shownUrl,
        'not-mcp',
        `the server-to-client stream from ${host.label} sent an event over the limit of ` +
          `${describeBytes(error.limit)}; Toolgate stopped reading it, so server notifications no longer arrive ` +
          `(raise limits.maxEventBytes for this server if such events are expected)`,
      ),
    );
    return;
  }
  const tooLarge =
    error.cap === 'event'
      ? new ResponseTooLargeError(
          host.label,
          state.method ?? 'the request',
          'event',
          error.bytes,
          error.limit,
          true,
        )
      : new ResponseTooLargeError(
          host.label,
          state.method ?? 'the request',
          'stream',
          state.bytes,
          host.limits().maxBodyBytes,
          true,
        );
  if (!host.onresponsefailed(state.requestId, tooLarge)) host.onerror(tooLarge);
}

/** Waits as the server asked, then GETs with Last-Event-ID; undefined once it gave up or stopped. */
async function reopen(
  host: FollowerHost,
  state: StreamState,
  cause: unknown,
): Promise<ReadableStream<Uint8Array> | undefined> {
  let lastError = cause;
  for (;;) {
    const limits = host.limits();
    if (state.emptyStreams >= limits.maxEmptyStreams) {
      lost(host, state, emptyStreamsMessage(host, state));
      return undefined;
    }
    if (state.failures >= limits.maxReconnects) {
      lost(host, state, gaveUpMessage(host, state, lastError));
      return undefined;
    }
    // The server's retry (raised to our floor), backed off per failed attempt, capped.
    const delay = reconnectDelay(state.failures, state.retryMs, limits);
    state.failures++;
    if (!(await sleep(delay, state.controller.signal))) return undefined;
    try {
      const response = await openGet(host, state);
      if (!response) return undefined;
      if (response.status === 405) {
        await discardBody(response);
        // The standalone stream is optional: a server that stops offering it is not an error.
        if (state.requestId !== undefined)
          lost(
            host,
            state,
            `${endedMessage(host, state)}, and the server does not offer resumption (HTTP 405)`,
          );
        return undefined;
      }
      if (response.body) return response.body;
    } catch (error) {
      if (stopped(host, state)) return undefined;
      if (error instanceof TransportError && error.failure === 'session-expired') {
        lost(host, state, `${endedMessage(host, state)}: ${error.message}`);
        return undefined;
      }
      lastError = error;
    }
  }
}

/** GET on the endpoint for an SSE stream. Undefined when aborted; a 405 response is returned as is. */
async function openGet(host: FollowerHost, state: StreamState): Promise<Response | undefined> {
  const context = host.context();
  const headers = host.requestHeaders('text/event-stream');
  if (state.lastEventId !== undefined) headers.set('last-event-id', state.lastEventId);
  const sentSession = host.session();
  const response = await host.http.fetch(
    { method: 'GET', headers, signal: state.controller.signal },
    context,
  );
  if (!response) return undefined;
  await host.captureSession(context, response);
  if (response.status === 405) return response;
  if (response.status === 404 && sentSession !== undefined) {
    await discardBody(response);
    // The next request reports the expiry (the client starts a new session): the stream asking ends itself.
    throw host.sessionGone(context, sentSession);
  }
  await host.http.eventStream(response, context);
  return response;
}

function resumable(host: FollowerHost, state: StreamState): boolean {
  if (host.modern()) return false;
  // Without an event id the server cannot tell where to resume a request's stream.
  return state.requestId === undefined || state.lastEventId !== undefined;
}

function stopped(host: FollowerHost, state: StreamState): boolean {
  return host.closed() || state.controller.signal.aborted;
}

/** Reports a stream that will not deliver its answer (or, for the GET stream, any more messages). */
function lost(host: FollowerHost, state: StreamState, message: string): void {
  if (state.requestId !== undefined) host.onresponselost(state.requestId, new Error(message));
  else host.onerror(new TransportError(host.http.scope.shownUrl, 'cors-or-network', message));
}

function endedMessage(host: FollowerHost, state: StreamState, error?: unknown): string {
  const what =
    state.requestId === undefined
      ? `the server-to-client stream from ${host.label} ended`
      : `the response stream from ${host.label} ended before the answer arrived`;
  const why = error instanceof Error ? ` (${redactMessage(host, error.message)})` : '';
  const note =
    state.requestId !== undefined && !host.modern() && state.lastEventId === undefined
      ? '; the server sent no event id, so the stream cannot be resumed'
      : '';
  return `${what}${why}${note}`;
}

function gaveUpMessage(host: FollowerHost, state: StreamState, error: unknown): string {
  const detail = error instanceof Error ? `: ${redactMessage(host, error.message)}` : '';
  return `${endedMessage(host, state)}, and ${state.failures} attempts to reopen it failed${detail}`;
}

function emptyStreamsMessage(host: FollowerHost, state: StreamState): string {
  const asked =
    state.retryMs !== undefined && state.retryMs < host.limits().minRetryMs
      ? ` (it asked to be reconnected after ${state.retryMs} ms)`
      : '';
  const consequence =
    state.requestId === undefined
      ? 'server notifications no longer arrive'
      : 'if this keeps happening, its event stream is broken (tell its maintainer)';
  return (
    `${endedMessage(host, state)}; ${state.emptyStreams} times in a row the server let Toolgate reopen it ` +
    `and closed it at once without sending anything${asked}, so Toolgate stopped trying: ${consequence}`
  );
}

/** Another layer's error message, without our header values, URL secrets or session id. */
function redactMessage(host: FollowerHost, message: string): string {
  return host.http.redactMessage(message, redactUrlsInText, host.context());
}

function receiveEvent(host: FollowerHost, event: EventSourceMessage): void {
  const decoded = messageOfEvent(event, {
    url: host.http.scope.shownUrl,
    label: host.label,
    droppedSoFar: host.invalidMessages(),
  });
  if (!decoded) return;
  if ('error' in decoded) {
    host.dropInvalid(decoded.error);
    return;
  }
  host.deliver(decoded.value);
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

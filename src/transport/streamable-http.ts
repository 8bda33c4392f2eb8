/**
 * Streamable HTTP, both eras. Every message is its own POST; answers come back as JSON or as an SSE
 * stream scoped to the request.
 *
 * Modern (2026-07-28): request metadata headers (Mcp-Method, Mcp-Name), no sessions, no GET stream,
 * no resumption: a stream that ends without its answer is reported lost at once, and the engine
 * re-issues the request. Legacy (2025-03-26 .. 2025-11-25): Mcp-Session-Id sessions ended with
 * DELETE, a standalone GET stream for server-initiated messages, and streams resumed with GET +
 * Last-Event-ID after the server's `retry` delay.
 *
 * Everything is bounded (limits.ts): an answer's bytes, an event's bytes, reopen attempts (the
 * server's `retry` raised to a floor, backed off, given up after a count), and new sessions for a
 * server that keeps forgetting them (past the bound the transport fails for good and sends nothing).
 */

import {
  ConnectionClosedError,
  isJsonObject,
  isModernVersion,
  isRequest,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
  TransportError,
} from '../protocol/index.js';
import { discardBody, readBodyWithin, readBoundedText } from './bounded-body.js';
import {
  HttpEndpoint,
  type HttpEndpointOptions,
  openRequestLine,
  type RequestLine,
} from './http-endpoint.js';
import {
  assertValidHeaders,
  explainFailure,
  type FailureContext,
  mediaTypeOf,
  rpcErrorIn,
  sessionExpired,
} from './http-failure.js';
import {
  type ConnectionLimits,
  describeBytes,
  type ResolvedLimits,
  ResponseTooLargeError,
  reconnectDelay,
  resolveLimits,
} from './limits.js';
import { badSessionId, sessionIdProblem, sessionsExhausted } from './session-rules.js';
import type { EventSourceMessage, SseLimitError } from './sse-reader.js';
import type { SendOptions, Transport } from './transport.js';

type SseReader = typeof import('./sse-reader.js');
let sseReader: Promise<SseReader> | undefined;
/**
 * The SSE reader and its parser (eventsource-parser), loaded at the first event stream: a server
 * that answers every request with JSON never needs them, so they stay out of the eager bundle.
 */
function loadSseReader(): Promise<SseReader> {
  sseReader ??= import('./sse-reader.js');
  return sseReader;
}

/** Options of StreamableHttpTransport: its server (headers, fetch, label) and its bounds. */
export interface StreamableHttpOptions extends HttpEndpointOptions {
  /** Size caps, reopening of dropped legacy streams, session restarts (see ConnectionLimits). */
  limits?: ConnectionLimits;
}

const ACCEPT_POST = 'application/json, text/event-stream';
/** A DELETE that hangs must not hold up close(). */
const DELETE_TIMEOUT_MS = 5_000;
/** Which param a modern request mirrors into Mcp-Name. */
const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/**
 * Encodes a value for an Mcp-Name or Mcp-Param-* header: as-is when it is plain visible ASCII or
 * space without edge whitespace, else the Base64 sentinel `=?base64?…?=` of its UTF-8 bytes.
 */
export function encodeHeaderValue(value: string): string {
  const plain =
    /^[\x20-\x7e]*$/.test(value) &&
    !value.startsWith(' ') &&
    !value.endsWith(' ') &&
    // A literal value shaped like the sentinel would be decoded by the server: encode it too.
    !(value.startsWith('=?base64?') && value.endsWith('?='));
  if (plain) return value;
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** One logical SSE stream: a POST's response stream (possibly resumed) or the standalone GET stream. */
interface StreamState {
  /** The request this stream answers; undefined for the standalone GET stream. */
  requestId?: RequestId;
  /** That request's method, for messages. */
  method?: string;
  /** Bytes the stream carried so far, over all its connections (a request's stream has a cap). */
  bytes: number;
  /** Aborts every connection of the stream and any wait between them. */
  controller: AbortController;
  release: () => void;
  lastEventId?: string;
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

/** MCP over Streamable HTTP (modern and legacy eras). */
export class StreamableHttpTransport implements Transport {
  readonly label: string;
  onmessage?: (message: unknown) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  onresponselost?: (id: RequestId, error: Error) => void;
  onresponsefailed?: (id: RequestId, error: Error) => void;

  /** The server's address, headers and fetch: what both HTTP transports share. */
  private readonly http: HttpEndpoint;
  private limits: ResolvedLimits;
  private version: string | undefined;
  private session: string | undefined;
  /** The session is gone: the next request says so (the client starts a new one) instead of going out without one. */
  private sessionLost = false;
  /** Sessions lost in a row (HTTP 404 to a request carrying one) with no request succeeding in one since. */
  private sessionLosses = 0;
  /** Set when the server lost one new session too many: nothing is sent any more. */
  private failed: Error | undefined;
  private closed = false;
  private invalid = 0;
  /** Everything in flight, aborted by close(). */
  private readonly live = new Set<AbortController>();
  /** SSE streams still waiting for their request's answer. */
  private readonly awaiting = new Map<RequestId, StreamState>();
  private serverStream: StreamState | undefined;

  constructor(url: string | URL, options: StreamableHttpOptions = {}) {
    this.http = new HttpEndpoint(url, options);
    this.label = this.http.label;
    this.limits = resolveLimits(options.limits);
  }

  /** Replaces the caps and bounds (connect()'s `limits`); streams already open keep theirs. */
  applyLimits(limits: ConnectionLimits): void {
    this.limits = resolveLimits(limits);
  }

  /** Why this transport refuses to send (the server lost too many sessions in a row); undefined while usable. */
  get failure(): Error | undefined {
    return this.failed;
  }

  /** The legacy session id, once the server assigned one. */
  get sessionId(): string | undefined {
    return this.session;
  }

  /** Inbound events dropped because their data was not JSON. */
  get invalidMessages(): number {
    return this.invalid;
  }

  /** Nothing to open: each message makes its own request. */
  async start(): Promise<void> {
    if (this.closed) throw new ConnectionClosedError(`the connection to ${this.label} is closed`);
  }

  /** Sets the protocol version sent in MCP-Protocol-Version; a modern version switches the era rules. */
  setProtocolVersion(version: string): void {
    this.version = version;
  }

  /** Forgets the legacy session (the client starts a new one) and drops its server stream. */
  resetSession(): void {
    this.session = undefined;
    this.sessionLost = false;
    this.serverStream?.controller.abort();
    this.serverStream = undefined;
  }

  /** POSTs one message; for a request, resolves once the server accepted it (answers go to onmessage). */
  async send(message: JsonRpcMessage, options: SendOptions = {}): Promise<void> {
    if (this.closed) throw new ConnectionClosedError(`the connection to ${this.label} is closed`);
    if (this.failed) throw this.failed;
    if (options.headers) assertValidHeaders(options.headers, this.label);
    if (this.sessionLost && 'method' in message) {
      this.sessionLost = false;
      // A request without the lost session id would get an opaque 400; the client re-initializes on this.
      if (isRequest(message) && message.method !== 'initialize')
        throw sessionExpired(this.context(options.headers));
    }
    const line = this.lifeline(options.signal);
    // Already aborted: the engine has rejected the caller, so there is nobody to tell.
    if (!line) return;
    const context = this.context(options.headers);
    const headers = this.requestHeaders(ACCEPT_POST, options.headers);
    headers.set('content-type', 'application/json');
    if (this.modern && 'method' in message) addMetadataHeaders(headers, message);
    const requestId = isRequest(message) ? message.id : undefined;
    const sentSession = this.session;
    let streaming = false;
    try {
      const response = await this.http.fetch(
        { method: 'POST', headers, body: JSON.stringify(message), signal: line.controller.signal },
        context,
      );
      if (!response) return;
      await this.captureSession(context, response);
      if (!response.ok) return await this.refused(context, response, requestId, sentSession);
      // The server still knows our session: the run of lost sessions is over.
      if (sentSession !== undefined) this.sessionLosses = 0;
      if (requestId === undefined || response.status === 202 || response.status === 204 || !response.body) {
        await discardBody(response);
        return;
      }
      const method = isRequest(message) ? message.method : 'the request';
      const mediaType = mediaTypeOf(response);
      if (mediaType === 'text/event-stream') {
        streaming = true;
        this.spawnFollow(
          { requestId, method, bytes: 0, ...line, failures: 0, emptyStreams: 0 },
          response.body,
        );
        return;
      }
      if (mediaType !== 'application/json')
        throw await this.http.wrongContentType(response, context, mediaType, [
          'application/json',
          'text/event-stream',
        ]);
      const body = await readBodyWithin(response, this.limits.maxBodyBytes);
      if (!body.ok)
        throw new ResponseTooLargeError(
          this.label,
          method,
          'body',
          body.bytes,
          this.limits.maxBodyBytes,
          body.atLeast,
        );
      await this.receiveJsonBody(context, response.status, body.text, requestId);
    } catch (error) {
      // Aborted by the engine or by close(): the caller already has its answer.
      if (line.controller.signal.aborted) return;
      throw error;
    } finally {
      if (!streaming) line.release();
    }
  }

  /**
   * Legacy: opens the standalone GET stream for server-initiated messages. Resolves quietly when the
   * server offers none (405) or in the modern era, which has no such stream.
   */
  async openServerStream(): Promise<void> {
    if (this.closed || this.modern || this.serverStream) return;
    const line = this.lifeline();
    if (!line) return;
    const state: StreamState = { ...line, bytes: 0, failures: 0, emptyStreams: 0 };
    this.serverStream = state;
    let response: Response | undefined;
    try {
      response = await this.openGet(state);
    } catch (error) {
      this.endStream(state);
      if (state.controller.signal.aborted) return;
      throw error;
    }
    if (!response?.body || response.status === 405) {
      if (response) await discardBody(response);
      this.endStream(state);
      return;
    }
    this.spawnFollow(state, response.body);
  }

  /** Aborts every stream, ends a legacy session with DELETE, then reports the close. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const controller of [...this.live]) controller.abort();
    this.serverStream = undefined;
    const session = this.session;
    this.session = undefined;
    if (session !== undefined && !this.modern) await this.deleteSession(session);
    this.onclose?.();
  }

  private get modern(): boolean {
    return this.version !== undefined && isModernVersion(this.version);
  }

  /** A non-2xx answer: a JSON-RPC error for our request is delivered; anything else rejects. */
  private async refused(
    context: FailureContext,
    response: Response,
    requestId: RequestId | undefined,
    sentSession: string | undefined,
  ): Promise<void> {
    const body = await readBoundedText(response);
    // Legacy rule: 404 to a request with a session id means the session is gone, whatever the body says.
    if (response.status === 404 && sentSession !== undefined && !this.modern)
      throw this.sessionGone(context, sentSession);
    // How a modern server's 400 UnsupportedProtocolVersion or 404 MethodNotFound reaches the engine.
    const rpc = rpcErrorIn(body);
    if (rpc && requestId !== undefined && rpc.id === requestId) {
      this.deliver(rpc.raw);
      return;
    }
    throw await this.http.statusFailure(response, context, body);
  }

  private async receiveJsonBody(
    context: FailureContext,
    status: number,
    body: string,
    requestId: RequestId,
  ): Promise<void> {
    const notMcp = (why: string) =>
      explainFailure(context, 'not-mcp', status, (messages) => messages.notMcp(context, status, body, why));
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      // A 2xx body that is not JSON is not MCP: say so, with a redacted snippet.
      throw await notMcp('the body is not valid JSON');
    }
    const items: unknown[] = Array.isArray(value) ? value : [value];
    if (items.length === 0 || !items.every((item) => isJsonObject(item) && item.jsonrpc === '2.0'))
      throw await notMcp('no "jsonrpc": "2.0" message');
    for (const item of items) this.deliver(item);
    if (!items.some((item) => answers(item, requestId)))
      this.onresponselost?.(
        requestId,
        new Error(`${this.label} answered the HTTP request without the JSON-RPC response to it`),
      );
  }

  /** Follows a stream in the background; nothing it does may reject unobserved. */
  private spawnFollow(state: StreamState, body: ReadableStream<Uint8Array>): void {
    this.follow(state, body).catch((error: unknown) =>
      this.onerror?.(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** Reads a stream to its end, reopening it while the era and the server allow. */
  private async follow(state: StreamState, first: ReadableStream<Uint8Array>): Promise<void> {
    if (state.requestId !== undefined) this.awaiting.set(state.requestId, state);
    try {
      let body: ReadableStream<Uint8Array> | undefined = first;
      // The first connection may close after its priming event (the spec's polling); a reopened one
      // that the server closes cleanly with nothing in it counts as empty.
      let reopened = false;
      while (body) {
        const { messages, error, tooLarge } = await this.readConnection(state, body);
        if (this.stopped(state)) return;
        if (tooLarge) {
          this.tooLarge(state, tooLarge);
          return;
        }
        if (messages > 0) {
          state.failures = 0;
          state.emptyStreams = 0;
        } else if (reopened && error === undefined) state.emptyStreams++;
        if (!this.resumable(state)) {
          this.lost(state, this.endedMessage(state, error));
          return;
        }
        body = await this.reopen(state, error);
        reopened = true;
      }
    } finally {
      state.release();
      if (state.requestId !== undefined && this.awaiting.get(state.requestId) === state)
        this.awaiting.delete(state.requestId);
      if (this.serverStream === state) this.serverStream = undefined;
    }
  }

  private async readConnection(
    state: StreamState,
    body: ReadableStream<Uint8Array>,
  ): Promise<{ messages: number; error?: unknown; tooLarge?: SseLimitError }> {
    let messages = 0;
    let reader: SseReader | undefined;
    try {
      reader = await loadSseReader();
      const { carriesMessage, messageOfEvent } = reader;
      await reader.readSse(
        body,
        {
          onEvent: (event) => {
            if (carriesMessage(event)) messages++;
            // An empty id resets the cursor (SSE standard): nothing to resume from.
            if (event.id !== undefined) state.lastEventId = event.id === '' ? undefined : event.id;
            this.receiveEvent(messageOfEvent, event);
          },
          onRetry: (milliseconds) => {
            state.retryMs = milliseconds;
          },
          onBytes: (bytes) => {
            state.bytes += bytes;
          },
        },
        {
          maxEventBytes: this.limits.maxEventBytes,
          // A request's answer has a cap over all its connections; the standalone stream lives on.
          ...(state.requestId !== undefined
            ? { maxTotalBytes: Math.max(0, this.limits.maxBodyBytes - state.bytes) }
            : {}),
        },
      );
      return { messages };
    } catch (error) {
      // The reader failed to load (the chunk's network) or the stream broke: both end this connection.
      if (reader && error instanceof reader.SseLimitError) return { messages, error, tooLarge: error };
      return { messages, error };
    }
  }

  /** A stream outgrew a cap: reading has stopped; its request fails as too large, or the server stream ends. */
  private tooLarge(state: StreamState, error: SseLimitError): void {
    state.controller.abort();
    if (state.requestId === undefined) {
      this.onerror?.(
        new TransportError(
          this.http.scope.shownUrl,
          'not-mcp',
          `the server-to-client stream from ${this.label} sent an event over the limit of ` +
            `${describeBytes(error.limit)}; Toolgate stopped reading it, so server notifications no longer arrive ` +
            `(raise limits.maxEventBytes for this server if such events are expected)`,
        ),
      );
      return;
    }
    const tooLarge =
      error.cap === 'event'
        ? new ResponseTooLargeError(
            this.label,
            state.method ?? 'the request',
            'event',
            error.bytes,
            error.limit,
            true,
          )
        : new ResponseTooLargeError(
            this.label,
            state.method ?? 'the request',
            'stream',
            state.bytes,
            this.limits.maxBodyBytes,
            true,
          );
    if (this.onresponsefailed) this.onresponsefailed(state.requestId, tooLarge);
    else this.onerror?.(tooLarge);
  }

  /** Waits as the server asked, then GETs with Last-Event-ID; undefined once it gave up or stopped. */
  private async reopen(state: StreamState, cause: unknown): Promise<ReadableStream<Uint8Array> | undefined> {
    let lastError = cause;
    for (;;) {
      if (state.emptyStreams >= this.limits.maxEmptyStreams) {
        this.lost(state, this.emptyStreamsMessage(state));
        return undefined;
      }
      if (state.failures >= this.limits.maxReconnects) {
        this.lost(state, this.gaveUpMessage(state, lastError));
        return undefined;
      }
      // The server's retry (raised to our floor), backed off per failed attempt, capped.
      const delay = reconnectDelay(state.failures, state.retryMs, this.limits);
      state.failures++;
      if (!(await sleep(delay, state.controller.signal))) return undefined;
      try {
        const response = await this.openGet(state);
        if (!response) return undefined;
        if (response.status === 405) {
          await discardBody(response);
          // The standalone stream is optional: a server that stops offering it is not an error.
          if (state.requestId !== undefined)
            this.lost(
              state,
              `${this.endedMessage(state)}, and the server does not offer resumption (HTTP 405)`,
            );
          return undefined;
        }
        if (response.body) return response.body;
      } catch (error) {
        if (this.stopped(state)) return undefined;
        if (error instanceof TransportError && error.failure === 'session-expired') {
          this.lost(state, `${this.endedMessage(state)}: ${error.message}`);
          return undefined;
        }
        lastError = error;
      }
    }
  }

  /** GET on the endpoint for an SSE stream. Undefined when aborted; a 405 response is returned as is. */
  private async openGet(state: StreamState): Promise<Response | undefined> {
    const context = this.context();
    const headers = this.requestHeaders('text/event-stream');
    if (state.lastEventId !== undefined) headers.set('last-event-id', state.lastEventId);
    const sentSession = this.session;
    const response = await this.http.fetch(
      { method: 'GET', headers, signal: state.controller.signal },
      context,
    );
    if (!response) return undefined;
    await this.captureSession(context, response);
    if (response.status === 405) return response;
    if (response.status === 404 && sentSession !== undefined) {
      await discardBody(response);
      // The next request reports the expiry (the client starts a new session): the stream asking ends itself.
      throw this.sessionGone(context, sentSession);
    }
    await this.http.eventStream(response, context);
    return response;
  }

  private resumable(state: StreamState): boolean {
    if (this.modern) return false;
    // Without an event id the server cannot tell where to resume a request's stream.
    return state.requestId === undefined || state.lastEventId !== undefined;
  }

  private stopped(state: StreamState): boolean {
    return this.closed || state.controller.signal.aborted;
  }

  /** Reports a stream that will not deliver its answer (or, for the GET stream, any more messages). */
  private lost(state: StreamState, message: string): void {
    if (state.requestId !== undefined) this.onresponselost?.(state.requestId, new Error(message));
    else this.onerror?.(new TransportError(this.http.scope.shownUrl, 'cors-or-network', message));
  }

  private endedMessage(state: StreamState, error?: unknown): string {
    const what =
      state.requestId === undefined
        ? `the server-to-client stream from ${this.label} ended`
        : `the response stream from ${this.label} ended before the answer arrived`;
    const why = error instanceof Error ? ` (${this.redactMessage(error.message)})` : '';
    const note =
      state.requestId !== undefined && !this.modern && state.lastEventId === undefined
        ? '; the server sent no event id, so the stream cannot be resumed'
        : '';
    return `${what}${why}${note}`;
  }

  private gaveUpMessage(state: StreamState, error: unknown): string {
    const detail = error instanceof Error ? `: ${this.redactMessage(error.message)}` : '';
    return `${this.endedMessage(state)}, and ${state.failures} attempts to reopen it failed${detail}`;
  }

  private emptyStreamsMessage(state: StreamState): string {
    const asked =
      state.retryMs !== undefined && state.retryMs < this.limits.minRetryMs
        ? ` (it asked to be reconnected after ${state.retryMs} ms)`
        : '';
    const consequence =
      state.requestId === undefined
        ? 'server notifications no longer arrive'
        : 'if this keeps happening, its event stream is broken (tell its maintainer)';
    return (
      `${this.endedMessage(state)}; ${state.emptyStreams} times in a row the server let Toolgate reopen it ` +
      `and closed it at once without sending anything${asked}, so Toolgate stopped trying: ${consequence}`
    );
  }

  /** Another layer's error message, without our header values, URL secrets or session id. */
  private redactMessage(message: string): string {
    return this.http.redactMessage(message, this.context());
  }

  private receiveEvent(messageOfEvent: SseReader['messageOfEvent'], event: EventSourceMessage): void {
    const decoded = messageOfEvent(event, {
      url: this.http.scope.shownUrl,
      label: this.label,
      droppedSoFar: this.invalid,
    });
    if (!decoded) return;
    if ('error' in decoded) {
      this.invalid++;
      this.onerror?.(decoded.error);
      return;
    }
    this.deliver(decoded.value);
  }

  private deliver(message: unknown): void {
    if (isJsonObject(message) && ('result' in message || 'error' in message)) {
      const id = message.id;
      const state = typeof id === 'string' || typeof id === 'number' ? this.awaiting.get(id) : undefined;
      // Answered: the stream has nothing more to say; closing it frees the connection.
      if (state) {
        this.awaiting.delete(state.requestId as RequestId);
        state.controller.abort();
      }
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      // A throwing handler must not break the stream that other messages still arrive on.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Takes the session id a legacy server assigns; refuses (and lets the body go) one that breaks the spec's rules. */
  private async captureSession(context: FailureContext, response: Response): Promise<void> {
    if (this.modern || this.session !== undefined) return;
    const id = response.headers.get('mcp-session-id');
    if (!id) return;
    const problem = sessionIdProblem(id);
    if (problem) {
      await discardBody(response);
      throw badSessionId(context, problem);
    }
    this.session = id;
  }

  /**
   * The server answered 404 to a request carrying `sentSession`: forget it and say the session
   * expired (the client starts a new one), or, past the bound of new sessions in a row, fail for good.
   */
  private sessionGone(context: FailureContext, sentSession: string): TransportError {
    // Several requests may meet the same loss: only the first to notice counts it.
    if (this.session !== sentSession) return sessionExpired(context);
    this.resetSession();
    this.sessionLost = true;
    this.sessionLosses++;
    if (this.sessionLosses > this.limits.maxSessionRestarts) {
      this.failed = sessionsExhausted(context, this.label, this.limits.maxSessionRestarts);
      return this.failed as TransportError;
    }
    return sessionExpired(context);
  }

  private requestHeaders(accept: string, extra?: Record<string, string>): Headers {
    const headers = this.http.headersWith(extra);
    // Set after the caller's headers so that configuration cannot break the protocol's own.
    headers.set('accept', accept);
    if (this.version !== undefined) headers.set('mcp-protocol-version', this.version);
    if (this.session !== undefined && !this.modern) headers.set('mcp-session-id', this.session);
    return headers;
  }

  /** What failure messages may say; the legacy session id is kept out of them like a header value. */
  private context(extra?: Record<string, string>): FailureContext {
    return this.http.context(extra, this.session !== undefined ? [this.session] : []);
  }

  private lifeline(signal?: AbortSignal): RequestLine | undefined {
    return this.closed ? undefined : openRequestLine(signal, this.live);
  }

  private async deleteSession(session: string): Promise<void> {
    const headers = this.requestHeaders(ACCEPT_POST);
    headers.set('mcp-session-id', session);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), DELETE_TIMEOUT_MS);
    try {
      const response = await this.http.fetch(
        { method: 'DELETE', headers, signal: controller.signal },
        this.context(),
      );
      if (response) await discardBody(response);
    } catch {
      // Ending the session is a courtesy (405 and failures are allowed): the server expires it anyway.
    } finally {
      clearTimeout(timer);
    }
  }

  private endStream(state: StreamState): void {
    state.release();
    if (this.serverStream === state) this.serverStream = undefined;
  }
}

function addMetadataHeaders(headers: Headers, message: JsonRpcRequest | JsonRpcNotification): void {
  headers.set('mcp-method', message.method);
  const source = NAME_SOURCE[message.method];
  const name = source ? message.params?.[source] : undefined;
  if (typeof name === 'string') headers.set('mcp-name', encodeHeaderValue(name));
}

function answers(message: unknown, requestId: RequestId): boolean {
  return isJsonObject(message) && message.id === requestId && ('result' in message || 'error' in message);
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

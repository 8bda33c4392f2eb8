/**
 * Streamable HTTP, both eras: the transport itself. StreamableHttpTransport (streamable-http.ts)
 * is this with the URL secret rule built in; connect() makes one through streamableHttpFor, which
 * loads that rule only for an address that can carry a secret.
 *
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
  loadUrlSecrets,
  mayCarryUrlSecrets,
  type RequestId,
  TransportError,
} from '../protocol/index.js';
import { discardBody, readBodyWithin, readBoundedText } from './bounded-body.js';
import {
  HttpEndpoint,
  type HttpEndpointOptions,
  openRequestLine,
  type RequestLine,
  type UrlRule,
} from './http-endpoint.js';
import {
  assertValidHeaders,
  explainFailure,
  type FailureContext,
  isUsableSessionId,
  MAX_SESSION_ID_CHARS,
  mediaTypeOf,
  rpcErrorIn,
  sessionExpired,
  sessionsExhausted,
} from './http-failure.js';
import { type ConnectionLimits, type ResolvedLimits, resolveLimits } from './limits.js';
import type { FollowerHost, StreamState } from './stream-follow.js';
import type { SendOptions, Transport } from './transport.js';

type StreamFollower = typeof import('./stream-follow.js');
let streamFollower: Promise<StreamFollower> | undefined;
/**
 * Following event streams (stream-follow.ts, with the SSE reader and its parser), loaded at the
 * first event stream: a server that answers every request with JSON never needs them, so they stay
 * out of the eager bundle. A failed load is not cached: the next stream tries again.
 */
function loadFollower(): Promise<StreamFollower> {
  streamFollower ??= import('./stream-follow.js').catch((error: unknown) => {
    streamFollower = undefined;
    throw error;
  });
  return streamFollower;
}

/** Options of StreamableHttpTransport: its server (headers, fetch, label) and its bounds. */
export interface StreamableHttpOptions extends HttpEndpointOptions {
  /** Size caps, reopening of dropped legacy streams, session restarts (see ConnectionLimits). */
  limits?: ConnectionLimits | undefined;
}

const ACCEPT_POST = 'application/json, text/event-stream';
/** A DELETE that hangs must not hold up close(). */
const DELETE_TIMEOUT_MS = 5_000;
/** Which param a modern request mirrors into Mcp-Name. */
const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // Tasks extension: routes a task's requests to the instance that holds it.
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
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

/** MCP over Streamable HTTP (modern and legacy eras); StreamableHttpTransport is the public face. */
export class StreamableHttpCore implements Transport {
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
  /** What stream-follow.ts sees of this transport (followerHost). */
  private host: FollowerHost | undefined;

  /** `rule` may be left out only for an address that cannot carry a secret (see HttpEndpoint). */
  constructor(url: string | URL, options: StreamableHttpOptions = {}, rule?: UrlRule) {
    this.http = new HttpEndpoint(url, options, rule);
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
      if (!body.ok) {
        // Only an answer over its cap needs the error's wording (too-large.ts): loaded for one.
        const { ResponseTooLargeError } = await import('./too-large.js');
        throw new ResponseTooLargeError(
          this.label,
          method,
          'body',
          body.bytes,
          this.limits.maxBodyBytes,
          body.atLeast,
        );
      }
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
    let follower: StreamFollower;
    try {
      follower = await loadFollower();
    } catch (error) {
      this.endStream(state);
      throw new TransportError(
        this.http.scope.shownUrl,
        'cors-or-network',
        `Toolgate could not load its event stream reader, so it cannot open the server-to-client stream from ${this.label} (${await this.redactLoadFailure(error)})`,
      );
    }
    await follower.openServerStream(this.followerHost(), state);
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

  /**
   * Follows a stream in the background (stream-follow.ts, loaded now); nothing it does may reject
   * unobserved. A request's stream is awaited from here on, so its answer on any stream closes it.
   */
  private spawnFollow(state: StreamState, body: ReadableStream<Uint8Array>): void {
    if (state.requestId !== undefined) this.awaiting.set(state.requestId, state);
    loadFollower().then(
      (follower) =>
        follower
          .follow(this.followerHost(), state, body)
          .catch((error: unknown) =>
            this.onerror?.(error instanceof Error ? error : new Error(String(error))),
          ),
      async (error: unknown) => {
        // Without the reader nothing of this stream can be read: its answer is lost, said so readably.
        void body.cancel().catch(() => undefined);
        this.endStream(state);
        const message =
          `${state.requestId === undefined ? 'the server-to-client stream' : 'the response stream'} from ${this.label} ` +
          `could not be read: Toolgate could not load its event stream reader (${await this.redactLoadFailure(error)})`;
        if (state.requestId !== undefined) this.onresponselost?.(state.requestId, new Error(message));
        else this.onerror?.(new TransportError(this.http.scope.shownUrl, 'cors-or-network', message));
      },
    );
  }

  /**
   * Why a chunk failed to load, without our header values or URL secrets. The URL rule comes with
   * the transport or is loaded now; if it cannot load either, every URL in the message loses its
   * user info, query and fragment (withoutUrlSecretParts).
   */
  private async redactLoadFailure(error: unknown): Promise<string> {
    const rule = this.http.rule ?? (await loadUrlSecrets().catch(() => undefined));
    return this.http.redactMessage(
      error instanceof Error ? error.message : String(error),
      rule?.redactUrlsInText ?? withoutUrlSecretParts,
      this.context(),
    );
  }

  /** What stream-follow.ts sees of this transport; made once, at the first stream. */
  private followerHost(): FollowerHost {
    this.host ??= {
      label: this.label,
      http: this.http,
      limits: () => this.limits,
      modern: () => this.modern,
      closed: () => this.closed,
      requestHeaders: (accept) => this.requestHeaders(accept),
      context: () => this.context(),
      session: () => this.session,
      captureSession: (context, response) => this.captureSession(context, response),
      sessionGone: (context, sentSession) => this.sessionGone(context, sentSession),
      invalidMessages: () => this.invalid,
      dropInvalid: (error) => {
        this.invalid++;
        this.onerror?.(error);
      },
      deliver: (message) => this.deliver(message),
      end: (state) => this.endStream(state),
      onerror: (error) => this.onerror?.(error),
      onresponselost: (id, error) => this.onresponselost?.(id, error),
      onresponsefailed: (id, error) => {
        if (!this.onresponsefailed) return false;
        this.onresponsefailed(id, error);
        return true;
      },
    };
    return this.host;
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
    if (!isUsableSessionId(id)) {
      await discardBody(response);
      throw await brokenSessionId(context, id);
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

  /** A stream is over: released, and no longer awaited or the server stream. */
  private endStream(state: StreamState): void {
    state.release();
    if (state.requestId !== undefined && this.awaiting.get(state.requestId) === state)
      this.awaiting.delete(state.requestId);
    if (this.serverStream === state) this.serverStream = undefined;
  }
}

/**
 * The error for a session id that breaks the rule, worded by session-rules.ts (loaded only for one).
 * If that cannot load, the error still says what was refused, in fewer words.
 */
async function brokenSessionId(context: FailureContext, id: string): Promise<TransportError> {
  try {
    const { badSessionId, sessionIdProblem } = await import('./session-rules.js');
    return badSessionId(context, sessionIdProblem(id) ?? 'it breaks the rules');
  } catch {
    // The page's own server is out of reach too: the refusal matters more than its wording.
    return new TransportError(
      context.url,
      'not-mcp',
      `${context.url} assigned an MCP session id that is not visible ASCII of at most ${MAX_SESSION_ID_CHARS} characters; Toolgate did not use it`,
    );
  }
}

/**
 * URLs in `text` without user info, query and fragment: the stand-in for the URL rule when that
 * could not be loaded (the page's own server is out of reach), hiding more rather than less.
 */
function withoutUrlSecretParts(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"<>`@]*@/gi, '$1***@')
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#"<>`]*)[?#][^\s"<>`]*/gi, '$1?***');
}

/**
 * The transport connect() uses: for an address that cannot carry a secret (no `@`, no `=`), the
 * transport without the URL secret rule, so a plain call never loads it; otherwise
 * StreamableHttpTransport, loaded now with the rule. The two behave alike in every other way.
 */
export async function streamableHttpFor(
  url: URL,
  options: StreamableHttpOptions,
): Promise<StreamableHttpCore> {
  if (!mayCarryUrlSecrets(String(url))) return new StreamableHttpCore(url, options);
  const { StreamableHttpTransport } = await import('./streamable-http.js');
  return new StreamableHttpTransport(url, options);
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

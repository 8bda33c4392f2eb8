/**
 * The 2024-11-05 HTTP+SSE transport (deprecated, kept for old servers): one long GET event stream
 * carries every server message; its first `endpoint` event names the URL the client POSTs to.
 * Read with fetch rather than EventSource, which cannot send Authorization or other headers.
 */

import {
  ConnectionClosedError,
  describeDuration,
  isRequest,
  type JsonRpcMessage,
  type RequestId,
  redactUrl,
  redactUrlsInText,
  secretsInUrl,
  TransportError,
} from '../protocol/index.js';
import { discardBody, readBoundedText } from './bounded-body.js';
import { HttpEndpoint, type HttpEndpointOptions, openRequestLine } from './http-endpoint.js';
import { assertValidHeaders, type FailureContext, rpcErrorIn } from './http-failure.js';
// This transport is itself loaded lazily (2024-11-05 servers only): its failure wording comes along.
import { notMcp } from './http-failure-messages.js';
import { type ConnectionLimits, type ResolvedLimits, resolveLimits } from './limits.js';
import { SentRequests } from './sent-requests.js';
import { type EventSourceMessage, messageOfEvent, readSse, SseLimitError } from './sse-reader.js';
import { describeBytes, ResponseTooLargeError } from './too-large.js';
import type { SendOptions, Transport } from './transport.js';

/** Options of HttpSseTransport: its server (headers for the GET and every POST, fetch, label), and more. */
export interface HttpSseOptions extends HttpEndpointOptions {
  /** How long start() waits for the `endpoint` event (connect() gives its connect timeout). Default 30 s. */
  endpointTimeoutMs?: number;
  /** Size caps (this transport uses maxEventBytes: every answer is one event on the stream). */
  limits?: ConnectionLimits | undefined;
}

/** The connect timeout's default: connect() waits this long for any answer during a handshake. */
const DEFAULT_ENDPOINT_TIMEOUT_MS = 30_000;

/** MCP over the legacy HTTP+SSE transport (protocol 2024-11-05). */
export class HttpSseTransport implements Transport {
  readonly label: string;
  onmessage?: (message: unknown) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  onresponselost?: (id: RequestId, error: Error) => void;
  onresponsefailed?: (id: RequestId, error: Error) => void;

  /** The server's address, headers and fetch: what both HTTP transports share. */
  private readonly http: HttpEndpoint;
  private readonly endpointTimeoutMs: number;
  private endpoint: URL | undefined;
  private stream: AbortController | undefined;
  /** POSTs in flight, aborted by close(). */
  private readonly live = new Set<AbortController>();
  private closed = false;
  private invalid = 0;
  private failStart: ((error: Error) => void) | undefined;
  private limits: ResolvedLimits;
  /** Requests whose answers the stream still owes us. */
  private readonly sent = new SentRequests();

  constructor(url: string | URL, options: HttpSseOptions = {}) {
    this.http = new HttpEndpoint(url, options, { redactUrl, redactUrlsInText, secretsInUrl });
    this.label = this.http.label;
    this.endpointTimeoutMs = options.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    this.limits = resolveLimits(options.limits);
  }

  /** Replaces the caps (connect()'s `limits`); takes effect for a stream opened afterwards. */
  applyLimits(limits: ConnectionLimits): void {
    this.limits = resolveLimits(limits);
  }

  /** Inbound events dropped because their data was not JSON. */
  get invalidMessages(): number {
    return this.invalid;
  }

  /** Opens the event stream and resolves once the server named its POST endpoint. */
  start(): Promise<void> {
    if (this.closed)
      return Promise.reject(new ConnectionClosedError(`the connection to ${this.label} is closed`));
    if (this.stream) return Promise.reject(new Error(`the connection to ${this.label} is already started`));
    const controller = new AbortController();
    this.stream = controller;
    /** The GET answered with an event stream: the URL is an SSE endpoint, whatever else it says. */
    let streamOpened = false;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(this.noEndpoint(streamOpened)), this.endpointTimeoutMs);
      const fail = (error: Error) => {
        clearTimeout(timer);
        this.failStart = undefined;
        controller.abort();
        reject(error);
      };
      this.failStart = fail;
      const ready = () => {
        clearTimeout(timer);
        this.failStart = undefined;
        resolve();
      };
      const opened = () => {
        streamOpened = true;
      };
      this.listen(controller, ready, opened).catch((error: unknown) => {
        // Aborted (timeout, refused endpoint, close): that path has already said what happened.
        if (controller.signal.aborted) return;
        const problem = error instanceof Error ? error : new Error(String(error));
        if (this.failStart) this.failStart(problem);
        else this.dropped(problem);
      });
    });
  }

  /** POSTs one message to the endpoint; answers arrive on the event stream. */
  async send(message: JsonRpcMessage, options: SendOptions = {}): Promise<void> {
    if (this.closed) throw new ConnectionClosedError(`the connection to ${this.label} is closed`);
    const endpoint = this.endpoint;
    if (!endpoint) throw new Error(`the connection to ${this.label} is not open yet: start() first`);
    if (options.headers) assertValidHeaders(options.headers, this.label);
    const line = openRequestLine(options.signal, this.live, () => {
      if (isRequest(message)) this.sent.forget(message.id);
    });
    if (!line) return;
    const { controller } = line;
    this.sent.note(message);
    const context = this.postContext(endpoint, options.headers);
    const headers = this.http.headersWith(options.headers);
    headers.set('content-type', 'application/json');
    try {
      const response = await this.http.fetch(
        { method: 'POST', headers, body: JSON.stringify(message), signal: controller.signal },
        context,
        endpoint,
      );
      if (!response) return;
      if (response.ok) {
        // The answer comes on the event stream; the POST's own body ("Accepted") says nothing.
        await discardBody(response);
        return;
      }
      const body = await readBoundedText(response);
      const rpc = rpcErrorIn(body);
      if (rpc && isRequest(message) && rpc.id === message.id) {
        this.sent.answered(rpc.raw);
        this.onmessage?.(rpc.raw);
        return;
      }
      throw await this.http.statusFailure(response, context, body);
    } catch (error) {
      if (isRequest(message)) this.sent.forget(message.id);
      // Aborted by the engine or by close(): the caller already has its answer.
      if (controller.signal.aborted) return;
      throw error;
    } finally {
      line.release();
    }
  }

  /** Closes the event stream and every POST in flight. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.failStart?.(new ConnectionClosedError(`the connection to ${this.label} was closed while opening`));
    this.stream?.abort();
    for (const controller of [...this.live]) controller.abort();
    this.onclose?.();
  }

  /** Why start() gave up waiting for the `endpoint` event, and what the person can do. */
  private noEndpoint(streamOpened: boolean): TransportError {
    const within = `within the connect timeout (${describeDuration(this.endpointTimeoutMs)})`;
    if (!streamOpened)
      return new TransportError(
        this.http.scope.shownUrl,
        'not-mcp',
        `${this.http.scope.shownUrl} did not open an event stream ${within}: it is not a 2024-11-05 HTTP+SSE ` +
          'MCP endpoint, or it does not answer. Check the URL (often /sse) and that the server is running.',
      );
    return new TransportError(
      this.http.scope.shownUrl,
      'no-endpoint',
      `${this.http.scope.shownUrl}: no endpoint announced ${within}. Its event stream opened, but a 2024-11-05 ` +
        'HTTP+SSE server must first send an `endpoint` event naming the URL to post messages to. Check that ' +
        "this URL is the server's SSE endpoint (often /sse) and that the server works; if it is only slow " +
        'to start, raise connectTimeoutMs.',
    );
  }

  /**
   * GETs the event stream and reads it until it ends; `opened` runs once it is an event stream,
   * `ready` at the endpoint event.
   */
  private async listen(controller: AbortController, ready: () => void, opened: () => void): Promise<void> {
    const context = this.context();
    const headers = this.http.headersWith();
    headers.set('accept', 'text/event-stream');
    const response = await this.http.fetch({ method: 'GET', headers, signal: controller.signal }, context);
    if (!response) return;
    const stream = await this.http.eventStream(response, context);
    opened();
    let failure: unknown;
    try {
      await readSse(
        stream,
        { onEvent: (event) => this.receiveEvent(event, ready) },
        { maxEventBytes: this.limits.maxEventBytes },
      );
    } catch (error) {
      failure = error;
    }
    if (controller.signal.aborted) return;
    if (!this.endpoint)
      throw notMcp(context, response.status, '', 'the event stream ended before its endpoint event');
    if (failure instanceof SseLimitError) this.eventTooLarge(failure);
    this.dropped(failure);
  }

  /**
   * An event outgrew its cap. Reading stopped, and the one stream carries every answer, so each
   * call still waiting fails as too large: whichever the event answered, none can arrive any more.
   */
  private eventTooLarge(failure: SseLimitError): void {
    for (const [id, method] of this.sent.drain())
      this.onresponsefailed?.(
        id,
        new ResponseTooLargeError(this.label, method, 'event', failure.bytes, failure.limit, true),
      );
  }

  private receiveEvent(event: EventSourceMessage, ready: () => void): void {
    if (event.event === 'endpoint') {
      // Only the first endpoint counts: a server must not move our POSTs mid-conversation.
      if (!this.endpoint) this.acceptEndpoint(event.data.trim(), ready);
      return;
    }
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
    this.sent.answered(decoded.value);
    try {
      this.onmessage?.(decoded.value);
    } catch (error) {
      // A throwing handler must not end the stream every later message arrives on.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private acceptEndpoint(data: string, ready: () => void): void {
    let endpoint: URL | undefined;
    try {
      endpoint = new URL(data, this.http.url);
    } catch {
      // An endpoint event that is not a URL is refused below, like one on another origin.
      endpoint = undefined;
    }
    if (!endpoint || endpoint.origin !== this.http.url.origin) {
      // Our POSTs carry the configured credentials: they go only where the user pointed us.
      this.failStart?.(
        new TransportError(
          this.http.scope.shownUrl,
          'bad-endpoint',
          endpoint
            ? `${this.http.scope.shownUrl} named a message endpoint on another origin (${endpoint.origin}); ` +
                `Toolgate only posts to ${this.http.url.origin}`
            : `${this.http.scope.shownUrl} named a message endpoint that is not a URL`,
        ),
      );
      return;
    }
    this.endpoint = endpoint;
    ready();
  }

  /**
   * The event stream ended after start(): nothing more can arrive, so the connection is over. Calls
   * still waiting fail as lost at once (a 2024-11-05 stream cannot be resumed), not at their timeout.
   */
  private dropped(cause: unknown): void {
    if (this.closed) return;
    const why =
      cause instanceof SseLimitError
        ? ` (an event was larger than the limit of ${describeBytes(cause.limit)}, so Toolgate stopped reading)`
        : cause instanceof Error
          ? ` (${this.http.redactMessage(cause.message, redactUrlsInText)})`
          : '';
    for (const [id] of this.sent.drain())
      this.onresponselost?.(
        id,
        new Error(
          `the event stream from ${this.label} ended before the answer arrived${why}; a 2024-11-05 stream cannot be resumed`,
        ),
      );
    this.onerror?.(
      new TransportError(
        this.http.scope.shownUrl,
        'cors-or-network',
        `the event stream from ${this.label} ended${why}: server messages can no longer arrive; reconnect to continue`,
      ),
    );
    void this.close();
  }

  private context(extra?: Record<string, string>): FailureContext {
    return this.http.context(extra);
  }

  private postContext(endpoint: URL, extra?: Record<string, string>): FailureContext {
    const context = this.context(extra);
    // The endpoint's query usually holds the session id: keep it out of messages.
    return {
      ...context,
      url: `${endpoint.origin}${endpoint.pathname}`,
      secrets: [...context.secrets, ...endpoint.searchParams.values()],
    };
  }
}

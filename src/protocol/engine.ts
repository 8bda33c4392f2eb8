/**
 * The request engine: ids, correlation, timeouts, progress, cancellation and inbound dispatch over
 * one Transport. It is era-agnostic; the client layer decorates params per era.
 */

import {
  ConnectionClosedError,
  ErrorCode,
  InvalidResponseError,
  McpError,
  nameSubject,
  RequestCancelledError,
  type RequestSubject,
  RequestTimeoutError,
  ResponseLostError,
  refusalContext,
  ToolgateError,
} from './errors.js';
import {
  classifyMessage,
  isJsonObject,
  type JsonObject,
  type JsonRpcFailure,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcSuccess,
  type RequestId,
} from './jsonrpc.js';
import { onPersonWait } from './person-wait.js';
import type { Transport } from './transport.js';
import type { Progress } from './types.js';

export const DEFAULT_TIMEOUT_MS = 60_000;

export interface RequestOptions {
  /** Idle timeout: cancel when nothing (result or progress) arrives for this long. Default 60 s. */
  timeoutMs?: number;
  /** Restart the idle timeout on each progress notification. Default true. */
  resetTimeoutOnProgress?: boolean;
  /** Hard limit regardless of progress. Default: none beyond the idle timeout. */
  maxTotalTimeoutMs?: number;
  /** Abort to cancel: the server is told (notifications/cancelled, or the stream closes). */
  signal?: AbortSignal | undefined;
  /** Receives progress; its presence adds `_meta.progressToken` to the request. */
  onprogress?: (progress: Progress) => void;
  /** Extra HTTP headers for this request (x-mcp-header mirroring). */
  headers?: Record<string, string>;
  /**
   * Awaited before the same request is sent again (see ResendReason). Rejecting stops the re-send,
   * and the request fails with that error: the gate re-checks and records every send this way.
   */
  beforeResend?: (reason: ResendReason) => Promise<void>;
  /**
   * Whom the request goes to and what it is for, named in its errors (the server's id, the tool).
   * The server defaults to the transport's label.
   */
  subject?: RequestSubject;
}

/**
 * Why a request goes out again: its response stream broke (2026-07-28 re-issue), its legacy session
 * expired, the server said our copy of the tool's schema was stale (HeaderMismatch), or the server
 * asked for more input and the call is retried with the answers.
 */
export type ResendReason = 'stream-lost' | 'session-expired' | 'header-mismatch' | 'input-required';

export type RequestHandler = (
  params: JsonObject,
  request: JsonRpcRequest,
) => Promise<JsonObject> | JsonObject;
export type NotificationHandler = (params: JsonObject, notification: JsonRpcNotification) => void;

export interface EngineOptions {
  /** How to tell a server a request is cancelled. */
  cancellation: 'notification' | 'close-stream';
  /** Re-issue a request whose response stream broke, under a new id (2026-07-28 rule). */
  reissueLostRequests: boolean;
  /** A malformed or unmatched message was dropped. */
  onViolation?: (reason: string, message: unknown) => void;
  /** How many times one request may be re-issued after stream loss. */
  maxReissues?: number;
}

interface Pending {
  method: string;
  params: JsonObject;
  options: RequestOptions;
  resolve: (result: JsonObject) => void;
  reject: (error: Error) => void;
  controller: AbortController;
  /** When the idle timeout expires (performance.now() ms); undefined without one. */
  idleDeadline?: number | undefined;
  totalTimer?: ReturnType<typeof setTimeout>;
  progressToken?: RequestId;
  reissues: number;
  detachAbort?: () => void;
  /** Sign-ins this request waits for the person in: its idle timer is stopped while above 0. */
  personWaits?: number;
}

export class RpcEngine {
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly progressRoutes = new Map<RequestId, RequestId>();
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private closed = false;
  /**
   * One timer for every idle timeout, armed for the earliest deadline. In Chromium a
   * setTimeout/clearTimeout pair per request cost several microseconds per call, GC included
   * (bench/: BENCHMARKS.md); a deadline is a plain number, and progress only moves it.
   */
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private idleTimerAt = Number.POSITIVE_INFINITY;
  /** Count of inbound messages dropped as malformed or unmatched. */
  violations = 0;
  /** The transport closed (from either side). */
  onclose?: () => void;

  constructor(
    readonly transport: Transport,
    private options: EngineOptions,
  ) {
    transport.onmessage = (message) => this.receive(message);
    transport.onresponselost = (id, error) => this.responseLost(id, error);
    transport.onresponsefailed = (id, error) => this.failRequest(id, error);
    const previousClose = transport.onclose;
    transport.onclose = () => {
      previousClose?.();
      this.closed = true;
      this.failAll(new ConnectionClosedError(`the connection to ${transport.label} closed`));
      this.onclose?.();
    };
  }

  /** Changes cancellation and re-issue rules after era detection. */
  configure(options: Partial<EngineOptions>): void {
    this.options = { ...this.options, ...options };
  }

  setRequestHandler(method: string, handler: RequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.notificationHandlers.set(method, handler);
  }

  /** Sends a request and resolves with its result object, or rejects with a ToolgateError. */
  request(method: string, params: JsonObject = {}, options: RequestOptions = {}): Promise<JsonObject> {
    if (this.closed) return Promise.reject(new ConnectionClosedError(`${method}: the connection is closed`));
    const subject = this.subjectOf(options);
    if (options.signal?.aborted)
      return Promise.reject(new RequestCancelledError(method, options.signal.reason, subject));
    return new Promise<JsonObject>((resolve, reject) => {
      const entry: Pending = {
        method,
        params,
        options,
        resolve,
        reject,
        controller: new AbortController(),
        reissues: 0,
      };
      if (options.signal) {
        const signal = options.signal;
        const onAbort = () => this.cancel(entry, new RequestCancelledError(method, signal.reason, subject));
        signal.addEventListener('abort', onAbort, { once: true });
        entry.detachAbort = () => signal.removeEventListener('abort', onAbort);
      }
      const total = options.maxTotalTimeoutMs;
      if (total !== undefined && Number.isFinite(total)) {
        entry.totalTimer = setTimeout(
          () => this.cancel(entry, new RequestTimeoutError(method, total, 'total', subject)),
          total,
        );
      }
      this.dispatch(entry);
    });
  }

  /** Sends a notification. Failures are reported, not thrown: notifications are fire and forget. */
  async notify(method: string, params?: JsonObject): Promise<void> {
    if (this.closed) return;
    const message: JsonRpcNotification = { jsonrpc: '2.0', method, ...(params ? { params } : {}) };
    await this.transport.send(message);
  }

  /** Rejects everything in flight and closes the transport. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.failAll(
      new ConnectionClosedError(`the connection to ${this.transport.label} was closed by the client`),
    );
    await this.transport.close();
  }

  /** Number of requests awaiting an answer. */
  get inFlight(): number {
    return this.pending.size;
  }

  private dispatch(entry: Pending): void {
    const id = this.nextId++;
    let params = entry.params;
    if (entry.options.onprogress) {
      // The request id doubles as progress token: unique across active requests, as the spec asks.
      const meta = isJsonObject(params._meta) ? params._meta : {};
      params = { ...params, _meta: { ...meta, progressToken: id } };
      if (entry.progressToken !== undefined) this.progressRoutes.delete(entry.progressToken);
      entry.progressToken = id;
      this.progressRoutes.set(id, id);
    }
    this.pending.set(id, entry);
    this.armIdleTimer(entry);
    onPersonWait(entry.controller.signal, (waiting) => this.personWait(id, entry, waiting));
    const message: JsonRpcRequest = { jsonrpc: '2.0', id, method: entry.method, params };
    this.transport
      .send(message, { signal: entry.controller.signal, headers: entry.options.headers })
      .catch((error: unknown) => {
        if (this.pending.get(id) !== entry) return;
        this.settle(id, entry);
        entry.reject(nameSubject(asError(error), entry.method, this.subjectOf(entry.options)));
      });
  }

  /** The person is asked to sign in for this request: no idle timeout meanwhile, a full one after. */
  private personWait(id: RequestId, entry: Pending, waiting: boolean): void {
    if (this.pending.get(id) !== entry) return;
    entry.personWaits = Math.max(0, (entry.personWaits ?? 0) + (waiting ? 1 : -1));
    if (entry.personWaits > 0) entry.idleDeadline = undefined;
    else this.armIdleTimer(entry);
  }

  private armIdleTimer(entry: Pending): void {
    if ((entry.personWaits ?? 0) > 0) return;
    const timeout = entry.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isFinite(timeout)) {
      entry.idleDeadline = undefined;
      return;
    }
    entry.idleDeadline = performance.now() + timeout;
    this.scheduleIdleCheck(entry.idleDeadline);
  }

  /** Makes sure the shared timer fires by `at`, and keeps a Node process alive while it must. */
  private scheduleIdleCheck(at: number): void {
    if (this.idleTimer !== undefined) {
      if (this.idleTimerAt <= at) {
        keepProcessAlive(this.idleTimer, true);
        return;
      }
      clearTimeout(this.idleTimer);
    }
    this.idleTimerAt = at;
    // Rounded up: a timer that fires a fraction early would find nothing expired and re-arm.
    this.idleTimer = setTimeout(this.checkIdle, Math.max(0, Math.ceil(at - performance.now())));
  }

  /** Times out every request past its idle deadline, then re-arms for the next one. */
  private readonly checkIdle = (): void => {
    this.idleTimer = undefined;
    this.idleTimerAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const entry of [...this.pending.values()]) {
      const deadline = entry.idleDeadline;
      if (deadline === undefined) continue;
      if (deadline <= now)
        this.cancel(
          entry,
          new RequestTimeoutError(
            entry.method,
            entry.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
            'idle',
            this.subjectOf(entry.options),
          ),
        );
      else if (deadline < next) next = deadline;
    }
    if (next !== Number.POSITIVE_INFINITY) this.scheduleIdleCheck(next);
  };

  private currentId(entry: Pending): RequestId | undefined {
    for (const [id, candidate] of this.pending) if (candidate === entry) return id;
    return undefined;
  }

  /** Stops waiting, tells the server, and rejects the caller. */
  private cancel(entry: Pending, error: Error): void {
    const id = this.currentId(entry);
    if (id === undefined) return;
    this.settle(id, entry);
    if (this.options.cancellation === 'notification') {
      const reason = error instanceof RequestTimeoutError ? 'timeout' : String(error.message);
      this.notify('notifications/cancelled', { requestId: id, reason }).catch((e: unknown) =>
        this.transport.onerror?.(asError(e)),
      );
    }
    // Closing the response stream is the modern cancellation signal, and frees the socket in any era.
    entry.controller.abort(error);
    entry.reject(error);
  }

  private settle(id: RequestId, entry: Pending): void {
    this.pending.delete(id);
    if (entry.progressToken !== undefined) this.progressRoutes.delete(entry.progressToken);
    entry.idleDeadline = undefined;
    // Nothing left to time out: an armed timer must not hold a Node process open (it fires idle).
    if (this.pending.size === 0 && this.idleTimer !== undefined) keepProcessAlive(this.idleTimer, false);
    if (entry.totalTimer) clearTimeout(entry.totalTimer);
    entry.detachAbort?.();
  }

  private responseLost(id: RequestId, error: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.settle(id, entry);
    const limit = this.options.maxReissues ?? 1;
    if (this.options.reissueLostRequests && entry.reissues < limit && !entry.options.signal?.aborted) {
      entry.reissues++;
      const hook = entry.options.beforeResend;
      if (!hook) {
        this.reissue(entry);
        return;
      }
      hook('stream-lost').then(
        () => {
          const signal = entry.options.signal;
          if (signal?.aborted)
            entry.reject(
              new RequestCancelledError(entry.method, signal.reason, this.subjectOf(entry.options)),
            );
          else this.reissue(entry);
        },
        (hookError: unknown) => entry.reject(asError(hookError)),
      );
      return;
    }
    entry.reject(new ResponseLostError(entry.method, id, error.message, this.subjectOf(entry.options)));
  }

  /** Sends a request again under a new id, re-arming what settle() cleared. */
  private reissue(entry: Pending): void {
    entry.controller = new AbortController();
    // Re-arm only what settle() cleared; the total timer keeps counting from the first attempt.
    if (entry.options.maxTotalTimeoutMs !== undefined && entry.totalTimer) {
      const total = entry.options.maxTotalTimeoutMs;
      entry.totalTimer = setTimeout(
        () =>
          this.cancel(
            entry,
            new RequestTimeoutError(entry.method, total, 'total', this.subjectOf(entry.options)),
          ),
        total,
      );
    }
    if (entry.options.signal) {
      const signal = entry.options.signal;
      const onAbort = () =>
        this.cancel(
          entry,
          new RequestCancelledError(entry.method, signal.reason, this.subjectOf(entry.options)),
        );
      signal.addEventListener('abort', onAbort, { once: true });
      entry.detachAbort = () => signal.removeEventListener('abort', onAbort);
    }
    this.dispatch(entry);
  }

  private receive(raw: unknown): void {
    const classified = classifyMessage(raw);
    if (classified.kind === 'invalid') {
      this.violation(`malformed message from ${this.transport.label}: ${classified.reason}`, raw);
      this.failInvalidResponse(classified.responseTo, classified.reason);
    } else if (classified.kind === 'notification') {
      this.receiveNotification(classified.message);
    } else if (classified.kind === 'request') {
      void this.receiveRequest(classified.message);
    } else {
      this.receiveResponse(classified);
    }
  }

  private receiveResponse(
    classified: { kind: 'success'; message: JsonRpcSuccess } | { kind: 'failure'; message: JsonRpcFailure },
  ): void {
    const { id } = classified.message;
    const entry = id === null ? undefined : this.pending.get(id);
    if (!entry || id === null) {
      if (classified.kind === 'failure' && id === null) {
        // An id-less error is the server rejecting something it could not parse; surface it.
        const { code, message } = classified.message.error;
        this.violation(`${this.transport.label} reported an error: ${message} (${code})`, classified.message);
      } else {
        this.violation(`response for unknown request id ${String(id)} dropped`, classified.message);
      }
      return;
    }
    this.settle(id, entry);
    if (classified.kind === 'success') {
      entry.resolve(classified.message.result);
    } else {
      const { code, message, data } = classified.message.error;
      entry.reject(
        new McpError(code, message, data, refusalContext(entry.method, this.subjectOf(entry.options))),
      );
    }
  }

  /** A malformed answer to a pending request fails it now: waiting would only end in a timeout. */
  private failInvalidResponse(id: RequestId | undefined, reason: string): void {
    const entry = id === undefined ? undefined : this.pending.get(id);
    if (!entry || id === undefined) return;
    const { server, tool } = this.subjectOf(entry.options);
    this.failRequest(id, new InvalidResponseError(server, entry.method, reason, tool));
  }

  /** An answer that cannot be used (malformed, too large) fails its request now, never re-issued. */
  private failRequest(id: RequestId, error: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.settle(id, entry);
    // Free the response stream: nothing more from it will be used.
    entry.controller.abort();
    entry.reject(nameSubject(error, entry.method, this.subjectOf(entry.options)));
  }

  private receiveNotification(notification: JsonRpcNotification): void {
    const params = notification.params ?? {};
    if (notification.method === 'notifications/progress') {
      this.receiveProgress(params, notification);
      return;
    }
    const handler = this.notificationHandlers.get(notification.method);
    if (!handler) return;
    try {
      handler(params, notification);
    } catch (error) {
      this.transport.onerror?.(asError(error));
    }
  }

  private receiveProgress(params: JsonObject, notification: JsonRpcNotification): void {
    const token = params.progressToken as RequestId | undefined;
    const id = token === undefined ? undefined : this.progressRoutes.get(token);
    const entry = id === undefined ? undefined : this.pending.get(id);
    if (!entry || id === undefined || typeof params.progress !== 'number') {
      this.violation('progress for an unknown or finished request dropped', notification);
      return;
    }
    if (entry.options.resetTimeoutOnProgress !== false) this.armIdleTimer(entry);
    entry.options.onprogress?.({
      progress: params.progress,
      ...(typeof params.total === 'number' ? { total: params.total } : {}),
      ...(typeof params.message === 'string' ? { message: params.message } : {}),
    });
  }

  private async receiveRequest(request: JsonRpcRequest): Promise<void> {
    const handler = this.requestHandlers.get(request.method);
    let reply: JsonRpcFailure | { jsonrpc: '2.0'; id: RequestId; result: JsonObject };
    if (!handler) {
      reply = failure(request.id, ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    } else {
      try {
        reply = { jsonrpc: '2.0', id: request.id, result: await handler(request.params ?? {}, request) };
      } catch (error) {
        const code = error instanceof McpError ? error.code : ErrorCode.InternalError;
        const message = error instanceof McpError ? error.serverMessage : asError(error).message;
        reply = failure(request.id, code, message);
      }
    }
    if (this.closed) return;
    try {
      await this.transport.send(reply);
    } catch (error) {
      this.transport.onerror?.(asError(error));
    }
  }

  /** The request's subject, the server named by the transport's label unless the caller named it. */
  private subjectOf(options: RequestOptions): RequestSubject & { server: string } {
    return { ...options.subject, server: options.subject?.server ?? this.transport.label };
  }

  private violation(reason: string, message: unknown): void {
    this.violations++;
    this.options.onViolation?.(reason, message);
  }

  private failAll(error: Error): void {
    for (const [id, entry] of [...this.pending]) {
      this.settle(id, entry);
      entry.controller.abort(error);
      entry.reject(error);
    }
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.idleTimerAt = Number.POSITIVE_INFINITY;
  }
}

/** Node timers keep the process running unless unref'd; browser timers are numbers and need nothing. */
function keepProcessAlive(timer: ReturnType<typeof setTimeout>, keep: boolean): void {
  const handle = timer as unknown as { ref?: () => void; unref?: () => void };
  if (keep) handle.ref?.();
  else handle.unref?.();
}

function failure(id: RequestId, code: number, message: string): JsonRpcFailure {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function asError(value: unknown): Error {
  if (value instanceof Error) return value;
  return new Error(typeof value === 'string' ? value : 'unknown error');
}

export { ToolgateError };

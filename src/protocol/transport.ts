/**
 * The transport seam. A transport moves JSON-RPC messages; it knows nothing of tools, eras or
 * policies. The engine above it owns ids, timeouts and correlation.
 */

import type { JsonRpcMessage, RequestId } from './jsonrpc.js';

/** Per-message hints from the engine. HTTP transports use them; others may ignore them. */
export interface SendOptions {
  /** Extra HTTP headers for this message only (Mcp-Param-* mirroring). */
  headers?: Record<string, string> | undefined;
  /** Aborted when the engine gives up on the request: an HTTP transport closes its response stream. */
  signal?: AbortSignal;
}

export interface Transport {
  /** Opens the channel. Resolves when messages can be sent. */
  start(): Promise<void>;
  /**
   * Sends one message. For a request, resolves once it is handed over (its response arrives through
   * `onmessage`); rejects with a TransportError when it cannot be delivered.
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  /** Closes the channel and ends any session with the server. */
  close(): Promise<void>;

  /** Every inbound message, unvalidated: the engine checks envelopes. */
  onmessage?: ((message: unknown) => void) | undefined;
  /** Failures not tied to one send (a broken background stream, a dropped foreign message). */
  onerror?: ((error: Error) => void) | undefined;
  /** The channel is gone for good. */
  onclose?: (() => void) | undefined;
  /**
   * The stream that should carry the response to `id` ended without it and cannot be resumed
   * (2026-07-28 has no resumption). The engine decides whether to re-issue the request.
   */
  onresponselost?: ((id: RequestId, error: Error) => void) | undefined;
  /**
   * The answer to `id` cannot be used (it outgrew a size cap: reading stopped there): the engine
   * fails the request with `error` at once and never re-issues it.
   */
  onresponsefailed?: ((id: RequestId, error: Error) => void) | undefined;

  /** Tells an HTTP transport which protocol version it now speaks (headers, session and stream rules). */
  setProtocolVersion?(version: string): void;
  /** Applies per-server caps (connect()'s `limits`) to a transport the caller made. */
  applyLimits?(limits: ConnectionLimits): void;
  /**
   * Set once this transport can no longer be used though it is not closed (a server that lost every
   * new session): every send rejects with it, and the gate refuses calls before sending anything.
   */
  readonly failure?: Error | undefined;
  /** The legacy session id, when the server assigned one. */
  readonly sessionId?: string | undefined;
  /** Where this transport talks to, for error messages. */
  readonly label: string;
}

/** Per-server caps and reconnect bounds; each one is optional (see DEFAULT_LIMITS). */
export interface ConnectionLimits {
  /**
   * Largest HTTP response body, in bytes: a JSON answer, or everything one request's SSE stream
   * carries (resumed connections included). Default 16 MB.
   */
  maxBodyBytes?: number;
  /** Largest single SSE event, in bytes (on every SSE stream, including long-lived ones). Default 8 MB. */
  maxEventBytes?: number;
  /** Largest message on a postMessage / MessagePort / Chrome port channel, in estimated bytes. Default 16 MB. */
  maxMessageBytes?: number;
  /** Reopen attempts in a row for a dropped legacy SSE stream before giving up. Default 5. */
  maxReconnects?: number;
  /**
   * Of those, reopened streams in a row that the server closed at once without a message (only a
   * priming event, or nothing) before giving up: a server that answers but says nothing. Default 3.
   */
  maxEmptyStreams?: number;
  /** Shortest wait before reopening a stream: a server's smaller `retry:` is raised to it. Default 500 ms. */
  minRetryMs?: number;
  /** First wait before reopening when the server set no `retry:`; doubles per failed attempt. Default 1 s. */
  reconnectDelayMs?: number;
  /** Longest wait between reopen attempts (a server's larger `retry:` is lowered to it). Default 30 s. */
  maxReconnectDelayMs?: number;
  /** New legacy sessions started in a row after HTTP 404s before the connection fails for good. Default 3. */
  maxSessionRestarts?: number;
}

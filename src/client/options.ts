/** Options a host passes to connect() and to each call. */

import type { SignInOptions } from '../auth/index.js';
import type {
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  JsonObject,
  RequestOptions,
  TaskSnapshot,
} from '../protocol/index.js';
import type { ConnectionLimits, Transport } from '../transport/index.js';

export type { ConnectionLimits, SignInOptions };

/**
 * Answers an elicitation (legacy `elicitation/create`, or a modern `input_required` round).
 * `context.signal` aborts when nobody waits for the answer any more: the call it belongs to ended
 * (cancelled, timed out, finished), the server withdrew it, or the connection closed. Withdraw the
 * question from the person then, and resolve with `{ action: 'cancel' }`.
 */
export type ElicitationHandler = (
  request: ElicitRequestParams,
  context: { serverId: string; toolName?: string; taskId?: string; signal?: AbortSignal },
) => Promise<ElicitResult>;

/** Something worth showing a developer or person that did not stop the work. */
export interface ClientWarning {
  serverId: string;
  code:
    | 'malformed-message'
    | 'invalid-tool-name'
    | 'duplicate-tool-name'
    | 'invalid-x-mcp-header'
    | 'catalog-incomplete'
    | 'server-stream'
    | 'subscription'
    | 'malformed-offering';
  message: string;
}

export interface ConnectOptions {
  /** The server's MCP endpoint (Streamable HTTP, or a legacy HTTP+SSE endpoint). */
  url?: string | URL;
  /** A ready transport instead of a URL (postMessage, MessagePort, Chrome Port). */
  transport?: Transport;
  /** Stable identity of this connection, used to qualify tool names. Defaults to the URL or transport label. */
  id?: string;
  /** Which HTTP transport to use. `auto` tries Streamable HTTP, then the legacy HTTP+SSE transport. */
  httpTransport?: 'auto' | 'streamable-http' | 'sse';
  /** Headers sent with every HTTP request (e.g. Authorization). Never logged. */
  headers?: Record<string, string>;
  /** Force an era instead of detecting it. */
  era?: 'auto' | 'modern' | 'legacy';
  /** Force a protocol version (must be one Toolgate speaks). */
  protocolVersion?: string;
  clientInfo?: Implementation;
  /** Answers elicitations. Without it Toolgate does not declare the elicitation capability. */
  onElicit?: ElicitationHandler;
  /** Time allowed for connecting (discovery and handshake). Default 30 s. */
  connectTimeoutMs?: number;
  /** On non-HTTP transports, how long the modern probe waits before assuming a legacy server. Default 5 s. */
  probeTimeoutMs?: number;
  /** Defaults for every request made by this client. */
  requestDefaults?: Pick<RequestOptions, 'timeoutMs' | 'maxTotalTimeoutMs' | 'resetTimeoutOnProgress'>;
  /** A fetch implementation (tests, service workers). */
  fetch?: typeof fetch;
  /**
   * Sign in when the server asks (MCP authorization, OAuth 2.1): its first 401 loads the OAuth
   * layer, which discovers the authorization server, asks the person (`confirm`), opens the sign-in
   * popup and sends the token on every later request of this server (over `fetch` when given).
   * A failed sign-in fails connect() with an AuthorizationError naming the server and the step; it
   * never falls back to another transport or era. `signInOf(client)` gives "Sign out".
   * HTTP servers only (`url`); ignored with a `transport`.
   */
  auth?: SignInOptions;
  /**
   * Caps and bounds for this server; each field is optional. At a size cap Toolgate stops reading,
   * cancels the request and fails the call with "response too large (N MB, limit M MB)".
   * - `maxBodyBytes` (16 MB): one HTTP answer, JSON or a request's whole SSE stream.
   * - `maxEventBytes` (8 MB): one SSE event, on any stream.
   * - `maxMessageBytes` (16 MB): one message on a postMessage, MessagePort or Chrome port channel.
   * - `maxReconnects` (5): reopen attempts in a row for a dropped legacy SSE stream; then the call
   *   fails as lost (ResponseLostError), or the server-to-client stream is reported gone.
   * - `maxEmptyStreams` (3): of those, reopened streams in a row that the server closed at once
   *   without a message (say, `retry: 0` and nothing else): given up sooner, as waiting cures nothing.
   * - `minRetryMs` (500 ms): a server's `retry:` below it is raised to it.
   * - `reconnectDelayMs` (1 s) and `maxReconnectDelayMs` (30 s): the first wait without a `retry:`,
   *   doubled per failed attempt up to the cap.
   * - `maxSessionRestarts` (3): new legacy sessions started in a row after HTTP 404s; one more loss
   *   fails the connection for good (McpClient.failure), and the gate refuses its calls unsent.
   */
  limits?: ConnectionLimits;
  onWarning?: (warning: ClientWarning) => void;
}

/** Per-call options for callTool. */
export interface CallToolOptions extends RequestOptions {
  /** Members for the call's `params._meta` (W3C trace context: `traceparent`, `tracestate`). */
  meta?: JsonObject | undefined;
  /**
   * 2025-11-25: ask the server to run a tool whose `execution.taskSupport` is `optional` as a task.
   * A `required` tool always runs as one; a `forbidden` (or silent) one never does. 2026-07-28
   * servers decide for themselves: every tools/call declares the tasks extension.
   */
  runAsTask?: boolean | undefined;
  /** Hears about the task when the server answers with one (see TaskObserver). */
  task?: TaskObserver | undefined;
  /** Bounds on how often a task is polled (see TaskPolling). */
  taskPolling?: TaskPolling | undefined;
}

/**
 * Hears about a call that runs as a task. `onTaskCreated` is awaited before the first poll (the
 * gate records the task id durably there); a rejection stops following and fails the call.
 */
export interface TaskObserver {
  onTaskCreated?(task: TaskSnapshot): void | Promise<void>;
  /** Every change of status or status message, the first included. */
  onTaskStatus?(task: TaskSnapshot): void;
  /** When the next `tasks/get` goes out (ms since epoch); undefined once the task is no longer polled. */
  onNextPoll?(at: number | undefined): void;
  /**
   * 2026-07-28: every input key answered so far, once the server took the answers (`tasks/update`).
   * Kept with the task's handle, so a page that reloads does not ask them again.
   */
  onInputAnswered?(keys: readonly string[]): void | Promise<void>;
}

/**
 * How often a task is polled: the server's `pollIntervalMs` (or `defaultMs` without one), never more
 * often than `floorMs` nor less often than `ceilingMs`. Defaults: 250 ms, 30 s, 1 s.
 */
export interface TaskPolling {
  floorMs?: number;
  ceilingMs?: number;
  defaultMs?: number;
}

export const DEFAULT_CLIENT_INFO: Implementation = { name: 'toolgate', version: '0.1.0' };

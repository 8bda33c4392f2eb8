/** Options a host passes to connect() and to each call. */

import type { RequestOptions } from '../protocol/engine.js';
import type { ElicitRequestParams, ElicitResult, Implementation } from '../protocol/types.js';
import type { Transport } from '../transport/transport.js';

/**
 * Answers an elicitation (legacy `elicitation/create`, or a modern `input_required` round).
 * `context.signal` aborts when nobody waits for the answer any more: the call it belongs to ended
 * (cancelled, timed out, finished), the server withdrew it, or the connection closed. Withdraw the
 * question from the person then, and resolve with `{ action: 'cancel' }`.
 */
export type ElicitationHandler = (
  request: ElicitRequestParams,
  context: { serverId: string; toolName?: string; signal?: AbortSignal },
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
    | 'subscription';
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
  onWarning?: (warning: ClientWarning) => void;
}

/** Per-call options for callTool. */
export type CallToolOptions = RequestOptions;

export const DEFAULT_CLIENT_INFO: Implementation = { name: 'toolgate', version: '0.1.0' };

/**
 * What a controller holds, as plain records: the servers and their connections, the person's queue
 * (approvals, questions, sign-ins), running and finished calls, and the diagnostics of each
 * connection. Views read them through the controller's signals (see controller-types.ts).
 */

import type { SignInOptions } from '../auth/index.js';
import type {
  AccessApprovalRequest,
  ApprovalAnswer,
  ApprovalRequest,
  Caller,
  GateResult,
  TrustLevel,
} from '../gate/index.js';
import type { ElicitRequestParams, ElicitResult, Icon, JsonObject, Tool } from '../protocol/index.js';
import type { Transport } from '../transport/index.js';
import type { ConnectFailureCause } from './connect-errors.js';

export interface ServerConfig {
  /** Stable id (qualifies tool names); defaults to the URL's host and path. */
  id?: string;
  /** A Streamable HTTP or legacy HTTP+SSE endpoint (the transport is chosen automatically). */
  url?: string;
  /**
   * The url's HTTP transport: `auto` (default) tries Streamable HTTP, then the legacy HTTP+SSE
   * transport; either name skips that detection. (`transport` below is a ready transport object.)
   */
  httpTransport?: 'auto' | 'streamable-http' | 'sse';
  /** Or a ready transport (postMessage to an iframe, window or extension port). */
  transport?: Transport;
  /**
   * Or a page that hosts an MCP server over postMessage: loaded in a hidden iframe (sandboxed to an
   * opaque origin when it is of this page's origin) and spoken to at its exact origin.
   */
  frameUrl?: string;
  /** The postMessage channel of the server in that page, when it hosts several. */
  channel?: string;
  /**
   * Or a server in a dedicated Web Worker: a function that starts a new one (called again on retry),
   * e.g. `() => new Worker(new URL('./server.ts', import.meta.url), { type: 'module' })`.
   */
  worker?: () => Worker;
  label?: string;
  /** The address the panel shows when there is no url (the page's origin, for its WebMCP tools). */
  address?: string;
  /** Sent with every request (e.g. Authorization). Kept in memory only, never logged. */
  headers?: Record<string, string>;
  /**
   * Let calls from the host's code, sites and apps reach the approver even when their arguments could
   * not be checked against the tool's schema (the approver must then acknowledge that). Default false:
   * the gate refuses them. The person's own calls are always asked.
   */
  acceptUncheckedArguments?: boolean;
  /**
   * Sign in when the server asks (OAuth 2.1). The panel asks the person first ("Sign in to <server>",
   * with the authorization server and the scopes) unless `confirm` is given; sign-ins are recorded
   * in the audit log, never their tokens.
   */
  auth?: SignInOptions;
  /**
   * The fetch under this server's requests (MCP and, with `auth`, OAuth): the extension's worker
   * watches it for authorization servers that refuse CORS. Default: the global fetch.
   */
  fetch?: typeof fetch;
}

export type ConnectionState = 'connecting' | 'connected' | 'failed' | 'closed';

export interface ServerState {
  id: string;
  label: string;
  config: ServerConfig;
  state: ConnectionState;
  /** A sentence that says what went wrong and what to do. */
  error?: string | undefined;
  trust: TrustLevel;
  tools: Tool[];
  /** Tools the person switched off (a deny rule in the policy, so the gate enforces it). */
  disabled: ReadonlySet<string>;
  era?: string;
  /** The protocol revision the connection speaks (`2025-06-18`, `2026-07-28`), once connected. */
  protocolVersion?: string;
  /**
   * What the person should know about the server's tool list, each with its reason: incomplete
   * (pagination stopped), tools left out for a bad definition, names that break the rules.
   */
  warnings?: readonly string[];
  /**
   * Tools the server lists that Toolgate cannot call (their definitions are invalid), each with the
   * reason a person reads in the Tools view; calls to them are refused with it.
   */
  excluded?: readonly { name: string; reason: string }[];
  /** Why the connection failed, when it did: the server is down, CORS refused this page, or other. */
  errorCause?: ConnectFailureCause;
  /** The transport's own technical explanation (headers to allow, status, body), for the curious. */
  errorDetail?: string;
  /** Signed in to the server's authorization server (OAuth), with what was granted. */
  signedIn?: { issuer: string; scopes: readonly string[] } | undefined;
  /** The last ping: its round trip in ms, or why it failed. */
  ping?: { at: number; ms: number; method: string } | { at: number; error: string };
  /**
   * What the server declared: `logging`, `resources` (read them through Toolgate), `subscribe`
   * (resources.subscribe), `prompts`, `completions`.
   */
  offers?: {
    logging: boolean;
    resources: boolean;
    subscribe?: boolean;
    prompts?: boolean;
    completions?: boolean;
  };
  /**
   * The server's icons from initialize (`serverInfo.icons`), entries with a text `src` only; where
   * they may load from is the view's rule (https: or a data: URL of a raster type).
   */
  icons?: Icon[];
  /** The server's `instructions` from initialize (server text: shown as text only). */
  instructions?: string;
  /** The level asked for with logging/setLevel, once the person chose one. */
  logLevel?: string;
  /** Kept in this browser: listed again on the next visit (ControllerOptions.keepServers). */
  kept?: boolean;
}

/** One progress report of a call, as it arrived. */
export interface ProgressPoint {
  at: number;
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** A `notifications/message` from a server. */
export interface ServerLogEntry {
  at: number;
  level: string;
  logger?: string;
  data: unknown;
}

/** One JSON-RPC message of a server's exchange, as sent or received (unredacted: redact to show). */
export interface TrafficEntry {
  seq: number;
  at: number;
  direction: 'sent' | 'received';
  message: unknown;
}

/** A server asks the person to sign in: shown before the sign-in window opens. */
export interface PendingSignIn {
  id: string;
  serverId: string;
  /** The authorization server, as its issuer URL. */
  issuer: string;
  scopes: readonly string[];
  /**
   * How the person goes to sign in: a new window ('window'), this tab ('this-tab': the page leaves
   * and comes back), or this tab because the browser blocked the window ('blocked'). Default 'window'.
   */
  way?: 'window' | 'this-tab' | 'blocked';
  /**
   * Waiting on its server's card in Servers (a server configured when the panel opened, which the
   * person has not asked to connect yet): no dialog opens by itself; the card's "Sign in" calls
   * `show`. Absent or false: the dialog shows it (the person added or retried the server, or a call
   * needs the sign-in).
   */
  onCard?: boolean;
  /** Moves it from the card to the sign-in dialog. */
  show?: () => void;
  /** Call inside the person's click: the sign-in window may only open during one. */
  accept: () => void;
  decline: () => void;
}

/** A read or prompt get from a site, an app or the host, waiting for the person's answer. */
export interface PendingAccess {
  request: AccessApprovalRequest;
  answer: (answer: ApprovalAnswer) => void;
}

export interface PendingApproval {
  request: ApprovalRequest;
  receivedAt: number;
  answer: (answer: ApprovalAnswer) => void;
}

export interface RunningCall {
  invocationId: string;
  serverId: string;
  toolName: string;
  caller: Caller;
  startedAt: number;
  /** When the call was sent (after approval); the timeout runs from here. */
  sentAt?: number;
  timeoutMs: number;
  progress?: { progress: number; total?: number | undefined; message?: string | undefined };
  /** The arguments as proposed, then as sent once approved (unredacted: redact to show). */
  arguments?: JsonObject;
  /** Every progress report so far (the newest PROGRESS_KEPT). */
  progressHistory?: readonly ProgressPoint[];
  /**
   * The task the server runs the call as: its id, last status and message, and when it is polled
   * next (ms since epoch). `resumed`: taken up again after a reload, so no caller of this page waits.
   */
  task?: {
    id: string;
    status: string;
    statusMessage?: string | undefined;
    nextPollAt?: number | undefined;
    resumed?: boolean | undefined;
  };
  cancel: () => void;
}

export interface FinishedCall {
  invocationId: string;
  serverId: string;
  toolName: string;
  finishedAt: number;
  outcome:
    | { ok: true; result: GateResult }
    | {
        ok: false;
        error: string;
        kind: string;
        /** Who denied it (a denial): the person's answer, a rule, or nobody answering in time. */
        by?: 'person' | 'policy' | 'timeout';
        /** The reason given with a denial. */
        reason?: string;
        /** The person stopped it with Cancel in the panel (not its caller). */
        cancelledInPanel?: boolean;
      };
  caller?: Caller;
  /** When the call was requested, and when it was sent (absent when it never left). */
  startedAt?: number;
  sentAt?: number;
  /** As sent, or as proposed when the call never left (unredacted: redact to show). */
  arguments?: JsonObject;
  progressHistory?: readonly ProgressPoint[];
}

export interface PendingElicitation {
  id: string;
  serverId: string;
  /** The tool whose call asks, when the server says (modern input rounds). */
  toolName?: string;
  /** The task that asks, when the question belongs to a call running as a task. */
  taskId?: string;
  request: ElicitRequestParams;
  answer: (result: ElicitResult) => void;
}

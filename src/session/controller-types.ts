/**
 * The controller's options and faces: `Controller` (one in this page, made by createController) and
 * `PanelController`, what the panel's views need (a controller here, or a mirror of one that runs
 * elsewhere, as in the extension's side panel).
 */

import type { Signal } from '@preact/signals';
import type { AuditLog, AuditLogOptions } from '../audit/index.js';
import type { TaskPolling } from '../client/index.js';
import type {
  AuditSink,
  CallBatch,
  Caller,
  ConfirmOwnCalls,
  GateEvent,
  GateResult,
  Policy,
  PolicyRule,
  RuleInput,
  SettingsStore,
  TraceRequest,
  TrustLevel,
} from '../gate/index.js';
import type { JsonObject } from '../protocol/index.js';
import type { SkillsHub } from '../skills/index.js';
import type { AppHost, McpAppsOptions } from './app-host.js';
import type { KeepServersOptions } from './kept-servers.js';
import type { SessionOfferings } from './offerings.js';
import type { RememberedItem } from './remembered.js';
import type { ControllerServices } from './services.js';
import type {
  FinishedCall,
  PendingAccess,
  PendingApproval,
  PendingElicitation,
  PendingSignIn,
  RunningCall,
  ServerConfig,
  ServerLogEntry,
  ServerState,
  TrafficEntry,
} from './types.js';

/** One tool call: which server, which tool, with what, from whom. */
export interface CallRequest {
  serverId: string;
  toolName: string;
  arguments: JsonObject;
  /** Who the call comes from, as the approval dialog and the audit log name it. Default: the person. */
  caller?: Caller;
  /** Cancels the call (or its wait for approval). */
  signal?: AbortSignal;
  /** Told the call's invocation id as soon as the gate has it (to follow it in the view). */
  onRequested?: (invocationId: string) => void;
  /** W3C trace context for the call's `_meta`: the host's own, or 'start' for a new trace. */
  trace?: TraceRequest;
  /**
   * 'form': the person pressed the Call button of the tool's form, which approves the call (with
   * the person as caller only; see `confirmOwnCalls`). The panel's form sets it; nothing else should.
   */
  startedFrom?: 'form';
  /** One of several calls proposed at once: the panel asks about the batch in one dialog. */
  batch?: CallBatch;
}

export interface ControllerOptions {
  servers?: ServerConfig[];
  /**
   * Keep the servers added with `addServer` (the person's, and the host's own) in IndexedDB, and
   * list them again, reconnecting, on the next visit. Default true; false: nothing is kept. URL
   * secrets and headers are sealed, never stored in clear (see kept-servers.ts).
   */
  keepServers?: boolean | KeepServersOptions;
  /** The audit log: 'indexeddb' (default: the origin's log), an AuditSink of the host's, or 'memory'. */
  audit?: 'indexeddb' | 'memory' | AuditLog | AuditSink;
  auditName?: string;
  policy?: Policy;
  /** Who the calls made from the panel come from. */
  personLabel?: string;
  defaultTimeoutMs?: number;
  /** How long a call waits for approval before it is denied (ms; default 10 minutes; 0: no limit). */
  approvalTimeoutMs?: number;
  /**
   * 'when-needed' (default): a call the person starts with a tool form's Call button is approved by
   * that click; a destructive tool, or a rule of theirs that asks, gets one compact confirmation.
   * 'always': the full approval dialog for every call, the person's own included.
   */
  confirmOwnCalls?: ConfirmOwnCalls;
  /**
   * Callers whose calls to a trusted server's read-only tools run without asking. Default: the person
   * and the host app. Sites and MCP Apps are asked unless the person allowed them.
   */
  trustedReadOnlyCallers?: ReadonlyArray<Caller['kind']>;
  /**
   * Which schema engine checks arguments and results: 'auto' (default: interpreted first, compiled
   * with Ajv for schemas in steady use where eval is allowed), or 'cfworker' to interpret always
   * (where eval is forbidden, e.g. an extension's service worker).
   */
  schemaEngine?: 'auto' | 'cfworker';
  /**
   * W3C trace context for calls given none (the panel's own, an app's): 'start' begins a new
   * sampled trace per call. Default: only calls given a trace carry one.
   */
  traceContext?: 'start';
  /** When the IndexedDB audit log signs its head on its own (AuditLogOptions.anchoring). */
  anchoring?: AuditLogOptions['anchoring'];
  /** Told each newly signed head of the IndexedDB audit log (AuditLogOptions.onAnchor). */
  onAnchor?: AuditLogOptions['onAnchor'];
  /** How this controller hosts MCP Apps (the sandbox proxy, their height); see `apps`. */
  apps?: McpAppsOptions;
  /**
   * The tools the page registers through WebMCP (`document.modelContext`) as one more server,
   * "This page", called through the gate like any other. Default: listed where the browser has
   * WebMCP, nothing said where it has none. true: the same, and where WebMCP is missing the Servers
   * view says so in one line. false: never listed.
   */
  pageTools?: boolean;
  /** The skills hub's settings: where the person's skill approvals persist (default IndexedDB). */
  skills?: { store?: SettingsStore };
  /**
   * Calls that run as tasks. `runAsTask`: whether a tool whose `taskSupport` is `optional` runs as
   * one (2025-11-25; default no; `required` tools always do). `polling`: bounds around the server's
   * `pollIntervalMs`. Handles are kept beside the audit log (memory with `audit: 'memory'`), and
   * every unfinished task of a server is followed again when it connects.
   */
  tasks?: { runAsTask?: boolean | ((serverId: string, toolName: string) => boolean); polling?: TaskPolling };
}

/**
 * What the panel's views need: a controller in this page, or a mirror of one that runs elsewhere
 * (the extension's side panel shows the service worker's controller).
 */
export interface PanelController {
  readonly servers: Signal<ServerState[]>;
  readonly approvals: Signal<PendingApproval[]>;
  readonly running: Signal<RunningCall[]>;
  readonly finished: Signal<FinishedCall[]>;
  readonly elicitations: Signal<PendingElicitation[]>;
  /** Reads and prompt gets from a site, an app or the host, waiting for the person (absent: none come). */
  readonly accesses?: Signal<PendingAccess[]>;
  /** Servers asking the person to sign in (absent where the controller cannot sign in). */
  readonly signIns?: Signal<PendingSignIn[]>;
  /** Signs out of a server's authorization server (revoking its tokens where it can). */
  signOut?(serverId: string): Promise<void>;
  /** The audit log, once open. Rejects, with a sentence for the person, when it cannot be opened. */
  readonly ready: Promise<Pick<ControllerServices, 'auditLog'>>;
  /** Bumped whenever rules or remembered approvals change, so the Approvals view re-reads them. */
  readonly rememberedVersion: Signal<number>;
  /**
   * The page's WebMCP tools: 'listed' (as the server "This page"), 'missing' (the host asked for
   * them with `pageTools: true`, and this browser has no WebMCP) or 'off' (the host turned them off).
   * Absent where there is no page (a mirror, a worker), or when not asked for and not available.
   */
  readonly pageTools?: 'listed' | 'missing' | 'off';
  /** Kinds of server this controller can connect to ('frame': a page hosting one). Default all. */
  readonly serverKinds?: readonly ('url' | 'frame')[];
  /** Log messages per server id (absent where the controller cannot watch connections). */
  readonly serverLog?: Signal<Readonly<Record<string, readonly ServerLogEntry[]>>>;
  /** The last TRAFFIC_KEPT JSON-RPC messages per server id. */
  readonly traffic?: Signal<Readonly<Record<string, readonly TrafficEntry[]>>>;
  /** Times a round trip to the server (ping; 2026-07-28 removed ping: server/discover) and records it. */
  ping?(serverId: string): Promise<number>;
  /** Asks a server for log messages at `level` and above (logging/setLevel). */
  setLogLevel?(serverId: string, level: string): Promise<void>;
  /**
   * Resources, templates, prompts and completion for the Resources and Prompts tabs (reads and gets
   * through the gate as the person). Absent where the controller cannot reach connections.
   */
  readonly offerings?: SessionOfferings;
  /**
   * Reads a resource through the server that named it (resources/read), through the gate: the
   * caller's reads are decided as any read (the person's own allowed, anyone else's asked unless
   * remembered) and every read is recorded. Default caller: the person. The person's load of an MCP
   * App's UI (`ui://`) is recorded as the app shown instead (apps/show).
   */
  readResource?(serverId: string, uri: string, caller?: Caller): Promise<JsonObject>;
  addServer(config: ServerConfig): Promise<ServerState>;
  removeServer(id: string): Promise<void>;
  retry(id: string): Promise<ServerState>;
  setTrust(id: string, trust: TrustLevel): Promise<void>;
  setToolEnabled(id: string, toolName: string, enabled: boolean): Promise<void>;
  /** Runs one call through the gate (validation, policy, the person's approval, the audit log). */
  call(request: CallRequest): Promise<GateResult>;
  cancel(invocationId: string): void;
  /** Remembered approvals and rules, by caller, server, tool and scope. */
  listRemembered(): Promise<RememberedItem[]>;
  /** Revokes a remembered approval or deletes a rule; true when there was one. */
  forgetRemembered(item: Pick<RememberedItem, 'type' | 'id'>): Promise<boolean>;
  /** The person's rules, as the Rules tab edits them (changes bump rememberedVersion). */
  readonly rules: RuleBook;
  /** How MCP Apps are hosted, and what they tell the host app (events). */
  readonly apps: AppHost;
  /**
   * The skills hub (made on first use), shared by the Skills view and the host API. Absent where the
   * connections run elsewhere (the extension's side panel mirrors its worker's controller).
   */
  skills?(): Promise<SkillsHub>;
}

/**
 * The rule list through the controller (the extension's side panel reaches its worker's policy).
 * Saving and importing check first: they reject with the policy's readable issues.
 */
interface RuleBook {
  list(): Promise<PolicyRule[]>;
  save(input: RuleInput): Promise<PolicyRule>;
  remove(id: string): Promise<boolean>;
  move(id: string, offset: number): Promise<boolean>;
  importRules(inputs: readonly unknown[]): Promise<PolicyRule[]>;
}

export interface Controller extends PanelController {
  /**
   * The gate, policy and audit log, loaded after the panel's first paint (they are most of the
   * widget's code). Rejects, with a sentence for the person, when the audit log cannot be opened.
   */
  readonly ready: Promise<ControllerServices>;
  /** Gate events (requested, awaiting-approval, sent, progress, finished, failed) for host apps. */
  onEvent(listener: (event: GateEvent) => void): () => void;
  close(): Promise<void>;
  skills(): Promise<SkillsHub>;
}

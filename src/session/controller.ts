/**
 * The widget's state and actions, independent of any view: servers and their connections, the
 * approval queue (the widget is the gate's Approver), running calls with progress and cancel,
 * recent results, elicitations, and the audit log. Views read the signals and call the actions.
 */

import { type Signal, signal } from '@preact/signals';
import type { AuditLog, AuditLogOptions } from '../audit/log.js';
import type { AuthorizationRequest } from '../auth/authorization-code.js';
import type { SignInOptions } from '../auth/connect-auth.js';
import { signInDeclined } from '../auth/declined.js';
import type { McpClient } from '../client/client.js';
import { serverIdForUrl, serverLabelForUrl } from '../client/server-id.js';
import { forgetServer } from '../gate/forget.js';
import type { GateEvent, GateResult } from '../gate/pipeline.js';
import type { Policy } from '../gate/policy-types.js';
import type { TraceRequest } from '../gate/trace-context.js';
import type { ApprovalAnswer, ApprovalRequest, AuditSink, Caller, TrustLevel } from '../gate/types.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import type { ElicitRequestParams, ElicitResult, Tool } from '../protocol/types.js';
import type { Transport } from '../transport/transport.js';
import { afterFirstPaint } from './after-first-paint.js';
import { catalogWarnings } from './catalog-warnings.js';
import { type ConnectFailureCause, describeConnectError, explainConnectError } from './connect-errors.js';
import type { RememberedItem } from './remembered.js';
import { serverNames } from './server-names.js';
import type { ControllerServices } from './services.js';

export interface ServerConfig {
  /** Stable id (qualifies tool names); defaults to the URL's host and path. */
  id?: string;
  /** A Streamable HTTP or legacy HTTP+SSE endpoint (the transport is chosen automatically). */
  url?: string;
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
  error?: string;
  trust: TrustLevel;
  tools: Tool[];
  /** Tools the person switched off (a deny rule in the policy, so the gate enforces it). */
  disabled: ReadonlySet<string>;
  era?: string;
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
  signedIn?: { issuer: string; scopes: readonly string[] };
  /** The last ping: its round trip in ms, or why it failed. */
  ping?: { at: number; ms: number; method: string } | { at: number; error: string };
  /** Whether the server declared `logging`, `resources` (read them through Toolgate). */
  offers?: { logging: boolean; resources: boolean };
  /** The level asked for with logging/setLevel, once the person chose one. */
  logLevel?: string;
}

/** One progress report of a call, as it arrived. */
export interface ProgressPoint {
  at: number;
  progress: number;
  total?: number;
  message?: string;
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
  /** Call inside the person's click: the sign-in window may only open during one. */
  accept: () => void;
  decline: () => void;
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
  progress?: { progress: number; total?: number; message?: string };
  /** The arguments as proposed, then as sent once approved (unredacted: redact to show). */
  arguments?: JsonObject;
  /** Every progress report so far (the newest PROGRESS_KEPT). */
  progressHistory?: readonly ProgressPoint[];
  cancel: () => void;
}

export interface FinishedCall {
  invocationId: string;
  serverId: string;
  toolName: string;
  finishedAt: number;
  outcome: { ok: true; result: GateResult } | { ok: false; error: string; kind: string };
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
  request: ElicitRequestParams;
  answer: (result: ElicitResult) => void;
}

export interface ControllerOptions {
  servers?: ServerConfig[];
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
  /** Servers asking the person to sign in (absent where the controller cannot sign in). */
  readonly signIns?: Signal<PendingSignIn[]>;
  /** Signs out of a server's authorization server (revoking its tokens where it can). */
  signOut?(serverId: string): Promise<void>;
  /** The audit log, once open. Rejects, with a sentence for the person, when it cannot be opened. */
  readonly ready: Promise<Pick<ControllerServices, 'auditLog'>>;
  /** Bumped whenever rules or remembered approvals change, so the Approvals view re-reads them. */
  readonly rememberedVersion: Signal<number>;
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
  /** Reads a resource through the server that named it (resources/read). */
  readResource?(serverId: string, uri: string): Promise<JsonObject>;
  addServer(config: ServerConfig): Promise<ServerState>;
  removeServer(id: string): Promise<void>;
  retry(id: string): Promise<ServerState>;
  setTrust(id: string, trust: TrustLevel): Promise<void>;
  setToolEnabled(id: string, toolName: string, enabled: boolean): Promise<void>;
  call(
    serverId: string,
    toolName: string,
    args: JsonObject,
    caller?: Caller,
    signal?: AbortSignal,
    /** Told the call's invocation id as soon as the gate has it (to follow it in the view). */
    onRequested?: (invocationId: string) => void,
    /** W3C trace context for the call's `_meta`: the host's own, or 'start' for a new trace. */
    trace?: TraceRequest,
  ): Promise<GateResult>;
  cancel(invocationId: string): void;
  /** Remembered approvals and rules, by caller, server, tool and scope. */
  listRemembered(): Promise<RememberedItem[]>;
  /** Revokes a remembered approval or deletes a rule; true when there was one. */
  forgetRemembered(item: Pick<RememberedItem, 'type' | 'id'>): Promise<boolean>;
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
}

const DISABLED_NOTE = 'switched off in the Toolgate panel';
const KEEP_FINISHED = 50;
/** Progress reports kept per call for its history (a long call may send thousands). */
const PROGRESS_KEPT = 100;

export function createController(options: ControllerOptions = {}): Controller {
  const servers = signal<ServerState[]>([]);
  const approvals = signal<PendingApproval[]>([]);
  const running = signal<RunningCall[]>([]);
  const finished = signal<FinishedCall[]>([]);
  const elicitations = signal<PendingElicitation[]>([]);
  const signIns = signal<PendingSignIn[]>([]);
  const rememberedVersion = signal(0);
  const serverLog = signal<Readonly<Record<string, readonly ServerLogEntry[]>>>({});
  const traffic = signal<Readonly<Record<string, readonly TrafficEntry[]>>>({});
  /** Stops recording a connection's messages (see server-diagnostics.ts). */
  const unwatch = new Map<string, () => void>();
  let closed = false;
  const clients = new Map<string, McpClient>();
  /** Frames and workers the controller started for servers, to dispose of with them. */
  const frames = new Map<string, { dispose(): void }>();
  const update = (id: string, change: Partial<ServerState>) => {
    servers.value = servers.value.map((server) => (server.id === id ? { ...server, ...change } : server));
  };

  const approver = {
    approve: (request: ApprovalRequest) =>
      new Promise<ApprovalAnswer>((resolve) => {
        // The caller gave up before the question was queued (an abort listener added now would
        // never fire): never show it, or it would wait in the dialog for a call that has ended.
        if (request.signal.aborted)
          return resolve({ action: 'deny', reason: 'the caller cancelled the call', decidedBy: 'toolgate' });
        const remove = () => {
          approvals.value = approvals.value.filter(
            (item) => item.request.invocationId !== request.invocationId,
          );
        };
        // The caller gave up (cancelled) while the person was looking: take it off the queue.
        request.signal.addEventListener('abort', () => {
          remove();
          resolve({ action: 'deny', reason: 'the caller cancelled the call', decidedBy: 'toolgate' });
        });
        approvals.value = [
          ...approvals.value,
          {
            request,
            receivedAt: Date.now(),
            answer: (answer) => {
              remove();
              resolve(answer);
            },
          },
        ];
      }),
  };

  // The connection code and the services (gate, policy, validators, log) are chunks of their own,
  // fetched only after the panel's first screen is painted: the first screen costs the entry alone.
  // A server configured at mount starts connecting right after that paint.
  const painted = afterFirstPaint();
  const connectModule = painted.then(() => import('../client/connect.js'));
  connectModule.catch(() => undefined);
  const diagnostics = painted.then(() => import('./server-diagnostics.js'));
  diagnostics.catch(() => undefined);
  const ready = painted
    .then(() => import('./services.js'))
    .then(({ createServices }) =>
      createServices(
        options,
        clients,
        approver,
        // The name the panel shows (the label; with the id when two servers share it).
        (id) =>
          servers.value.some((server) => server.id === id) ? serverNames(servers.value)(id) : undefined,
        (id) => servers.value.find((server) => server.id === id)?.config.acceptUncheckedArguments === true,
      ),
    );
  // Views show the failure (the audit view, the approval step); keep it from being "unhandled".
  ready.catch(() => undefined);
  void ready.then(({ policy }) =>
    policy.onChange((change) => {
      if (change.kind !== 'trust') rememberedVersion.value++;
    }),
  );
  const listeners = new Set<(event: GateEvent) => void>();
  void ready.then(({ gate }) =>
    gate.onEvent((event) => {
      if (event.type === 'sent')
        running.value = running.value.map((call) =>
          call.invocationId === event.invocationId
            ? { ...call, sentAt: Date.now(), arguments: event.arguments }
            : call,
        );
      if (event.type === 'progress')
        running.value = running.value.map((call) => {
          if (call.invocationId !== event.invocationId) return call;
          const progress = { progress: event.progress, total: event.total, message: event.message };
          const history = [...(call.progressHistory ?? []), { at: Date.now(), ...progress }];
          return { ...call, progress, progressHistory: history.slice(-PROGRESS_KEPT) };
        });
      for (const listener of listeners) listener(event);
    }),
  );

  // Without a policy store (it failed to open) nothing can be called anyway; show every tool as on.
  const disabledOf = async (serverId: string): Promise<Set<string>> => {
    const rules = await ready.then(({ policy }) => policy.listRules()).catch(() => []);
    return new Set(
      rules
        .filter((rule) => rule.server === serverId && rule.verdict === 'deny' && rule.note === DISABLED_NOTE)
        .map((rule) => rule.tool),
    );
  };

  /**
   * Queues a server's question for the person, one dialog at a time. A question nobody waits for any
   * more (its call ended, the server withdrew it, the connection closed) leaves the queue at once.
   */
  function askPerson(
    serverId: string,
    request: ElicitRequestParams,
    context: { toolName?: string; signal?: AbortSignal },
  ): Promise<ElicitResult> {
    const { signal } = context;
    if (signal?.aborted) return Promise.resolve({ action: 'cancel' });
    return new Promise<ElicitResult>((resolve) => {
      const id = crypto.randomUUID();
      const settle = (result: ElicitResult) => {
        signal?.removeEventListener('abort', withdraw);
        elicitations.value = elicitations.value.filter((item) => item.id !== id);
        resolve(result);
      };
      const withdraw = () => settle({ action: 'cancel' });
      signal?.addEventListener('abort', withdraw, { once: true });
      elicitations.value = [
        ...elicitations.value,
        {
          id,
          serverId,
          ...(context.toolName ? { toolName: context.toolName } : {}),
          request,
          answer: settle,
        },
      ];
    });
  }

  /** The person is asked in the panel before the sign-in window opens (unless the host asks itself). */
  const askToSignIn =
    (serverId: string, way: NonNullable<PendingSignIn['way']>) =>
    (request: AuthorizationRequest): Promise<void> =>
      new Promise<void>((resolve, reject) => {
        const id = crypto.randomUUID();
        const remove = () => {
          signIns.value = signIns.value.filter((item) => item.id !== id);
        };
        request.signal.addEventListener('abort', () => {
          remove();
          reject(new DOMException('Nobody waits for this sign-in any more.', 'AbortError'));
        });
        signIns.value = [
          ...signIns.value,
          {
            id,
            serverId,
            issuer: request.issuer,
            scopes: request.scopes,
            way,
            accept: () => {
              remove();
              resolve();
            },
            decline: () => {
              remove();
              const label = servers.value.find((server) => server.id === serverId)?.label ?? serverId;
              reject(
                signInDeclined(
                  `You chose not to sign in to ${label} now, so it is not connected. Sign in when you want to use it.`,
                ),
              );
            },
          },
        ];
      });

  /** The config's sign-in options with the panel's prompt, the signed-in state and the audit trail. */
  async function signInFor(serverId: string, auth: SignInOptions): Promise<SignInOptions> {
    const { recordSignIns } = await import('./sign-in-audit.js');
    // The sink the gate records calls in (the log, a host's sink, or memory): sign-ins beside them.
    const audit = (await ready.catch(() => undefined))?.audit;
    const record = audit ? recordSignIns(audit, { serverId }) : undefined;
    return {
      ...auth,
      confirm: auth.confirm ?? askToSignIn(serverId, auth.mode === 'redirect' ? 'this-tab' : 'window'),
      continueInTab: auth.continueInTab ?? askToSignIn(serverId, 'blocked'),
      onEvent: (event) => {
        auth.onEvent?.(event);
        record?.(event);
        if (event.type === 'signed-in' || event.type === 'restored')
          update(serverId, { signedIn: { issuer: event.issuer, scopes: event.scopes } });
        if (event.type === 'signed-out') update(serverId, { signedIn: undefined });
      },
    };
  }

  async function open(state: ServerState): Promise<ServerState> {
    update(state.id, { state: 'connecting', error: undefined, warnings: [], excluded: [] });
    const { config } = state;
    try {
      const { connect } = await connectModule;
      let transport = config.transport;
      if (config.frameUrl) {
        const { openFramePeer } = await import('../transport/frame-peer.js');
        const peer = openFramePeer(config.frameUrl, config.channel ? { channel: config.channel } : {});
        frames.set(state.id, peer);
        transport = peer.transport;
      }
      if (config.worker) {
        const { openWorkerPeer } = await import('../transport/worker-peer.js');
        const peer = openWorkerPeer(config.worker(), `${state.label} (worker)`);
        frames.set(state.id, peer);
        transport = peer.transport;
      }
      const client = await connect({
        ...(config.url ? { url: config.url } : {}),
        ...(transport ? { transport } : {}),
        ...(config.headers ? { headers: config.headers } : {}),
        ...(config.fetch ? { fetch: config.fetch } : {}),
        id: state.id,
        onElicit: (request, context) => askPerson(state.id, request, context),
        ...(config.auth ? { auth: await signInFor(state.id, config.auth) } : {}),
      });
      clients.set(state.id, client);
      unwatch.get(state.id)?.();
      // The debugging views are a convenience: a chunk that failed to load must not fail the connection.
      const recorder = await diagnostics.catch(() => undefined);
      if (recorder) unwatch.set(state.id, recorder.watchServer(client, state.id, { traffic, serverLog }));
      const snapshot = await client.listCatalog();
      const tools = snapshot.entries.map((entry) => entry.tool);
      client.onToolsChanged((next) =>
        update(state.id, {
          tools: next.entries.map((entry) => entry.tool),
          excluded: next.rejected,
          warnings: catalogWarnings(state.id, next),
        }),
      );
      // The server said its tools changed: fetch them now so the panel never shows a stale list.
      client.onToolListChanged = () => void client.listTools().catch(() => undefined);
      update(state.id, {
        state: 'connected',
        tools,
        excluded: snapshot.rejected,
        warnings: catalogWarnings(state.id, snapshot),
        era: client.era,
        offers: {
          logging: client.capabilities.logging !== undefined,
          resources: client.capabilities.resources !== undefined,
        },
        label: config.label ?? client.serverInfo?.title ?? client.serverInfo?.name ?? state.label,
        disabled: await disabledOf(state.id),
      });
    } catch (error) {
      const problem = await explainConnectError(state.label, error, config.url);
      update(state.id, {
        state: 'failed',
        error: problem.message,
        errorCause: problem.cause,
        ...(problem.detail ? { errorDetail: problem.detail } : {}),
      });
    }
    return servers.value.find((server) => server.id === state.id)!;
  }

  const dropFrame = (id: string) => {
    frames.get(id)?.dispose();
    frames.delete(id);
    unwatch.get(id)?.();
    unwatch.delete(id);
  };

  const connected = (serverId: string): McpClient => {
    const client = clients.get(serverId);
    const label = servers.value.find((server) => server.id === serverId)?.label ?? serverId;
    if (!client) throw new Error(`${label} is not connected: press Retry in Servers first.`);
    return client;
  };

  const controller: Controller = {
    servers,
    approvals,
    running,
    finished,
    elicitations,
    signIns,
    rememberedVersion,
    serverLog,
    traffic,
    ready,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async addServer(config) {
      const named = identify(config);
      const id = config.id ?? named.id;
      if (servers.value.some((server) => server.id === id))
        throw new Error(`A server with the id "${id}" is already in the panel.`);
      const state: ServerState = {
        id,
        label: config.label ?? (config.id ? id : named.label),
        config,
        state: 'connecting',
        // Untrusted until the policy store says otherwise: annotations show as claims meanwhile.
        trust: 'untrusted',
        tools: [],
        disabled: new Set(),
      };
      servers.value = [...servers.value, state];
      void ready
        .then(({ policy }) => policy.trustOf(id))
        .then((trust) => update(id, { trust }))
        .catch(() => undefined);
      return open(state);
    },
    async removeServer(id) {
      const label = servers.value.find((server) => server.id === id)?.label ?? id;
      const client = clients.get(id);
      clients.delete(id);
      dropFrame(id);
      servers.value = servers.value.filter((server) => server.id !== id);
      await client?.close().catch(() => undefined);
      // What the person decided about this server goes with it: a server added later at the same
      // address (or under the same id) is asked about afresh, not trusted on an old say-so.
      try {
        await forgetServer((await ready).policy, id);
      } catch (error) {
        throw new Error(
          `${label} was removed, but what you decided about it (trust, remembered approvals, rules) could not be cleared: ${
            error instanceof Error ? error.message : String(error)
          }. Revoke them in Approvals.`,
          { cause: error },
        );
      }
    },
    async retry(id) {
      const state = servers.value.find((server) => server.id === id);
      if (!state) throw new Error(`No server "${id}" in the panel.`);
      await clients
        .get(id)
        ?.close()
        .catch(() => undefined);
      clients.delete(id);
      dropFrame(id);
      return open(state);
    },
    async setTrust(id, trust) {
      await (await ready).policy.setTrust(id, trust);
      update(id, { trust });
    },
    async setToolEnabled(id, toolName, enabled) {
      const { policy } = await ready;
      if (enabled) {
        for (const rule of await policy.listRules())
          if (rule.server === id && rule.tool === toolName && rule.note === DISABLED_NOTE)
            await policy.deleteRule(rule.id);
      } else {
        await policy.saveRule({ verdict: 'deny', server: id, tool: toolName, note: DISABLED_NOTE });
      }
      update(id, { disabled: await disabledOf(id) });
    },
    async call(
      serverId,
      toolName,
      args,
      caller = { kind: 'person', label: options.personLabel ?? 'you' },
      signal,
      onRequested,
      trace,
    ) {
      if (closed) throw new Error('This Toolgate panel was closed; open it again to call tools.');
      const abort = new AbortController();
      if (signal) {
        if (signal.aborted) abort.abort(signal.reason);
        signal.addEventListener('abort', () => abort.abort(signal.reason), { once: true });
      }
      const timeoutMs = options.defaultTimeoutMs ?? 60_000;
      const { gate } = await ready;
      let invocationId = '';
      const stop = gate.onEvent((event) => {
        if (event.type !== 'requested' || invocationId || event.request.signal !== abort.signal) return;
        invocationId = event.invocationId;
        running.value = [
          ...running.value,
          {
            invocationId,
            serverId,
            toolName,
            caller,
            startedAt: Date.now(),
            timeoutMs,
            arguments: args,
            cancel: () => abort.abort(new DOMException('Cancelled in the Toolgate panel', 'AbortError')),
          },
        ];
        onRequested?.(invocationId);
      });
      const done = (outcome: FinishedCall['outcome']) => {
        stop();
        const last = running.value.find((call) => call.invocationId === invocationId);
        running.value = running.value.filter((call) => call.invocationId !== invocationId);
        const sent = outcome.ok ? outcome.result.arguments : last?.arguments;
        finished.value = [
          {
            invocationId,
            serverId,
            toolName,
            finishedAt: Date.now(),
            outcome,
            caller,
            ...(last ? { startedAt: last.startedAt } : {}),
            ...(last?.sentAt !== undefined ? { sentAt: last.sentAt } : {}),
            ...(sent ? { arguments: sent } : {}),
            ...(last?.progressHistory ? { progressHistory: last.progressHistory } : {}),
          },
          ...finished.value,
        ].slice(0, KEEP_FINISHED);
      };
      try {
        const result = await gate.call({
          serverId,
          toolName,
          arguments: args,
          caller,
          signal: abort.signal,
          timeoutMs,
          ...((trace ?? options.traceContext) ? { trace: trace ?? options.traceContext } : {}),
        });
        done({ ok: true, result });
        return result;
      } catch (error) {
        const failure = error as Error & { kind?: string };
        done({ ok: false, error: failure.message, kind: failure.kind ?? failure.name });
        // The connection itself ended (the server lost every new session, the stream went away):
        // say so next to the server, where Retry is, not only in this call's result.
        const lost = clients.get(serverId)?.failure;
        if (lost)
          update(serverId, {
            state: 'failed',
            error: describeConnectError(
              servers.value.find((server) => server.id === serverId)?.label ?? serverId,
              lost,
            ),
          });
        throw error;
      }
    },
    cancel(invocationId) {
      running.value.find((call) => call.invocationId === invocationId)?.cancel();
    },
    async ping(serverId) {
      const client = connected(serverId);
      // 2026-07-28 removed ping: a server/discover round trip is the nearest thing to one.
      const method = client.era === 'modern' ? 'server/discover' : 'ping';
      const started = performance.now();
      try {
        if (method === 'ping') await client.ping({ timeoutMs: 10_000 });
        else await client.request(method, {}, { timeoutMs: 10_000 });
      } catch (error) {
        update(serverId, { ping: { at: Date.now(), error: (error as Error).message } });
        throw error;
      }
      const ms = Math.round((performance.now() - started) * 10) / 10;
      update(serverId, { ping: { at: Date.now(), ms, method } });
      return ms;
    },
    async setLogLevel(serverId, level) {
      await connected(serverId).request('logging/setLevel', { level });
      update(serverId, { logLevel: level });
    },
    async readResource(serverId, uri) {
      return connected(serverId).request('resources/read', { uri }, { timeoutMs: 30_000 });
    },
    // Only the Approvals view needs these: its chunk, not the first load.
    async listRemembered() {
      const [{ policy }, { listRemembered }] = await Promise.all([ready, import('./remembered.js')]);
      return listRemembered(policy);
    },
    async forgetRemembered(item) {
      const [{ policy }, { forgetRemembered }] = await Promise.all([ready, import('./remembered.js')]);
      return forgetRemembered(policy, item);
    },
    async signOut(serverId) {
      const client = clients.get(serverId);
      if (!client) throw new Error(`No connection to ${serverId} to sign out of.`);
      const { signInOf } = await connectModule;
      await signInOf(client)?.signOut();
      update(serverId, { signedIn: undefined });
    },
    async close() {
      if (closed) return;
      closed = true;
      // Nobody is left to answer: settle whatever waits for the person, so callers (a host's run())
      // get a denial on record instead of waiting for ever.
      for (const pending of approvals.value)
        pending.answer({ action: 'deny', reason: 'the Toolgate panel was closed', decidedBy: 'toolgate' });
      for (const pending of elicitations.value) pending.answer({ action: 'cancel' });
      for (const pending of signIns.value) pending.decline();
      // Calls already sent are cancelled (the server is told); those still waiting get the denial.
      for (const call of running.value) if (call.sentAt !== undefined) call.cancel();
      for (const client of clients.values()) await client.close().catch(() => undefined);
      clients.clear();
      for (const stop of unwatch.values()) stop();
      unwatch.clear();
      for (const id of [...frames.keys()]) dropFrame(id);
      const services = await ready.catch(() => undefined);
      // Only a log the controller opened is the controller's to close.
      if (options.audit === undefined || options.audit === 'indexeddb') services?.auditLog?.close();
    },
  };

  for (const config of options.servers ?? []) void controller.addServer(config).catch(() => undefined);
  return controller;
}

/** The exact id of the server a config names (see client/server-id.ts), and a short name for it. */
function identify(config: ServerConfig): { id: string; label: string } {
  const address = config.url ?? config.frameUrl;
  if (address) {
    try {
      const url = new URL(address, location.href);
      return { id: serverIdForUrl(url), label: serverLabelForUrl(url) };
    } catch {
      return { id: address, label: address };
    }
  }
  const id = config.transport?.label ?? `server-${Math.random().toString(36).slice(2, 8)}`;
  return { id, label: id };
}

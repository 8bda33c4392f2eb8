/**
 * A PanelController in an extension page that mirrors the service worker's controller over a
 * runtime port. Views work unchanged: the signals hold the worker's state, actions become commands.
 * When the worker stops (Chrome stops idle workers; an update restarts it) the port drops: waiting
 * commands fail with a sentence that says so, and the page reconnects, which starts the worker again.
 */

import { type Signal, signal } from '@preact/signals';
import type { AuditLog, OtlpExportStatus } from '../../src/audit/index.js';
import type { ApprovalAnswer, GateResult, PolicyRule } from '../../src/gate/index.js';
import type { ElicitResult, JsonObject } from '../../src/protocol/index.js';
import type { ValidationReport } from '../../src/schema/index.js';
import {
  createAppHost,
  type FinishedCall,
  type McpAppsOptions,
  type PanelController,
  type PendingAccess,
  type PendingApproval,
  type PendingElicitation,
  type PendingSignIn,
  type RememberedItem,
  type RunningCall,
  type ServerLogEntry,
  type ServerState,
  type TrafficEntry,
} from '../../src/session/index.js';
import type { ChromeRuntimePort } from '../../src/transport/index.js';
import { callForApp, readResourceThrough } from '../apps/page-app-calls.js';
import type { RefusedAuthOrigin } from '../sign-in/auth-origins.js';
import type { ConsentAnswer, ConsentRequest, SiteGrant } from '../site-access.js';
import { auditExportMirror } from './audit-export-mirror.js';
import { applyDiagnostics } from './diagnostics-mirror.js';
import { offeringsMirror } from './offerings-mirror.js';
import {
  fromWireError,
  type PageCommand,
  type WireAccess,
  type WireApproval,
  type WireElicitation,
  type WireRunningCall,
  type WireServer,
  type WireSignIn,
  type WorkerToPage,
} from './wire.js';

export interface RemoteController extends PanelController {
  readonly signIns: Signal<PendingSignIn[]>;
  /** Authorization servers that refused CORS to the extension, with the servers they stopped. */
  readonly refusedAuthOrigins: Signal<RefusedAuthOrigin[]>;
  signOut(serverId: string): Promise<void>;
  /** The Inspect view's records, mirrored from the worker as they grow (diagnostics-mirror.ts). */
  readonly traffic: Signal<Readonly<Record<string, readonly TrafficEntry[]>>>;
  readonly serverLog: Signal<Readonly<Record<string, readonly ServerLogEntry[]>>>;
  ping(serverId: string): Promise<number>;
  setLogLevel(serverId: string, level: string): Promise<void>;
  readonly consents: Signal<ConsentRequest[]>;
  readonly sites: Signal<SiteGrant[]>;
  /** False while the worker is unreachable (between a stop and the reconnect). */
  readonly connected: Signal<boolean>;
  answerConsent(id: string, answer: ConsentAnswer): Promise<void>;
  revokeSite(origin: string): Promise<void>;
  /** Lets the site's browser agent use the tools granted to the site (WebMCP), or stops it. */
  setSiteAgent(origin: string, on: boolean): Promise<void>;
  close(): void;
}

export interface RemoteControllerOptions {
  /** Opens a port to the worker (chrome.runtime.connect). Called again after a disconnect. */
  connect: () => ChromeRuntimePort;
  /** The page's own handle on the shared audit log (same extension origin, same IndexedDB). */
  openAuditLog: () => Promise<AuditLog>;
  /** Wait before reconnecting; default 100 ms. */
  reconnectDelayMs?: number;
  /** How this page hosts MCP Apps (they run in the page, their calls in the worker). */
  apps?: McpAppsOptions;
}

const fromWireServer = (server: WireServer): ServerState => ({
  ...server,
  disabled: new Set(server.disabled),
  config: {
    ...(server.config.id ? { id: server.config.id } : {}),
    ...(server.config.url ? { url: server.config.url } : {}),
    ...(server.config.label ? { label: server.config.label } : {}),
    ...(server.config.address ? { address: server.config.address } : {}),
  },
});

export function createRemoteController(options: RemoteControllerOptions): RemoteController {
  const servers = signal<ServerState[]>([]);
  const approvals = signal<PendingApproval[]>([]);
  const accesses = signal<PendingAccess[]>([]);
  const running = signal<RunningCall[]>([]);
  const finished = signal<FinishedCall[]>([]);
  const elicitations = signal<PendingElicitation[]>([]);
  const consents = signal<ConsentRequest[]>([]);
  const signIns = signal<PendingSignIn[]>([]);
  const refusedAuthOrigins = signal<RefusedAuthOrigin[]>([]);
  const sites = signal<SiteGrant[]>([]);
  const rememberedVersion = signal(0);
  // The Inspect view's records, kept from what the worker sends (diagnostics-mirror.ts).
  const traffic = signal<Readonly<Record<string, readonly TrafficEntry[]>>>({});
  const serverLog = signal<Readonly<Record<string, readonly ServerLogEntry[]>>>({});
  const connected = signal(false);
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let port: ChromeRuntimePort | undefined;
  let closed = false;
  /** Aborted when an approval leaves the worker's queue, so the dialog's signal means the same. */
  const approvalSignals = new Map<string, AbortController>();

  const command = <T>(method: string, ...params: unknown[]): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (!port) {
        reject(new Error('Toolgate’s background worker is not reachable; try again in a moment.'));
        return;
      }
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      port.postMessage({ type: 'command', id, method, params } satisfies PageCommand);
    });

  const exportMirror = auditExportMirror(() => command<void>('resumeAuditExport'));
  const offerings = offeringsMirror(command);
  /** Aborted when a read leaves the worker's queue, so the access dialog closes with it. */
  const accessSignals = new Map<string, AbortController>();

  const applyState = (key: string, value: unknown) => {
    switch (key) {
      case 'servers':
        servers.value = (value as WireServer[]).map(fromWireServer);
        break;
      case 'approvals': {
        const items = value as WireApproval[];
        const live = new Set(items.map((item) => item.request.invocationId));
        for (const [id, abort] of approvalSignals)
          if (!live.has(id)) {
            abort.abort();
            approvalSignals.delete(id);
          }
        approvals.value = items.map(({ request, receivedAt }) => {
          const abort = approvalSignals.get(request.invocationId) ?? new AbortController();
          approvalSignals.set(request.invocationId, abort);
          return {
            receivedAt,
            request: {
              ...request,
              signal: abort.signal,
              validate: (args: JsonObject) =>
                command<ValidationReport>('validate', request.invocationId, args),
            },
            answer: (answer: ApprovalAnswer) => {
              void command('answerApproval', request.invocationId, answer).catch(() => undefined);
            },
          };
        });
        break;
      }
      case 'accesses': {
        const items = value as WireAccess[];
        const live = new Set(items.map((item) => item.request.invocationId));
        for (const [id, abort] of accessSignals)
          if (!live.has(id)) {
            abort.abort();
            accessSignals.delete(id);
          }
        accesses.value = items.map(({ request }) => {
          const abort = accessSignals.get(request.invocationId) ?? new AbortController();
          accessSignals.set(request.invocationId, abort);
          return {
            request: { ...request, signal: abort.signal },
            answer: (answer: ApprovalAnswer) =>
              void command('answerAccess', request.invocationId, answer).catch(() => undefined),
          };
        });
        break;
      }
      case 'running':
        running.value = (value as WireRunningCall[]).map((call) => ({
          ...call,
          cancel: () => void command('cancel', call.invocationId).catch(() => undefined),
        }));
        break;
      case 'finished':
        finished.value = value as FinishedCall[];
        break;
      case 'elicitations':
        elicitations.value = (value as WireElicitation[]).map((item) => ({
          ...item,
          answer: (result: ElicitResult) =>
            void command('answerElicitation', item.id, result).catch(() => undefined),
        }));
        break;
      case 'consents':
        consents.value = value as ConsentRequest[];
        break;
      case 'sites':
        sites.value = value as SiteGrant[];
        break;
      case 'signIns':
        // The panel's "Sign in" answers the worker, which then opens Chrome's sign-in window.
        signIns.value = (value as WireSignIn[]).map((item) => ({
          ...item,
          accept: () => void command('answerSignIn', item.id, true).catch(() => undefined),
          decline: () => void command('answerSignIn', item.id, false).catch(() => undefined),
        }));
        break;
      case 'refusedAuthOrigins':
        refusedAuthOrigins.value = value as RefusedAuthOrigin[];
        break;
      case 'auditExport':
        exportMirror.update(value as OtlpExportStatus | null);
        break;
      case 'rememberedVersion':
        rememberedVersion.value = value as number;
        break;
    }
  };

  const open = () => {
    if (closed) return;
    const current = options.connect();
    port = current;
    connected.value = true;
    // A new port gets every record whole: what the last one sent may be a stopped worker's.
    traffic.value = {};
    serverLog.value = {};
    offerings.reconnected();
    current.onMessage.addListener((message: unknown) => {
      const data = message as WorkerToPage;
      if (data.type === 'state') applyState(data.key, data.value);
      else if (data.type === 'offerings') offerings.receive(data);
      else if (data.type === 'diagnostics')
        applyDiagnostics(
          (data.kind === 'traffic' ? traffic : serverLog) as Signal<Record<string, unknown[]>>,
          data,
        );
      else if (data.type === 'reply') {
        const pending = waiting.get(data.id);
        waiting.delete(data.id);
        if (data.ok) pending?.resolve(data.value);
        else pending?.reject(fromWireError(data.error));
      }
    });
    current.onDisconnect.addListener(() => {
      if (port === current) port = undefined;
      connected.value = false;
      // Whatever was in flight was the stopped worker's: the audit log marks its calls interrupted.
      for (const [, pending] of waiting) {
        const error = new Error(
          'Toolgate’s background worker stopped before answering; a call it was running is marked interrupted in the audit log.',
        ) as Error & { kind?: string };
        error.kind = 'interrupted';
        pending.reject(error);
      }
      waiting.clear();
      if (!closed) setTimeout(open, options.reconnectDelayMs ?? 100);
    });
  };
  open();

  const ready = options.openAuditLog().then((auditLog) => {
    exportMirror.attach(auditLog);
    return { auditLog };
  });
  ready.catch(() => undefined);

  return {
    servers,
    approvals,
    accesses,
    running,
    finished,
    elicitations,
    consents,
    signIns,
    refusedAuthOrigins,
    sites,
    connected,
    rememberedVersion,
    traffic,
    serverLog,
    ready,
    apps: createAppHost(options.apps),
    // The worker has no DOM: no hidden frames or page workers there.
    serverKinds: ['url'],
    addServer: async (config) => {
      if (config.frameUrl || config.worker || config.transport)
        throw new Error('The extension connects to servers by URL (Streamable HTTP or HTTP+SSE).');
      return fromWireServer(await command<WireServer>('addServer', config));
    },
    removeServer: (id) => command('removeServer', id),
    retry: async (id) => fromWireServer(await command<WireServer>('retry', id)),
    setTrust: (id, trust) => command('setTrust', id, trust),
    setToolEnabled: (id, toolName, enabled) => command('setToolEnabled', id, toolName, enabled),
    // Calls from the panel are the person's own, or an MCP App's shown in it; the worker sets the
    // caller. The form's Call button marks its call (its click approves it); an app's call never is.
    call: ({ serverId, toolName, arguments: args, caller, signal, startedFrom }) =>
      caller?.kind === 'mcp-app'
        ? callForApp(command, serverId, toolName, args, caller, signal)
        : command<GateResult>(
            'call',
            serverId,
            toolName,
            args,
            startedFrom === 'form' ? { startedFrom: 'form' } : {},
          ),
    readResource: readResourceThrough(command),
    // The Resources and Prompts tabs, run by the worker's connections and gate.
    offerings: offerings.offerings,
    cancel: (invocationId) => void command('cancel', invocationId).catch(() => undefined),
    signOut: (serverId) => command('signOut', serverId),
    ping: (serverId) => command<number>('ping', serverId),
    setLogLevel: (serverId, level) => command<void>('setLogLevel', serverId, level),
    answerConsent: (id, answer) => command('answerConsent', id, answer),
    revokeSite: (origin) => command('revokeSite', origin),
    setSiteAgent: (origin, on) => command('setSiteAgent', origin, on),
    listRemembered: () => command<RememberedItem[]>('listRemembered'),
    forgetRemembered: (item) => command<boolean>('forgetRemembered', { type: item.type, id: item.id }),
    rules: {
      list: () => command<PolicyRule[]>('listRules'),
      save: (input) => command<PolicyRule>('saveRule', input),
      remove: (id) => command<boolean>('deleteRule', id),
      move: (id, offset) => command<boolean>('moveRule', id, offset),
      importRules: (inputs) => command<PolicyRule[]>('importRules', inputs),
    },
    close() {
      closed = true;
      port?.disconnect();
      port = undefined;
      void ready.then(({ auditLog }) => auditLog?.close()).catch(() => undefined);
    },
  };
}

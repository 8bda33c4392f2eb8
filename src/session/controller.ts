/**
 * The controller: the state and actions of one session (a panel's, a host's or the extension
 * worker's), independent of any view. A small composer of four parts, each its own module:
 * connections (servers, their connections and catalogs), the person's queue (approvals, questions,
 * sign-ins), calls (running and finished, cancellation) and diagnostics (logs, traffic, ping); and of
 * its services: the gate, policy and audit log (services.ts), the MCP App host (app-host.ts) and the
 * skills hub (skills-service.ts). Views read the signals and call the actions.
 */

import { signal } from '@preact/signals';
import type { Gate } from '../gate/index.js';
import type { JsonObject } from '../protocol/index.js';
import { afterFirstPaint } from './after-first-paint.js';
import { createAppHost } from './app-host.js';
import { createCalls } from './calls.js';
import { createConnections } from './connections.js';
import type { Controller, ControllerOptions } from './controller-types.js';
import { createDiagnostics } from './diagnostics.js';
import { createOfferings } from './offerings.js';
import { createPersonQueue } from './person-queue.js';
import { serverNames } from './server-names.js';
import { createSkillsService } from './skills-service.js';

export type * from './controller-types.js';
export type * from './types.js';

export function createController(options: ControllerOptions = {}): Controller {
  let closed = false;

  // The connection code and the services (gate, policy, validators, log) are chunks of their own,
  // fetched only after the panel's first screen is painted: the first screen costs the entry alone.
  // A server configured at mount starts connecting right after that paint.
  const painted = afterFirstPaint();
  const connectModule = painted.then(() => import('../client/connect.js'));
  connectModule.catch(() => undefined);
  const recorder = painted.then(() => import('./server-diagnostics.js'));
  recorder.catch(() => undefined);

  const queue = createPersonQueue((serverId) => connections.labelOf(serverId));
  const diagnostics = createDiagnostics(
    recorder,
    (serverId) => connections.connected(serverId),
    (serverId, change) => connections.update(serverId, change),
  );
  const ready = painted
    .then(() => import('./services.js'))
    .then(({ createServices }) =>
      createServices(
        options,
        connections.clients,
        queue.approver,
        // The name the panel shows (the label; with the id when two servers share it).
        (id) => {
          const servers = connections.servers.value;
          return servers.some((server) => server.id === id) ? serverNames(servers)(id) : undefined;
        },
        (id) =>
          connections.servers.value.find((server) => server.id === id)?.config.acceptUncheckedArguments ===
          true,
      ),
    );
  // Views show the failure (the audit view, the approval step); keep it from being "unhandled".
  ready.catch(() => undefined);
  const connections = createConnections({ connectModule, services: ready, queue, diagnostics });
  const gate: Promise<Gate> = ready.then((services) => services.gate);
  gate.catch(() => undefined);
  const person = { kind: 'person', label: options.personLabel ?? 'you' } as const;
  const calls = createCalls({
    gate,
    person,
    ...(options.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: options.defaultTimeoutMs } : {}),
    ...(options.traceContext ? { traceContext: options.traceContext } : {}),
    checkOpen: () => {
      if (closed) throw new Error('This Toolgate panel was closed; open it again to call tools.');
    },
    onFailure: (serverId) => connections.noticeLoss(serverId),
  });

  const rememberedVersion = signal(0);
  ready.then(
    ({ policy }) =>
      policy.onChange((change) => {
        if (change.kind !== 'trust') rememberedVersion.value++;
      }),
    () => undefined,
  );

  // The page's WebMCP tools, where the browser has them (feature detection; nothing polyfilled).
  // Their absence is said only to a host that asked for them: most browsers have no WebMCP yet.
  const pageTools =
    typeof document === 'undefined'
      ? undefined
      : options.pageTools === false
        ? 'off'
        : 'modelContext' in document
          ? 'listed'
          : options.pageTools
            ? 'missing'
            : undefined;

  const controller: Controller = {
    servers: connections.servers,
    ...(pageTools ? { pageTools } : {}),
    approvals: queue.approvals,
    elicitations: queue.elicitations,
    signIns: queue.signIns,
    accesses: queue.accesses,
    running: calls.running,
    finished: calls.finished,
    serverLog: diagnostics.serverLog,
    traffic: diagnostics.traffic,
    rememberedVersion,
    ready,
    apps: createAppHost(options.apps),
    skills: createSkillsService(
      connections.servers,
      connections.clients,
      () => ready.then((services) => services.audit),
      options.skills,
    ),
    onEvent: calls.onEvent,
    addServer: connections.addServer,
    removeServer: connections.removeServer,
    retry: connections.retry,
    setTrust: connections.setTrust,
    setToolEnabled: connections.setToolEnabled,
    async readResource(serverId, uri, caller = person) {
      // An MCP App's UI, loaded to show the app the person opened, is on record as the app shown
      // (apps/show), not as a read of theirs.
      if (caller.kind === 'person' && uri.startsWith('ui://'))
        return connections.connected(serverId).request('resources/read', { uri }, { timeoutMs: 30_000 });
      const { result } = await (await gate).read({ serverId, uri, caller, timeoutMs: 30_000 });
      return result as unknown as JsonObject;
    },
    offerings: createOfferings({ gate, connected: connections.connected, person }),
    signOut: connections.signOut,
    call: calls.call,
    cancel: calls.cancel,
    ping: diagnostics.ping,
    setLogLevel: diagnostics.setLogLevel,
    // Only the Approvals view needs these: its chunk, not the first load.
    async listRemembered() {
      const [{ policy }, { listRemembered }] = await Promise.all([ready, import('./remembered.js')]);
      return listRemembered(policy);
    },
    async forgetRemembered(item) {
      const [{ policy }, { forgetRemembered }] = await Promise.all([ready, import('./remembered.js')]);
      return forgetRemembered(policy, item);
    },
    rules: {
      list: async () => (await ready).policy.listRules(),
      save: async (input) => (await ready).policy.saveRule(input),
      remove: async (id) => (await ready).policy.deleteRule(id),
      move: async (id, offset) => (await ready).policy.moveRule(id, offset),
      importRules: async (inputs) => (await ready).policy.importRules(inputs),
    },
    async close() {
      if (closed) return;
      closed = true;
      // Nobody is left to answer: settle whatever waits for the person; calls already sent are
      // cancelled (the server is told), those still waiting get the denial.
      queue.settleAll();
      calls.cancelSent();
      await connections.close();
      diagnostics.close();
      const services = await ready.catch(() => undefined);
      // Only a log the controller opened is the controller's to close.
      if (options.audit === undefined || options.audit === 'indexeddb') services?.auditLog?.close();
    },
  };

  if (pageTools === 'listed')
    painted
      .then(() => import('./page-tools.js'))
      .then(({ pageToolsServer }) => connections.addServer(pageToolsServer(), { atLoad: true }))
      .catch(() => undefined);

  // Configured, not asked for: a sign-in they need waits on their card (no dialog on load).
  for (const config of options.servers ?? [])
    void connections.addServer(config, { atLoad: true }).catch(() => undefined);
  // Servers kept across visits (kept-servers.ts): listed after those configured, kept when added.
  // Without its chunk (it failed to load) servers are added and removed as if keeping were off.
  const keep = options.keepServers;
  const keeper =
    keep === false
      ? undefined
      : painted
          .then(() => import('./kept-servers.js'))
          .then(({ keepServersIn }) =>
            keepServersIn(connections, keep === true ? {} : (keep ?? {}), () => closed),
          )
          .catch(() => connections);
  if (keeper) {
    controller.addServer = async (config) => (await keeper).addServer(config);
    controller.removeServer = async (id) => (await keeper).removeServer(id);
  }
  return controller;
}

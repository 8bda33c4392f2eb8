/**
 * The controller's connections: the servers in the panel, each with its connection (connect,
 * reconnect, remove), its tool catalog as the panel shows it, the person's trust and switched-off
 * tools, and its sign-in. The connection code is a chunk of its own, fetched after the first paint.
 */

import { type Signal, signal } from '@preact/signals';
import type { SignInOptions } from '../auth/index.js';
import { type McpClient, serverIdForUrl, serverLabelForUrl } from '../client/index.js';
import { type AuditSink, forgetServer, type Gate, type Policy, type TrustLevel } from '../gate/index.js';
import type { Icon } from '../protocol/index.js';
import { catalogWarnings } from './catalog-warnings.js';
import { describeConnectError, explainConnectError } from './connect-errors.js';
import type { Diagnostics } from './diagnostics.js';
import type { PersonQueue } from './person-queue.js';
import type { ServerConfig, ServerState } from './types.js';

/** The note of the deny rule that switches a tool off, so switching it on finds only that rule. */
const DISABLED_NOTE = 'switched off in the Toolgate panel';

export interface Connections {
  readonly servers: Signal<ServerState[]>;
  /** The live connections by server id (the gate sends through them). */
  readonly clients: ReadonlyMap<string, McpClient>;
  /**
   * `atLoad`: configured when the panel opened, not asked for by the person: a sign-in its first
   * connection needs waits on its card instead of opening a dialog by itself. `kept`: listed from
   * the servers kept on an earlier visit (kept-servers.ts).
   */
  addServer(config: ServerConfig, how?: { atLoad?: boolean; kept?: boolean }): Promise<ServerState>;
  /** `keepDecisions`: the same server is added again at once, so its trust and rules stay. */
  removeServer(id: string, how?: { keepDecisions?: boolean }): Promise<void>;
  retry(id: string): Promise<ServerState>;
  setTrust(id: string, trust: TrustLevel): Promise<void>;
  setToolEnabled(id: string, toolName: string, enabled: boolean): Promise<void>;
  signOut(serverId: string): Promise<void>;
  /** The live connection of a server; throws a sentence saying what to do when it has none. */
  connected(serverId: string): McpClient;
  update(id: string, change: Partial<ServerState>): void;
  /** The name the panel shows for a server (its id when it is not in the panel). */
  labelOf(serverId: string): string;
  /** A call failed: if the connection itself ended, say so beside the server, where Retry is. */
  noticeLoss(serverId: string): void;
  /** Closes every connection and disposes of the frames and workers started for them. */
  close(): Promise<void>;
}

export interface ConnectionsOptions {
  /** The connection code (loaded after the first paint). */
  connectModule: Promise<typeof import('../client/connect.js')>;
  /** The policy (trust, switched-off tools) and the audit sink (sign-ins), once loaded. */
  services: Promise<{ policy: Policy; audit: AuditSink; gate: Gate }>;
  queue: Pick<PersonQueue, 'ask' | 'askToSignIn'>;
  diagnostics: Pick<Diagnostics, 'watch' | 'unwatch'>;
}

export function createConnections(options: ConnectionsOptions): Connections {
  const { connectModule, services, queue, diagnostics } = options;
  const servers = signal<ServerState[]>([]);
  const clients = new Map<string, McpClient>();
  /** Frames and workers started for servers, to dispose of with them. */
  const frames = new Map<string, { dispose(): void }>();
  /** Servers configured at load whose first connection is still under way (see addServer). */
  const atLoad = new Set<string>();

  const update = (id: string, change: Partial<ServerState>) => {
    servers.value = servers.value.map((server) => (server.id === id ? { ...server, ...change } : server));
  };
  const labelOf = (serverId: string) =>
    servers.value.find((server) => server.id === serverId)?.label ?? serverId;

  const dropFrame = (id: string) => {
    frames.get(id)?.dispose();
    frames.delete(id);
    diagnostics.unwatch(id);
  };

  // Without a policy store (it failed to open) nothing can be called anyway; show every tool as on.
  const disabledOf = async (serverId: string): Promise<Set<string>> => {
    const rules = await services.then(({ policy }) => policy.listRules()).catch(() => []);
    return new Set(
      rules
        .filter((rule) => rule.server === serverId && rule.verdict === 'deny' && rule.note === DISABLED_NOTE)
        .map((rule) => rule.tool),
    );
  };

  /** The config's sign-in options with the panel's prompt, the signed-in state and the audit trail. */
  async function signInFor(serverId: string, auth: SignInOptions): Promise<SignInOptions> {
    const { recordSignIns } = await import('./sign-in-audit.js');
    // The sink the gate records calls in (the log, a host's sink, or memory): sign-ins beside them.
    const audit = (await services.catch(() => undefined))?.audit;
    const record = audit ? recordSignIns(audit, { serverId }) : undefined;
    return {
      ...auth,
      confirm:
        auth.confirm ??
        queue.askToSignIn(serverId, auth.mode === 'redirect' ? 'this-tab' : 'window', () =>
          atLoad.has(serverId),
        ),
      continueInTab: auth.continueInTab ?? queue.askToSignIn(serverId, 'blocked'),
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
        ...(config.url ? { url: config.url, httpTransport: config.httpTransport ?? 'auto' } : {}),
        ...(transport ? { transport } : {}),
        ...(config.headers ? { headers: config.headers } : {}),
        ...(config.fetch ? { fetch: config.fetch } : {}),
        id: state.id,
        onElicit: (request, context) => queue.ask(state.id, request, context),
        ...(config.auth ? { auth: await signInFor(state.id, config.auth) } : {}),
      });
      clients.set(state.id, client);
      await diagnostics.watch(state.id, client);
      // The newest listing: a change that arrives while the policy is read below must not be
      // overwritten by the first listing (a page registering its WebMCP tools just after load).
      let latest = await client.listCatalog();
      client.onToolsChanged((next) => {
        latest = next;
        update(state.id, {
          tools: next.entries.map((entry) => entry.tool),
          excluded: next.rejected,
          warnings: catalogWarnings(state.id, next),
        });
      });
      // The server said its tools changed: fetch them now so the panel never shows a stale list.
      client.onToolListChanged = () => void client.listTools().catch(() => undefined);
      const disabled = await disabledOf(state.id);
      update(state.id, {
        state: 'connected',
        tools: latest.entries.map((entry) => entry.tool),
        excluded: latest.rejected,
        warnings: catalogWarnings(state.id, latest),
        era: client.era,
        protocolVersion: client.protocolVersion,
        offers: {
          logging: client.capabilities.logging !== undefined,
          resources: client.capabilities.resources !== undefined,
          subscribe: client.capabilities.resources?.subscribe === true,
          prompts: client.capabilities.prompts !== undefined,
          completions: client.capabilities.completions !== undefined,
        },
        ...(client.instructions ? { instructions: client.instructions } : {}),
        ...iconsOf(client.serverInfo?.icons),
        label: config.label ?? client.serverInfo?.title ?? client.serverInfo?.name ?? state.label,
        disabled,
      });
      // Calls of this server that ran as tasks when the page (or worker) last closed: follow them again.
      void services.then(({ gate }) => gate.resumeTasks(state.id)).catch(() => undefined);
    } catch (error) {
      const problem = await explainConnectError(state.label, error, config.url);
      update(state.id, {
        state: 'failed',
        error: problem.message,
        errorCause: problem.cause,
        ...(problem.detail ? { errorDetail: problem.detail } : {}),
      });
    } finally {
      // Later sign-ins (a call's, a retry's) are asked for: they open the dialog.
      atLoad.delete(state.id);
    }
    return servers.value.find((server) => server.id === state.id)!;
  }

  const connected = (serverId: string): McpClient => {
    const client = clients.get(serverId);
    if (!client) throw new Error(`${labelOf(serverId)} is not connected: press Retry in Servers first.`);
    return client;
  };

  return {
    servers,
    clients,
    connected,
    update,
    labelOf,
    async addServer(config, how) {
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
        ...(how?.kept ? { kept: true } : {}),
      };
      servers.value = [...servers.value, state];
      if (how?.atLoad) atLoad.add(id);
      void services
        .then(({ policy }) => policy.trustOf(id))
        .then((trust) => update(id, { trust }))
        .catch(() => undefined);
      return open(state);
    },
    async removeServer(id, how) {
      const label = labelOf(id);
      const client = clients.get(id);
      clients.delete(id);
      dropFrame(id);
      servers.value = servers.value.filter((server) => server.id !== id);
      await client?.close().catch(() => undefined);
      if (how?.keepDecisions) return;
      // What the person decided about this server goes with it: a server added later at the same
      // address (or under the same id) is asked about afresh, not trusted on an old say-so.
      try {
        await forgetServer((await services).policy, id);
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
      atLoad.delete(id);
      await clients
        .get(id)
        ?.close()
        .catch(() => undefined);
      clients.delete(id);
      dropFrame(id);
      return open(state);
    },
    async setTrust(id, trust) {
      await (await services).policy.setTrust(id, trust);
      update(id, { trust });
    },
    async setToolEnabled(id, toolName, enabled) {
      const { policy } = await services;
      if (enabled) {
        for (const rule of await policy.listRules())
          if (rule.server === id && rule.tool === toolName && rule.note === DISABLED_NOTE)
            await policy.deleteRule(rule.id);
      } else {
        await policy.saveRule({ verdict: 'deny', server: id, tool: toolName, note: DISABLED_NOTE });
      }
      update(id, { disabled: await disabledOf(id) });
    },
    async signOut(serverId) {
      const client = clients.get(serverId);
      const config = servers.value.find((server) => server.id === serverId)?.config;
      if (client) {
        const { signInOf } = await connectModule;
        await signInOf(client)?.signOut();
      } else if (config?.auth && config.url) {
        // Not connected now (down, failed, not yet connected): its kept tokens go all the same.
        const { forgetSignIn } = await import('../auth/connect-auth.js');
        await forgetSignIn(config.url, config.auth);
      } else throw new Error(`No connection to ${serverId} to sign out of.`);
      update(serverId, { signedIn: undefined });
    },
    noticeLoss(serverId) {
      // The connection itself ended (the server lost every new MCP session, the stream went away).
      const lost = clients.get(serverId)?.failure;
      if (lost) update(serverId, { state: 'failed', error: describeConnectError(labelOf(serverId), lost) });
    },
    async close() {
      for (const client of clients.values()) await client.close().catch(() => undefined);
      clients.clear();
      for (const id of [...frames.keys()]) dropFrame(id);
    },
  };
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

/** The server's icons as `{ icons }`, entries that are objects with a text `src` only; else nothing. */
function iconsOf(icons: unknown): { icons?: Icon[] } {
  if (!Array.isArray(icons)) return {};
  const kept = icons.filter(
    (icon): icon is Icon => typeof icon === 'object' && icon !== null && typeof icon.src === 'string',
  );
  return kept.length > 0 ? { icons: kept.slice(0, 8) } : {};
}

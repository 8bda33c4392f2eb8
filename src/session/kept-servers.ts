/**
 * Servers kept across visits: those a person adds (and a host adds with `addServer`) are written to
 * IndexedDB and listed again, reconnecting, on the next load, until they are removed or forgotten
 * or the host turns keeping off (`keepServers: false`). Loaded after the first paint, like the rest
 * of what is not needed to show the panel.
 *
 * Nothing secret rests in clear. The clear record holds the address with its URL secrets hidden
 * (the URL secret rule, url-secrets.ts) and is filed under a SHA-256 of the server id (an id made
 * from a URL carries its secrets too). When the address had a secret, or the server has headers
 * (which usually carry credentials), the real address and the headers are sealed with AES-GCM under
 * a non-extractable key, as kept sign-ins are (auth's encryptedAuthStore; its threat model applies:
 * this guards the profile on disk, not against script running on this origin).
 */

import { createStore, del, entries, set } from 'idb-keyval';
import { type AuthStore, encryptedAuthStore } from '../auth/index.js';
import { redactUrl } from '../protocol/index.js';
import type { Connections } from './connections.js';
import type { ServerConfig, ServerState } from './types.js';

/** What the host tunes (ControllerOptions.keepServers). */
export interface KeepServersOptions {
  /** The IndexedDB database; default `toolgate-servers` (sealed parts in `<name>-sealed`). */
  databaseName?: string;
  /**
   * Called on each kept server before it reconnects on a later visit, to add what cannot be kept
   * (an `auth` with its callbacks, a `fetch`). Default: the server as it was kept.
   */
  prepare?: (config: ServerConfig) => ServerConfig;
}

/** The clear record of one kept server: nothing in it is secret. */
interface KeptRecord {
  /** The id the host gave, when it gave one (else it is made from the address again). */
  id?: string;
  /** The address with its URL secrets hidden; the real one is sealed when they differ. */
  url?: string;
  frameUrl?: string;
  channel?: string;
  label?: string;
  /** The HTTP transport, when one was chosen (not `auto`). */
  httpTransport?: 'streamable-http' | 'sse';
  /** The real address and the headers are sealed under the same key. */
  sealed?: boolean;
  /** When it was added (ms): the order it is listed in. */
  addedAt: number;
}

interface SealedPart {
  id?: string;
  url?: string;
  headers?: Record<string, string>;
}

export interface KeptServers {
  /** Every kept server, as a config to add again (oldest first). */
  list(): Promise<ServerConfig[]>;
  /** Keeps a server; false when it is of a kind that cannot be kept (a transport, a worker). */
  keep(id: string, config: ServerConfig): Promise<boolean>;
  /** Stops keeping a server (removed or forgotten). */
  drop(id: string): Promise<void>;
}

/** Servers that can be kept: those named by an address (a transport or a worker is code, not data). */
export function keepable(config: ServerConfig): boolean {
  return (config.url !== undefined || config.frameUrl !== undefined) && !config.transport && !config.worker;
}

export function openKeptServers(options: KeepServersOptions = {}): KeptServers {
  const name = options.databaseName ?? 'toolgate-servers';
  const records = createStore(name, 'servers');
  let sealedStore: AuthStore | undefined;
  const sealed = () => {
    sealedStore ??= encryptedAuthStore({ databaseName: `${name}-sealed` });
    return sealedStore;
  };
  const prepare = options.prepare ?? ((config: ServerConfig) => config);

  return {
    async list() {
      const kept = (await entries<string, KeptRecord>(records))
        .filter(([, record]) => isRecord(record))
        .sort(([, a], [, b]) => a.addedAt - b.addedAt);
      const configs: ServerConfig[] = [];
      for (const [key, record] of kept) {
        // A part sealed under a key this browser no longer has is as good as absent: the address
        // shows with its secret hidden, and the person edits it.
        const secret = record.sealed
          ? await sealed()
              .get<SealedPart>(key)
              .catch(() => undefined)
          : undefined;
        const url = secret?.url ?? record.url;
        const id = secret?.id ?? record.id;
        configs.push(
          prepare({
            ...(id !== undefined ? { id } : {}),
            ...(url !== undefined ? { url } : {}),
            ...(record.frameUrl !== undefined ? { frameUrl: record.frameUrl } : {}),
            ...(record.channel !== undefined ? { channel: record.channel } : {}),
            ...(record.label !== undefined ? { label: record.label } : {}),
            ...(record.httpTransport ? { httpTransport: record.httpTransport } : {}),
            ...(secret?.headers ? { headers: secret.headers } : {}),
          }),
        );
      }
      return configs;
    },
    async keep(id, config) {
      if (!keepable(config)) return false;
      const key = await keyOf(id);
      const shownUrl = config.url === undefined ? undefined : redactUrl(config.url);
      const headers = config.headers && Object.keys(config.headers).length ? config.headers : undefined;
      const shownId = config.id === undefined ? undefined : redactUrl(config.id);
      const secret: SealedPart = {
        ...(config.id !== undefined && shownId !== config.id ? { id: config.id } : {}),
        ...(config.url !== undefined && shownUrl !== config.url ? { url: config.url } : {}),
        ...(headers ? { headers } : {}),
      };
      const hasSecret = Object.keys(secret).length > 0;
      if (hasSecret) await sealed().set(key, secret);
      else await sealed().delete(key);
      const record: KeptRecord = {
        // An explicit id may itself be a URL with a secret: hidden like the address (sealed above).
        ...(shownId !== undefined ? { id: shownId } : {}),
        ...(shownUrl !== undefined ? { url: shownUrl } : {}),
        ...(config.frameUrl !== undefined ? { frameUrl: redactUrl(config.frameUrl) } : {}),
        ...(config.channel !== undefined ? { channel: config.channel } : {}),
        ...(config.label !== undefined ? { label: config.label } : {}),
        ...(config.httpTransport && config.httpTransport !== 'auto'
          ? { httpTransport: config.httpTransport }
          : {}),
        ...(hasSecret ? { sealed: true } : {}),
        addedAt: Date.now(),
      };
      await set(key, record, records);
      return true;
    },
    async drop(id) {
      const key = await keyOf(id);
      await del(key, records);
      await sealed()
        .delete(key)
        .catch(() => undefined);
    },
  };
}

/** The record's key: a SHA-256 of the server id, since an id made from a URL carries its secrets. */
async function keyOf(id: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(id));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

function isRecord(value: unknown): value is KeptRecord {
  return typeof value === 'object' && value !== null && typeof (value as KeptRecord).addedAt === 'number';
}

/** The controller's add and remove with keeping: what kept-servers adds to the connections. */
export interface Keeper {
  addServer(config: ServerConfig): Promise<ServerState>;
  removeServer(id: string): Promise<void>;
}

/**
 * Keeping for one controller's connections: lists the kept servers now (after those the host
 * configured, unless it configured the same address), keeps what is added, forgets what is removed.
 */
export function keepServersIn(
  connections: Pick<Connections, 'servers' | 'addServer' | 'removeServer' | 'update'>,
  options: KeepServersOptions,
  isClosed: () => boolean,
): Keeper {
  const store = openKeptServers(options);
  /** Writes under way, by server id: a removal waits for its server's write, then drops it. */
  const writes = new Map<string, Promise<unknown>>();
  /** Servers listed from the kept list and not added again since, with their first connection. */
  const restored = new Map<string, Promise<unknown>>();
  const listed = (id: string) => connections.servers.value.some((server) => server.id === id);
  const idOf = (config: ServerConfig) =>
    connections.servers.value.find((server) => server.config === config)?.id;

  void store
    .list()
    .then((configs) => {
      for (const config of configs) {
        if (
          isClosed() ||
          connections.servers.value.some((server) => !!config.url && server.config.url === config.url)
        )
          continue;
        // addServer lists the server before its first await: its id is known at once, so an add
        // that comes while it connects finds it.
        const adding = connections.addServer(config, { atLoad: true, kept: true }).catch(() => undefined);
        const id = idOf(config);
        if (id) restored.set(id, adding);
      }
    })
    .catch(() => undefined);

  return {
    async addServer(config) {
      // A host that adds its server on every load finds it listed from the kept list already: its
      // own config takes the place of the kept one (the same server: its trust and rules stay).
      const before = connections.servers.value.find(
        (server) =>
          restored.has(server.id) &&
          (server.id === config.id || (!!config.url && server.config.url === config.url)),
      );
      if (before) {
        const opening = restored.get(before.id);
        restored.delete(before.id);
        await opening;
        await connections.removeServer(before.id, { keepDecisions: true });
        await store.drop(before.id).catch(() => undefined);
      }
      const adding = connections.addServer(config);
      const id = idOf(config);
      if (id)
        writes.set(
          id,
          store
            .keep(id, config)
            .then((done) => done && listed(id) && connections.update(id, { kept: true }))
            .catch(() => undefined),
        );
      return adding;
    },
    async removeServer(id) {
      restored.delete(id);
      // Removed is removed: dropped from the kept list first (once a write under way is done), so a
      // reload right after the row disappears does not bring the server back.
      await writes.get(id);
      writes.delete(id);
      await store.drop(id).catch(() => undefined);
      await connections.removeServer(id);
    },
  };
}

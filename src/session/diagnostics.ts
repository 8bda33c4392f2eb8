/**
 * The controller's diagnostics: each connection's log messages and last JSON-RPC messages (recorded
 * from the moment it is made, by server-diagnostics.ts, loaded after the first paint), and a timed
 * round trip (ping). A convenience for the curious: nothing here may fail a connection.
 */

import { type Signal, signal } from '@preact/signals';
import type { McpClient } from '../client/index.js';
import type { ServerLogEntry, ServerState, TrafficEntry } from './types.js';

export interface Diagnostics {
  /** Log messages per server id. */
  readonly serverLog: Signal<Readonly<Record<string, readonly ServerLogEntry[]>>>;
  /** The last TRAFFIC_KEPT JSON-RPC messages per server id. */
  readonly traffic: Signal<Readonly<Record<string, readonly TrafficEntry[]>>>;
  /** Starts recording a new connection of a server (stopping its last one's). */
  watch(serverId: string, client: McpClient): Promise<void>;
  /** Stops recording a server's connection. */
  unwatch(serverId: string): void;
  ping(serverId: string): Promise<number>;
  setLogLevel(serverId: string, level: string): Promise<void>;
  /** Stops every recording. */
  close(): void;
}

export function createDiagnostics(
  /** The recorder, loaded after the first paint. */
  recorder: Promise<typeof import('./server-diagnostics.js')>,
  /** The live connection of a server, or a sentence saying it has none. */
  connected: (serverId: string) => McpClient,
  update: (serverId: string, change: Partial<ServerState>) => void,
): Diagnostics {
  const serverLog = signal<Readonly<Record<string, readonly ServerLogEntry[]>>>({});
  const traffic = signal<Readonly<Record<string, readonly TrafficEntry[]>>>({});
  const stops = new Map<string, () => void>();
  const unwatch = (serverId: string) => {
    stops.get(serverId)?.();
    stops.delete(serverId);
  };
  return {
    serverLog,
    traffic,
    async watch(serverId, client) {
      unwatch(serverId);
      // A chunk that failed to load must not fail the connection.
      const loaded = await recorder.catch(() => undefined);
      if (loaded) stops.set(serverId, loaded.watchServer(client, serverId, { traffic, serverLog }));
    },
    unwatch,
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
    close() {
      for (const stop of stops.values()) stop();
      stops.clear();
    },
  };
}

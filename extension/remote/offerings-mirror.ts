/**
 * The side panel's Resources and Prompts tabs, run by the service worker (worker-offerings.ts):
 * every method is a command; what a server says of its lists and subscribed resources arrives as
 * `offerings` messages, which reach the listeners the tabs registered here.
 */

import type { SessionOfferings } from '../../src/session/index.js';

type Command = <T>(method: string, ...params: unknown[]) => Promise<T>;

interface Listeners {
  updated: Set<(uri: string) => void>;
  listChanged: Set<() => void>;
}

interface OfferingsMirror {
  offerings: SessionOfferings;
  /** An `offerings` message from the worker. */
  receive(message: { serverId: string; change: 'updated' | 'listChanged'; uri?: string }): void;
  /** A new port: the worker watches again the servers the tabs listen to. */
  reconnected(): void;
}

export function offeringsMirror(command: Command): OfferingsMirror {
  const byServer = new Map<string, Listeners>();
  const watch = (serverId: string) => void command('watchOfferings', serverId).catch(() => undefined);
  const listen = <K extends keyof Listeners>(
    serverId: string,
    kind: K,
    listener: Listeners[K] extends Set<infer L> ? L : never,
  ) => {
    let listeners = byServer.get(serverId);
    if (!listeners) {
      listeners = { updated: new Set(), listChanged: new Set() };
      byServer.set(serverId, listeners);
      watch(serverId);
    }
    (listeners[kind] as Set<typeof listener>).add(listener);
    return () => void (listeners[kind] as Set<typeof listener>).delete(listener);
  };
  return {
    offerings: {
      // A page at a time when the tab asks for one (`params`): the worker answers each as it arrives.
      listResources: (serverId, params) => command('listResources', serverId, params),
      listResourceTemplates: (serverId, params) => command('listResourceTemplates', serverId, params),
      listPrompts: (serverId, params) => command('listPrompts', serverId, params),
      readResource: (serverId, uri) => command('readOffering', serverId, uri),
      getPrompt: (serverId, name, args) => command('getPrompt', serverId, name, args),
      complete: async (serverId, params, signal) => {
        const answer = await command<Awaited<ReturnType<SessionOfferings['complete']>>>(
          'complete',
          serverId,
          params,
        );
        // The worker cannot be told of the abort: an answer nobody waits for is dropped here.
        signal?.throwIfAborted();
        return answer;
      },
      subscribe: (serverId, uri) => command('subscribeResource', serverId, uri),
      unsubscribe: (serverId, uri) => command('unsubscribeResource', serverId, uri),
      onUpdated: (serverId, listener) => listen(serverId, 'updated', listener),
      onListChanged: (serverId, listener) => listen(serverId, 'listChanged', listener),
    },
    receive({ serverId, change, uri }) {
      const listeners = byServer.get(serverId);
      if (!listeners) return;
      if (change === 'updated' && uri !== undefined) for (const listener of listeners.updated) listener(uri);
      if (change === 'listChanged') for (const listener of listeners.listChanged) listener();
    },
    reconnected() {
      for (const serverId of byServer.keys()) watch(serverId);
    },
  };
}

/**
 * The worker's side of the side panel's Resources and Prompts tabs: listings, completion and
 * subscriptions from the worker's connections; reads and prompt gets through the worker's gate as
 * the person (allowed, and recorded in the shared audit log, as in the widget). What a server says
 * of its lists and subscribed resources is pushed to the panel for the servers it watches.
 */

import type { CompleteRequestParams } from '../../src/protocol/index.js';
import type { ListingParams, SessionOfferings } from '../../src/session/index.js';
import type { WorkerToPage } from './wire.js';

type Handler = (...params: never[]) => unknown;

/** What the panel may ask of a listing: a cursor (a string) and a page count (a positive integer). */
function listingParams(params: unknown): ListingParams | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const { cursor, maxPages } = params as Record<string, unknown>;
  return {
    ...(typeof cursor === 'string' ? { cursor } : {}),
    ...(Number.isInteger(maxPages) && (maxPages as number) > 0 ? { maxPages: maxPages as number } : {}),
  };
}

export function offeringCommands(
  offerings: SessionOfferings | undefined,
  send: (message: WorkerToPage) => void,
): { commands: Record<string, Handler>; close(): void } {
  const watching = new Map<string, () => void>();
  const reach = () => {
    if (!offerings) throw new Error('This Toolgate worker does not list resources or prompts.');
    return offerings;
  };
  return {
    commands: {
      listResources: (serverId: string, params?: unknown) =>
        reach().listResources(serverId, listingParams(params)),
      listResourceTemplates: (serverId: string, params?: unknown) =>
        reach().listResourceTemplates(serverId, listingParams(params)),
      listPrompts: (serverId: string, params?: unknown) =>
        reach().listPrompts(serverId, listingParams(params)),
      readOffering: (serverId: string, uri: string) => reach().readResource(serverId, String(uri)),
      getPrompt: (serverId: string, name: string, args: Record<string, string>) =>
        reach().getPrompt(serverId, String(name), args ?? {}),
      // The panel drops stale answers itself: a signal cannot cross the port.
      complete: (serverId: string, params: CompleteRequestParams) => reach().complete(serverId, params),
      subscribeResource: (serverId: string, uri: string) => reach().subscribe(serverId, String(uri)),
      unsubscribeResource: (serverId: string, uri: string) => reach().unsubscribe(serverId, String(uri)),
      watchOfferings: (serverId: string) => {
        const source = reach();
        watching.get(serverId)?.();
        const stops = [
          source.onUpdated(serverId, (uri) => send({ type: 'offerings', serverId, change: 'updated', uri })),
          source.onListChanged(serverId, () => send({ type: 'offerings', serverId, change: 'listChanged' })),
        ];
        watching.set(serverId, () => {
          for (const stop of stops) stop();
        });
      },
    },
    close() {
      for (const stop of watching.values()) stop();
      watching.clear();
    },
  };
}

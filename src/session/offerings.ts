/**
 * What a server offers besides tools, for the panel's Resources and Prompts tabs: listings and
 * subscriptions straight from the connection (they move no data the person did not already see),
 * reads and prompt gets through the gate with the person as caller (allowed, and recorded in the
 * audit log), completion through the gate's `complete` (neither asked nor recorded).
 */

import type { AccessResult, Caller, Gate } from '../gate/index.js';
import type {
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
} from '../protocol/index.js';

/** Who reads or gets, when not the person (the host API passes the app or the model), and a signal. */
interface AccessOptions {
  caller?: Caller;
  signal?: AbortSignal;
}

/**
 * Which part of a listing: without parameters every page within the client's bounds; `{ maxPages: 1 }`
 * the first page; `{ cursor }` the one page there. The tabs page themselves, so the first page
 * shows while the rest arrive; `nextCursor` in the answer says where to go on.
 */
export interface ListingParams {
  cursor?: string;
  maxPages?: number;
}

/** One server's offerings, as the Resources and Prompts tabs (and the host API) use them. */
export interface SessionOfferings {
  listResources(serverId: string, params?: ListingParams): Promise<ListResourcesResult>;
  listResourceTemplates(serverId: string, params?: ListingParams): Promise<ListResourceTemplatesResult>;
  listPrompts(serverId: string, params?: ListingParams): Promise<ListPromptsResult>;
  /** Reads through the gate (as the person by default): recorded as `resources/read`. */
  readResource(
    serverId: string,
    uri: string,
    options?: AccessOptions,
  ): Promise<AccessResult<ReadResourceResult>>;
  /** Gets a prompt through the gate (as the person by default): recorded as `prompts/get`. */
  getPrompt(
    serverId: string,
    name: string,
    args: Record<string, string>,
    options?: AccessOptions,
  ): Promise<AccessResult<GetPromptResult>>;
  complete(
    serverId: string,
    params: CompleteRequestParams,
    signal?: AbortSignal,
    caller?: Caller,
  ): Promise<CompleteResult>;
  subscribe(serverId: string, uri: string): Promise<void>;
  unsubscribe(serverId: string, uri: string): Promise<void>;
  /** Told of `notifications/resources/updated` for a subscribed URI; returns the way to stop. */
  onUpdated(serverId: string, listener: (uri: string) => void): () => void;
  /** Told when the server's resource or prompt list changed; returns the way to stop. */
  onListChanged(serverId: string, listener: () => void): () => void;
}

/** The piece of a connection the offerings use (McpClient). */
type Connection = Pick<
  import('../client/index.js').McpClient,
  | 'listResources'
  | 'listResourceTemplates'
  | 'listPrompts'
  | 'subscribeResource'
  | 'unsubscribeResource'
  | 'on'
>;

export function createOfferings(options: {
  gate: Promise<Gate>;
  connected: (serverId: string) => Connection;
  person: Caller;
}): SessionOfferings {
  const { gate, connected, person } = options;
  return {
    listResources: (serverId, params) => connected(serverId).listResources(params),
    listResourceTemplates: (serverId, params) => connected(serverId).listResourceTemplates(params),
    listPrompts: (serverId, params) => connected(serverId).listPrompts(params),
    async readResource(serverId, uri, { caller = person, signal } = {}) {
      return (await gate).read({ serverId, uri, caller, ...(signal ? { signal } : {}) });
    },
    async getPrompt(serverId, name, args, { caller = person, signal } = {}) {
      return (await gate).getPrompt({
        serverId,
        name,
        arguments: args,
        caller,
        ...(signal ? { signal } : {}),
      });
    },
    async complete(serverId, params, signal, caller = person) {
      return (await gate).complete({ serverId, caller, params, ...(signal ? { signal } : {}) });
    },
    async subscribe(serverId, uri) {
      await connected(serverId).subscribeResource({ uri });
    },
    async unsubscribe(serverId, uri) {
      await connected(serverId).unsubscribeResource({ uri });
    },
    onUpdated(serverId, listener) {
      return connected(serverId).on('resourceUpdated', ({ uri }) => listener(uri));
    },
    onListChanged(serverId, listener) {
      const client = connected(serverId);
      const stops = [client.on('resourceListChanged', listener), client.on('promptListChanged', listener)];
      return () => {
        for (const stop of stops) stop();
      };
    },
  };
}

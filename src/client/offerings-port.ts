/**
 * What the lazily loaded offerings module (offerings.ts: resources, prompts, completion,
 * subscriptions) uses of one connection, made on first use (offerings.ts portOf), so none of that
 * code, not even the notification handlers, is on the eager path of connect, list and call.
 */

import type { Era, JsonObject, RequestOptions, RpcEngine, ServerCapabilities } from '../protocol/index.js';
import type { ClientWarning } from './options.js';

/** The events McpClient surfaces for resources and prompts. */
export interface OfferingEvents {
  /** `notifications/resources/list_changed`: list resources and templates again. */
  resourceListChanged: () => void;
  /** `notifications/prompts/list_changed`: list prompts again. */
  promptListChanged: () => void;
  /** `notifications/resources/updated`: a subscribed resource changed; read it again. */
  resourceUpdated: (update: { uri: string }) => void;
}
export type OfferingEvent = keyof OfferingEvents;

export interface OfferingsPort {
  readonly serverId: string;
  era(): Era;
  capabilities(): ServerCapabilities;
  isClosed(): boolean;
  /** A request in the connection's era (modern `_meta`, legacy session renewal). */
  request(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject>;
  /** A request that may answer `input_required` (resources/read, prompts/get): rounds are answered. */
  requestWithInput(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject>;
  warn(warning: ClientWarning): void;
  engine: RpcEngine;
  /** Listeners per event; the connection's notification handlers call them. */
  readonly listeners: { [E in OfferingEvent]: Set<OfferingEvents[E]> };
  /** Whether the notification handlers are installed (on the first listener). */
  handlers: boolean;
  /** URIs subscribed to (legacy: each sent resources/subscribe; modern: carried by subscriptions/listen). */
  readonly subscribed: Set<string>;
  /** The open modern subscriptions/listen stream for offerings, if any (offerings.ts manages it). */
  stream?: { filter: string; controller: AbortController } | undefined;
}

/**
 * What apps tell the host app, as events: a message for the conversation (`ui/message`), a new model
 * context (`ui/update-model-context`), a log line, and an app shown, ready or closed. Toolgate shows
 * apps; what to do with their messages is the embedding app's business (its model loop).
 */

import type { JsonObject } from '../protocol/jsonrpc.js';

/** Which app: the server (connection id) and the UI resource. */
export interface AppIdentity {
  serverId: string;
  resourceUri: string;
}

export type McpAppEvent =
  | { type: 'shown'; app: AppIdentity; csp: string }
  /**
   * The app's first size report (its first paint): ms since it opened (its call was sent), and since
   * that call's result reached the panel (NaN when the app painted before the result arrived).
   */
  | { type: 'ready'; app: AppIdentity; msSinceResult: number; msSinceOpened: number }
  | { type: 'message'; app: AppIdentity; message: JsonObject }
  | { type: 'model-context'; app: AppIdentity; context: JsonObject }
  | { type: 'log'; app: AppIdentity; level: string; data: unknown }
  | { type: 'refused'; app: AppIdentity; method: string; reason: string }
  | { type: 'closed'; app: AppIdentity; reason: string };

const listeners = new Set<(event: McpAppEvent) => void>();

/** Calls `listener` for every app event on this page; returns the unsubscribe function. */
export function onMcpAppEvent(listener: (event: McpAppEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** How many listeners take `message` events (an app's message goes nowhere without one). */
export function appEventListenerCount(): number {
  return listeners.size;
}

/** Tells every listener; a throwing listener never breaks the app. */
export function emitAppEvent(event: McpAppEvent): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch {
      // The host's listener failed; the app is not to blame.
    }
  }
}

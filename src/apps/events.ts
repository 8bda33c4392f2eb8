/**
 * What apps tell the host app, as events: a message for the conversation (`ui/message`), a new model
 * context (`ui/update-model-context`), a log line, and an app shown, ready or closed. Toolgate shows
 * apps; what to do with their messages is the embedding app's business (its model loop).
 *
 * A message and a model context are the app's words, not the person's: they carry the app's
 * `caller`, and the tool calls a model makes in answer to them should be run as that caller
 * (`host.run(call, { caller: event.caller })`), so the gate asks about them as the app's calls
 * (no trusted read-only default, none of the host's or the person's remembered approvals).
 */

import type { Caller } from '../gate/types.js';
import type { JsonObject } from '../protocol/jsonrpc.js';

/** Which app: the server (connection id) and the UI resource. */
export interface AppIdentity {
  serverId: string;
  resourceUri: string;
}

/** The gate's caller for an app: one identity per UI resource of one server. */
export function appCaller(app: AppIdentity): Caller {
  return { kind: 'mcp-app', label: app.resourceUri, server: app.serverId };
}

export type McpAppEvent =
  | { type: 'shown'; app: AppIdentity; csp: string }
  /**
   * The app's first size report (its first paint): ms since it opened (its call was sent), and since
   * that call's result reached the panel (NaN when the app painted before the result arrived).
   */
  | { type: 'ready'; app: AppIdentity; msSinceResult: number; msSinceOpened: number }
  /** `caller`: run the model's calls that answer this message as the app (see above). */
  | { type: 'message'; app: AppIdentity; caller: Caller; message: JsonObject }
  | { type: 'model-context'; app: AppIdentity; caller: Caller; context: JsonObject }
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

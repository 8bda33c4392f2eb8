/**
 * The controller's MCP App host service: how apps are hosted (the sandbox proxy, their height) and
 * what apps tell the host app, as events. One per controller, so two panels on one page can host
 * apps differently and a host hears only its own panel's apps.
 *
 * The app events: a message for the conversation (`ui/message`), a new model context
 * (`ui/update-model-context`), a log line, and an app shown, ready or closed. Toolgate shows apps;
 * what to do with their messages is the embedding app's business (its model loop). A message and a
 * model context are the app's words, not the person's: they carry the app's `caller`, and the tool
 * calls a model makes in answer to them should be run as that caller
 * (`host.run(call, { caller: event.caller })`), so the gate asks about them as the app's calls.
 *
 * The types live here, below the apps room, because the controller (this room) owns the service
 * and the apps room (above) uses it: types two rooms share live in the lower one.
 */

import type { Caller } from '../gate/index.js';
import type { JsonObject } from '../protocol/index.js';
import { checkAppsOptions, type McpAppsOptions } from './app-host-options.js';
import { pageAppDefaults } from './app-host-page.js';

export type { McpAppsOptions };

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
  /** `caller`: run the model's calls that answer this message as the app (see above). */
  | { type: 'message'; app: AppIdentity; caller: Caller; message: JsonObject }
  | { type: 'model-context'; app: AppIdentity; caller: Caller; context: JsonObject }
  | { type: 'log'; app: AppIdentity; level: string; data: unknown }
  | { type: 'refused'; app: AppIdentity; method: string; reason: string }
  | { type: 'closed'; app: AppIdentity; reason: string };

/** A controller's app host: its settings and its app events. */
export interface AppHost {
  /** The settings in force: this controller's, over the page's (deprecated `configureMcpApps`). */
  options(): Readonly<McpAppsOptions>;
  /** Changes how apps are hosted (apps shown from now on); throws on a sandbox URL that is not one. */
  configure(options: McpAppsOptions): void;
  /** Calls `listener` for every event of this controller's apps; returns the unsubscribe function. */
  onEvent(listener: (event: McpAppEvent) => void): () => void;
  /** Tells every listener; a throwing listener never breaks the app. */
  emit(event: McpAppEvent): void;
  /** How many listeners take events (an app's message goes nowhere without one). */
  listenerCount(): number;
}

/** The gate's caller for an app: one identity per UI resource of one server. */
export function appCaller(app: AppIdentity): Caller {
  return { kind: 'mcp-app', label: app.resourceUri, server: app.serverId };
}

export function createAppHost(initial: McpAppsOptions = {}): AppHost {
  let own = checkAppsOptions(initial);
  const listeners = new Set<(event: McpAppEvent) => void>();
  const page = pageAppDefaults();
  return {
    options: () => ({ ...page.options(), ...own }),
    configure(options) {
      own = checkAppsOptions(options);
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(event) {
      for (const listener of [...listeners, ...page.listeners()]) {
        try {
          listener(event);
        } catch {
          // The host's listener failed; the app is not to blame.
        }
      }
    },
    listenerCount: () => listeners.size + page.listeners().length,
  };
}

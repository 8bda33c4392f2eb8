/**
 * Deprecated: the page-wide app settings and listeners of Toolgate before apps became the
 * controller's service (`createController({ apps })`, `controller.apps.onEvent`). Kept so hosts that
 * call `configureMcpApps` / `onMcpAppEvent` before any panel exists (a `<toolgate-panel>` in the
 * HTML makes its controller itself) keep working: every controller's app host reads these as its
 * defaults and tells these listeners too. Nothing inside Toolgate writes here.
 */

import type { McpAppEvent } from './app-host.js';
import { checkAppsOptions, type McpAppsOptions } from './app-host-options.js';

let pageOptions: McpAppsOptions = {};
const pageListeners = new Set<(event: McpAppEvent) => void>();

/**
 * Sets how MCP Apps are hosted by every controller on this page that does not say otherwise.
 * @deprecated Pass `apps` to createController / mount / createToolgateHost, or call
 * `controller.apps.configure()`.
 */
export function configureMcpApps(options: McpAppsOptions): void {
  pageOptions = checkAppsOptions(options);
}

/**
 * Calls `listener` for every app event of every controller on this page; returns the unsubscribe function.
 * @deprecated Use `controller.apps.onEvent(listener)` (the panel's `controller`, or the host's).
 */
export function onMcpAppEvent(listener: (event: McpAppEvent) => void): () => void {
  pageListeners.add(listener);
  return () => pageListeners.delete(listener);
}

/** What a controller's app host reads: the page's defaults and listeners, as they are now. */
export function pageAppDefaults() {
  return {
    options: (): Readonly<McpAppsOptions> => pageOptions,
    listeners: (): readonly ((event: McpAppEvent) => void)[] => [...pageListeners],
  };
}

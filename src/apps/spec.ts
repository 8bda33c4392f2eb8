/**
 * The MCP Apps extension (SEP-1865, stable 2026-01-26) as Toolgate speaks it: the method names of
 * the View <-> Host dialect and the shapes of `_meta.ui` (its identifier and resource MIME type live
 * with the other extension ids in protocol/extensions.ts). Names only; behaviour lives beside this.
 */

/** The View <-> Host protocol version Toolgate speaks. */
export const UI_PROTOCOL_VERSION = '2026-01-26';
/** UI resources use this scheme and no other. */
export const UI_SCHEME = 'ui:';

/** Method names of the View <-> Host dialect. */
export const UiMethod = {
  initialize: 'ui/initialize',
  initialized: 'ui/notifications/initialized',
  openLink: 'ui/open-link',
  message: 'ui/message',
  requestDisplayMode: 'ui/request-display-mode',
  updateModelContext: 'ui/update-model-context',
  toolInput: 'ui/notifications/tool-input',
  toolInputPartial: 'ui/notifications/tool-input-partial',
  toolResult: 'ui/notifications/tool-result',
  toolCancelled: 'ui/notifications/tool-cancelled',
  resourceTeardown: 'ui/resource-teardown',
  /** Not in 2026-01-26 but sent by the SDK's App (draft): the View asks to be closed. */
  requestTeardown: 'ui/notifications/request-teardown',
  sizeChanged: 'ui/notifications/size-changed',
  hostContextChanged: 'ui/notifications/host-context-changed',
  sandboxProxyReady: 'ui/notifications/sandbox-proxy-ready',
  sandboxResourceReady: 'ui/notifications/sandbox-resource-ready',
} as const;

/** `_meta.ui.csp` of a UI resource: the origins the View may reach, per kind. */
export interface UiResourceCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** Browser features a View may ask for (`_meta.ui.permissions`), as Permission Policy names them. */
export type AppPermission = 'camera' | 'microphone' | 'geolocation' | 'clipboard-write';

/** Where a tool may be seen from: by the model, by the app of the same server, or both (the default). */
export type ToolVisibility = 'model' | 'app';

/** One View's display modes; Toolgate shows Views inline or full screen (over the page), never pip. */
export type DisplayMode = 'inline' | 'fullscreen' | 'pip';

export const DISPLAY_MODES: readonly DisplayMode[] = ['inline', 'fullscreen', 'pip'];

/** The widget entry: the custom element, mount(), and the controller for hosts that drive it. */

export { defineToolgatePanel, ToolgatePanelElement } from './embed/element.js';
export { type Mounted, type MountOptions, mount } from './embed/mount.js';
export type { AppHost, AppIdentity, McpAppEvent, McpAppsOptions } from './session/app-host.js';
// Deprecated page-wide forms of `apps` / `controller.apps` (session/app-host-page.ts).
export { configureMcpApps, onMcpAppEvent } from './session/app-host-page.js';
export {
  type CallRequest,
  type Controller,
  type ControllerOptions,
  createController,
  type ServerConfig,
  type ServerState,
} from './session/controller.js';
export { configureDialogArming, type DialogArmingOptions } from './session/dialog-arming.js';

/** The widget entry: the custom element, mount(), and the controller for hosts that drive it. */

export { configureMcpApps, type McpAppsOptions } from './apps/config.js';
export { type AppIdentity, type McpAppEvent, onMcpAppEvent } from './apps/events.js';
export { defineToolgatePanel, ToolgatePanelElement } from './embed/element.js';
export { type Mounted, type MountOptions, mount } from './embed/mount.js';
export {
  type Controller,
  type ControllerOptions,
  createController,
  type ServerConfig,
  type ServerState,
} from './session/controller.js';
export { configureDialogArming, type DialogArmingOptions } from './session/dialog-arming.js';

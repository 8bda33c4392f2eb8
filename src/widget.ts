/** The widget entry: the custom element, mount(), and the controller for hosts that drive it. */

export {
  defineToolgatePanel,
  type Mounted,
  type MountOptions,
  mount,
  ToolgatePanelElement,
} from './embed/index.js';
// configureMcpApps and onMcpAppEvent are the deprecated page-wide forms of `apps` / `controller.apps`.
export {
  type AppHost,
  type AppIdentity,
  type CallRequest,
  type Controller,
  type ControllerOptions,
  configureDialogArming,
  configureMcpApps,
  createController,
  type DialogArmingOptions,
  type KeepServersOptions,
  type McpAppEvent,
  type McpAppsOptions,
  onMcpAppEvent,
  type ServerConfig,
  type ServerState,
} from './session/index.js';

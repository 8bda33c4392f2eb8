/** The session room's front door: the controller and its services (see DESIGN.md, "Vocabulary"). */

export { afterFirstPaint } from './after-first-paint.js';
export {
  type AppHost,
  type AppIdentity,
  appCaller,
  createAppHost,
  type McpAppEvent,
  type McpAppsOptions,
} from './app-host.js';
export { configureMcpApps, onMcpAppEvent } from './app-host-page.js';
export { startAuditExport } from './audit-export.js';
export { probeReachable } from './connect-errors.js';
export {
  type CallRequest,
  type Controller,
  type ControllerOptions,
  createController,
  type FinishedCall,
  type PanelController,
  type PendingAccess,
  type PendingApproval,
  type PendingElicitation,
  type PendingSignIn,
  type ProgressPoint,
  type RunningCall,
  type ServerConfig,
  type ServerLogEntry,
  type ServerState,
  type TrafficEntry,
} from './controller.js';
export { armDialog } from './dialog-arming.js';
export { configureDialogArming, type DialogArmingOptions } from './dialog-arming-settings.js';
export { type ExposedTool, type ExposeToAgentOptions, exposeToAgent } from './expose-to-agent.js';
export type { KeepServersOptions } from './kept-servers.js';
export type { ListingParams, SessionOfferings } from './offerings.js';
export { type PageTool, type RegisterPageToolsOptions, registerPageTools } from './register-page-tools.js';
export { coveredCallers, grantEndWords, grantReachWords, type RememberedItem } from './remembered.js';
export { parseReplayFile, type ReplayCall, replayFileOf } from './replay-file.js';
export { rerunDraft } from './rerun-draft.js';
export { type SavedCall, savedCalls } from './saved-calls.js';
export { LOG_KEPT, LOG_LEVELS, summarize, TRAFFIC_KEPT } from './server-diagnostics.js';
export { type ServerNames, serverAddress, serverIdsNamed, serverNames } from './server-names.js';
export type { ControllerServices } from './services.js';
export { recordSignIns, type SignInAction, type SignInAuditOptions } from './sign-in-audit.js';

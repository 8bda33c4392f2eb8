/** The apps room's front door: the MCP Apps host (resources, sandboxed frames, app calls). */

export { appCaller, callToolForApp, refuseUnlessCallableByApp } from './app-calls.js';
export { AppSession } from './app-session.js';
export { recordAppShown } from './audit.js';
export { buildCsp } from './csp.js';
export { type HostContext, hostContextFor, onThemeChange } from './host-context.js';
export { type AppCallState, type AppsLease, type OpenApp, type OpenApps, openAppsOf } from './open-apps.js';
export { loadUiResource, type UiResource } from './resource.js';
export { createSandboxFrame, VIEW_SANDBOX } from './sandbox-frame.js';
export type { AppPermission } from './spec.js';
export { isOfferedToModel, isUiResourceUri, uiResourceUriOf } from './tool-ui.js';
export { appDocument } from './view-prelude.js';

/** The client room's front door: connect(), McpClient and the tool catalog. */

export { type CatalogEntry, type CatalogSnapshot, qualifyToolName, ToolCatalog } from './catalog.js';
export { MAX_INPUT_ROUNDS, McpClient, normalizeCallToolResult, type TaskHandle } from './client.js';
export { clearEraCache, connect, signInOf } from './connect.js';
export type { DoctorReport, DoctorStep, Exchange as DoctorExchange } from './doctor/report.js';
export { DEFAULT_MAX_ITEMS, DEFAULT_MAX_PAGES } from './listing-bounds.js';
export type { ListParams } from './offerings.js';
export type { OfferingEvent, OfferingEvents } from './offerings-port.js';
export type {
  CallToolOptions,
  ClientWarning,
  ConnectOptions,
  ElicitationHandler,
  SignInOptions,
  TaskObserver,
  TaskPolling,
} from './options.js';
export { serverIdForUrl, serverLabelForUrl } from './server-id.js';
export { toolNameProblem } from './tool-problems.js';

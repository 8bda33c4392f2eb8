/** The host-app API and the model-format adapters. */

export type { OtlpExport, OtlpExportOptions, OtlpExportStatus } from '../audit/otlp/exporter.js';
export type { TraceContext } from '../gate/trace-context.js';
export type { AppHost, AppIdentity, McpAppEvent, McpAppsOptions } from '../session/app-host.js';
// Deprecated page-wide forms of `apps` / `host.controller.apps` (session/app-host-page.ts).
export { configureMcpApps, onMcpAppEvent } from '../session/app-host-page.js';
export * from './adapters/index.js';
export {
  createToolgateHost,
  type HostEvent,
  type HostRunOptions,
  type HostToolCall,
  type ToolgateHost,
  type ToolgateHostOptions,
} from './host.js';
export type { HostSkillLoad, HostSkills, OfferedSkill } from './skills.js';

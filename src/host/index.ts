/** The host-app API and the model-format adapters. */

export { configureMcpApps, type McpAppsOptions } from '../apps/config.js';
export { type AppIdentity, type McpAppEvent, onMcpAppEvent } from '../apps/events.js';
export type { OtlpExport, OtlpExportOptions, OtlpExportStatus } from '../audit/otlp/exporter.js';
export type { TraceContext } from '../gate/trace-context.js';
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

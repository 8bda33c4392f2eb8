/** The schema room: the validator facade the gate uses (see validator.ts for how engines are chosen). */

export type { AjvInstance, AjvValidateFunction } from './ajv-engine.js';
export { type Dialect, dialectOf } from './dialect.js';
export { evalAllowed, evalVerdict } from './eval-probe.js';
export { DEFAULT_SCHEMA_LIMITS, type SchemaLimits } from './limits.js';
export { resolveLocalRef } from './local-ref.js';
export { checkToolOutput } from './output.js';
export { catastrophicShape } from './regex-risk.js';
export type { SchemaIssue, ValidationReport, ValidatorEngine } from './report.js';
export {
  createSchemaValidator,
  type EngineChoice,
  type PreparedSchema,
  type SchemaValidator,
  type SchemaValidatorOptions,
  type SchemaValidatorStats,
  sharedSchemaValidator,
} from './validator.js';

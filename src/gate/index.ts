/** The gate room's front door: the pipeline every tool call takes, its policy, pins and audit records. */

export type { AccessResult } from './access-steps.js';
export {
  type ActionEnd,
  type ActionRecord,
  beginAction,
  recordAction,
  refuseAction,
} from './action-record.js';
export { denyAllApprover, programmaticApprover } from './approvers.js';
export { describeCaller } from './caller.js';
export { codeName } from './code-names.js';
export { describeChange, diffDefinitions } from './definition-diff.js';
export { AuditUnavailableError, DeniedError, InvalidArgumentsError, UnknownToolError } from './errors.js';
export { forgetCallerGrants, forgetServer } from './forget.js';
export { claimsHarmless } from './grant-reach.js';
export { MemoryAuditSink } from './memory-audit.js';
export { errorForModel, type ModelToolResult, resultForModel } from './model-result.js';
export type { ConfirmOwnCalls } from './own-call.js';
export { createToolPins, definitionOf, hashDefinition, sha256HexSync } from './pins.js';
export {
  createGate,
  DEFAULT_CALL_TIMEOUT_MS,
  type Gate,
  type GateEvent,
  type GateOptions,
  type GateResult,
} from './pipeline.js';
export { detectPoisoning, revealInvisible } from './poisoning.js';
export { createPolicy, type PolicyOptions } from './policy.js';
export type {
  ArgumentCondition,
  Grant,
  GrantReach,
  GrantReachChoice,
  JsonValue,
  Policy,
  PolicyChange,
  PolicyRule,
  RuleCaller,
  RuleInput,
  RuleIssue,
  TrustRecord,
} from './policy-types.js';
export { type PastCall, tryRule } from './rule-trial.js';
export { checkRule, describeRule, RuleValidationError } from './rules.js';
export { idbSettingsStore, memorySettingsStore, newRecordId, type SettingsStore } from './settings-store.js';
export { idbTaskHandles, memoryTaskHandles } from './task-handles.js';
export type { TraceContext, TraceRequest } from './trace-context.js';
export { TRUST_EXPLANATION, TRUSTED_EXPLANATION } from './trust.js';
export type {
  AccessApprovalRequest,
  AccessRequest,
  AccessTarget,
  ApprovalAnswer,
  ApprovalRequest,
  Approver,
  AuditSink,
  CallBatch,
  Caller,
  Decision,
  DecisionReasonCode,
  DecisionSource,
  DefinitionChange,
  DefinitionDiffLine,
  FinalRecord,
  InvocationOutcome,
  InvocationRequest,
  PendingRecord,
  PinnedTool,
  PoisoningFlag,
  RecordedTrace,
  RefusalRecord,
  RememberScope,
  ResendRecord,
  SchemaIssue,
  TaskHandleRecord,
  TaskHandleStore,
  TaskRecord,
  TrustLevel,
  ValidationReasonCode,
  ValidationReport,
  ValidatorEngine,
  Verdict,
} from './types.js';

/** Toolgate's library entry: the headless MCP client (no UI). */

export {
  type AnchoredHead,
  type AnchorKey,
  type AnchorReport,
  checkAnchoredHead,
  describeAnchorReport,
  isAnchoredHead,
} from './audit/anchor.js';
export type { AnchoringOptions } from './audit/anchor-cadence.js';
export type { LogVerification, VerifyOptions } from './audit/anchor-verify.js';
export { type ChainAnchor, type ChainEvent, GENESIS, type Verification, verifyChain } from './audit/chain.js';
export type { AuditEntry, EntryOutcome } from './audit/entry.js';
export { AuditContentionError, AuditStorageFullError, AuditWriteError } from './audit/errors.js';
export { type ExportFormat, parseExport } from './audit/export-format.js';
export { AuditImportError, type ImportedAudit, readAuditExport } from './audit/import.js';
export {
  ALL_OUTCOMES,
  type AuditChange,
  type AuditLog,
  type AuditLogOptions,
  createAuditLog,
  type ExportProgress,
} from './audit/log.js';
export type { AuditPage, AuditQuery } from './audit/query.js';
export type { PruneReport, RetentionPolicy } from './audit/retention.js';
// Signing in (MCP authorization): connect({ auth }) and its handle; the rest is 'toolgate/auth'.
export type { ServerSignIn, SignInOptions } from './auth/connect-auth.js';
export { AuthorizationError, type AuthorizationStep } from './auth/errors.js';
export type { AuthEvent } from './auth/session.js';
export { type CatalogEntry, type CatalogSnapshot, qualifyToolName, ToolCatalog } from './client/catalog.js';
export { MAX_INPUT_ROUNDS, McpClient, normalizeCallToolResult } from './client/client.js';
export { clearEraCache, connect, signInOf } from './client/connect.js';
export type { CallToolOptions, ClientWarning, ConnectOptions, ElicitationHandler } from './client/options.js';
export { toolNameProblem } from './client/tool-checks.js';
export { denyAllApprover, programmaticApprover } from './gate/approvers.js';
export { describeChange, diffDefinitions } from './gate/definition-diff.js';
export {
  AuditUnavailableError,
  DeniedError,
  InvalidArgumentsError,
  UnknownToolError,
} from './gate/errors.js';
export { MemoryAuditSink } from './gate/memory-audit.js';
export { errorForModel, type ModelToolResult, resultForModel } from './gate/model-result.js';
export { createToolPins, definitionOf, hashDefinition } from './gate/pins.js';
// The gate: the one pipeline every tool call takes, and its parts.
export {
  createGate,
  DEFAULT_CALL_TIMEOUT_MS,
  type Gate,
  type GateEvent,
  type GateOptions,
  type GateResult,
} from './gate/pipeline.js';
export { detectPoisoning, revealInvisible } from './gate/poisoning.js';
export { createPolicy, type Policy, type PolicyOptions } from './gate/policy.js';
export type {
  ArgumentCondition,
  Grant,
  PolicyChange,
  PolicyRule,
  RuleInput,
  TrustRecord,
} from './gate/policy-types.js';
export { RuleValidationError } from './gate/rules.js';
export { idbSettingsStore, memorySettingsStore, type SettingsStore } from './gate/settings-store.js';
export { TRUST_EXPLANATION, TRUSTED_EXPLANATION } from './gate/trust.js';
export type * from './gate/types.js';
export { DEFAULT_TIMEOUT_MS, type RequestOptions, RpcEngine } from './protocol/engine.js';
export * from './protocol/errors.js';
export type { JsonObject, JsonRpcMessage, RequestId } from './protocol/jsonrpc.js';
export {
  isSecretName,
  REDACTED,
  type Redacted,
  redactSecrets,
  redactSecretsInText,
} from './protocol/redaction.js';
export * from './protocol/types.js';
export * from './protocol/versions.js';
export { checkToolOutput, createSchemaValidator } from './schema/index.js';
export { recordSignIns, type SignInAction, type SignInAuditOptions } from './session/sign-in-audit.js';
export { ChromePortTransport } from './transport/chrome-port.js';
export { HttpSseTransport } from './transport/http-sse.js';
export { type ConnectionLimits, DEFAULT_LIMITS, ResponseTooLargeError } from './transport/limits.js';
export { MessagePortTransport } from './transport/message-port.js';
export { PostMessageClientTransport } from './transport/post-message.js';
export { acceptPostMessageClients, PostMessageServer } from './transport/post-message-server.js';
export { StreamableHttpTransport } from './transport/streamable-http.js';
export type { SendOptions, Transport } from './transport/transport.js';

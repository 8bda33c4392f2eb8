/** The protocol room's front door: JSON-RPC envelopes, MCP types per revision, errors, the request engine. */

export { untilAborted } from './abort.js';
export { canonicalJson, quickHash, sha256Hex } from './canonical-json.js';
export { DEFAULT_TIMEOUT_MS, type RequestOptions, type ResendReason, RpcEngine } from './engine.js';
export {
  CapabilityMissingError,
  ConnectionClosedError,
  describeDuration,
  ErrorCode,
  GuardError,
  InvalidResponseError,
  McpError,
  MODERN_ERROR_CODES,
  nameSubject,
  RequestCancelledError,
  type RequestSubject,
  RequestTimeoutError,
  ResponseLostError,
  refusalContext,
  ToolgateError,
  TransportError,
  type TransportFailureCause,
  UnsupportedServerError,
} from './errors.js';
export {
  SKILLS_EXTENSION_ID,
  TASKS_EXTENSION_ID,
  UI_EXTENSION_ID,
  UI_MIME_TYPE,
} from './extensions.js';
export {
  describeJsonType,
  isJsonObject,
  isRequest,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
} from './jsonrpc.js';
export type {
  BlobResourceContents,
  CompleteRequestParams,
  CompleteResult,
  CompletionReference,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ParseNote,
  Prompt,
  PromptArgument,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceTemplate,
  TextResourceContents,
} from './offerings.js';
export {
  base64Bytes,
  contentsBytes,
  isBase64,
  isMimeType,
  keep,
  MAX_COMPLETION_VALUES,
  type Parsed,
  pageItems,
  parseCompleteResult,
  parseCursor,
  parseGetPromptResult,
  parsePrompt,
  parseReadResult,
  parseResource,
  parseResourceTemplate,
} from './offerings-parse.js';
export { forwardPersonWait, reportPersonWait } from './person-wait.js';
export {
  isSecretName,
  REDACTED,
  type Redacted,
  redactSecrets,
  redactSecretsInStrings,
  redactSecretsInText,
} from './redaction.js';
export {
  isTerminal,
  parseCreateTaskResult,
  parseTask,
  pollDelay,
  relatedTaskOf,
  TaskEndedError,
  type TaskParse,
  type TaskSnapshot,
  type TaskStatus,
  taskErrorOf,
} from './tasks-parse.js';
export type { ConnectionLimits, SendOptions, Transport } from './transport.js';
export type {
  AudioContent,
  CallToolResult,
  ClientCapabilities,
  ContentAnnotations,
  ContentBlock,
  ElicitRequestParams,
  ElicitResult,
  EmbeddedResource,
  Icon,
  ImageContent,
  Implementation,
  InputRequest,
  ListToolsResult,
  Progress,
  ResourceLink,
  ServerCapabilities,
  TextContent,
  Tool,
  ToolAnnotations,
} from './types.js';
export { redactUrl, redactUrlsInText, secretsInUrl } from './url-secrets.js';
export { loadUrlSecrets, mayCarryUrlSecrets, redactUrlWhenNeeded } from './url-secrets-loader.js';
export {
  type Era,
  isLegacyVersion,
  isModernVersion,
  LATEST_LEGACY,
  LATEST_MODERN,
  LEGACY_VERSIONS,
  type LegacyVersion,
  META,
  MODERN_VERSIONS,
  type ModernVersion,
  type ProtocolVersion,
  pickVersion,
} from './versions.js';

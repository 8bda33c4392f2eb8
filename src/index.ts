/** Toolgate's library entry: the headless MCP client (no UI). */

export { type CatalogEntry, type CatalogSnapshot, qualifyToolName, ToolCatalog } from './client/catalog.js';
export { MAX_INPUT_ROUNDS, McpClient, normalizeCallToolResult } from './client/client.js';
export { clearEraCache, connect } from './client/connect.js';
export type { CallToolOptions, ClientWarning, ConnectOptions, ElicitationHandler } from './client/options.js';
export { toolNameProblem } from './client/tool-checks.js';
export { DEFAULT_TIMEOUT_MS, type RequestOptions, RpcEngine } from './protocol/engine.js';
export * from './protocol/errors.js';
export type { JsonObject, JsonRpcMessage, RequestId } from './protocol/jsonrpc.js';
export * from './protocol/types.js';
export * from './protocol/versions.js';
export { ChromePortTransport } from './transport/chrome-port.js';
export { HttpSseTransport } from './transport/http-sse.js';
export { MessagePortTransport } from './transport/message-port.js';
export { PostMessageClientTransport } from './transport/post-message.js';
export { acceptPostMessageClients, PostMessageServer } from './transport/post-message-server.js';
export { StreamableHttpTransport } from './transport/streamable-http.js';
export type { SendOptions, Transport } from './transport/transport.js';

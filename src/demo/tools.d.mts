/** Registers the demo tools on an SDK 1.x McpServer (see tools.mjs). */
export function registerDemoTools(server: import('@modelcontextprotocol/sdk/server/mcp.js').McpServer): void;

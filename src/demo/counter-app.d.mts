/** The counter app's UI resource URI. */
export const COUNTER_APP_URI: string;
/** Registers the counter app (its tool and its `ui://` resource) on an SDK 1.x McpServer (see counter-app.mjs). */
export function registerDemoApp(server: import('@modelcontextprotocol/sdk/server/mcp.js').McpServer): void;

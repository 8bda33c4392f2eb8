/** The URI of the demo's release-plan resource (see offerings.mjs). */
export const RELEASE_NOTES_URI: string;
/** Registers the demo prompt and resource on an SDK 1.x McpServer (see offerings.mjs). */
export function registerDemoOfferings(
  server: import('@modelcontextprotocol/sdk/server/mcp.js').McpServer,
): void;

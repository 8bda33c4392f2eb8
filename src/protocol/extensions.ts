/**
 * The MCP extensions Toolgate speaks, by the identifiers servers and clients declare under
 * `capabilities.extensions`. One place: the client declares them (client/connect.ts), the rooms that
 * implement them (apps/, skills/) check for them, and none spells an id itself.
 */

/** MCP Apps (SEP-1865, stable 2026-01-26): servers' HTML views, which the panel renders. */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The only content type of an MCP App resource the stable specification defines. */
export const UI_MIME_TYPE = 'text/html;profile=mcp-app';

/** Skills (SEP-2640): instructions and files a server publishes, read only after approval. */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

/**
 * Tasks (2026-07-28 extension; in the 2025-11-25 core): a tools/call may be answered with a task
 * handle that the client polls (tasks/get), answers (tasks/update) and cancels (tasks/cancel).
 */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

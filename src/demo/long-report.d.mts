import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { ServerOptions } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** A task store whose tasks any session of the endpoint finds (see long-report.mjs). */
export class SharedTaskStore extends InMemoryTaskStore {}
/** Server options giving an McpServer core tasks on tools/call over `taskStore`. */
export function taskServerOptions(taskStore: InMemoryTaskStore): ServerOptions;
/** Registers the demo's `long_report` task tool. */
export function registerLongReport(server: McpServer, taskStore: InMemoryTaskStore): void;

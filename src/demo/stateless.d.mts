import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function answerStateless(
  server: McpServer,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  options?: { json?: boolean },
): Promise<void>;

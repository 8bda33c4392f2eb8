#!/usr/bin/env node
/**
 * A legacy-era server built the way the doctor's Hono snippet assumes: the official SDK's
 * WebStandardStreamableHTTPServerTransport (stateful) on Hono and @hono/node-server, with
 * `hono/cors` configured by exactly the options given on the command line (the doctor's snippet).
 *
 *   --port N               0 = any free port
 *   --cors-options JSON    the object passed to cors(); without it, no CORS at all
 */

import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { z } from 'zod';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, 'cors-options': { type: 'string' } },
  strict: true,
});

const app = new Hono();
if (values['cors-options']) app.use('*', cors(JSON.parse(values['cors-options'])));

/** sessionId -> transport */
const transports = new Map();

app.all('/mcp', async (c) => {
  const id = c.req.header('mcp-session-id');
  let transport = id ? transports.get(id) : undefined;
  if (!transport) {
    if (id)
      return c.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Unknown session' }, id: null }, 404);
    transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sessionId) => transports.set(sessionId, transport),
    });
    const server = new McpServer({ name: 'hono-cors', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Echoes its text', inputSchema: { text: z.string() } },
      async ({ text }) => ({ content: [{ type: 'text', text }] }),
    );
    await server.connect(transport);
  }
  return transport.handleRequest(c.req.raw);
});

serve({ fetch: app.fetch, port: Number(values.port), hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`READY http://127.0.0.1:${info.port}/mcp\n`);
});
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

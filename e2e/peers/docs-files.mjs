#!/usr/bin/env node
/**
 * The server the manual's examples talk to (e2e/doc-examples.spec.ts): a 2026-07-28 server on the
 * official SDK 2.x, like modern.mjs, whose tools are the ones the examples call: the shared set
 * (echo, add, ...) and `read_file`, which answers with a fixed text naming the path.
 *
 *   --port N    0 = any free port
 */

import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  applyCors,
  createRecorder,
  listen,
  peerFlags,
  readJsonBody,
  sendJson,
  serveEvents,
} from './common.mjs';
import { registerSharedTools } from './tools.mjs';

const flags = peerFlags();
const recorder = createRecorder();

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'toolgate-docs-files', version: '1.0.0' });
    registerSharedTools(server, recorder, (toolContext) => ({
      signal: toolContext.mcpReq.signal,
      progressToken: toolContext.mcpReq._meta?.progressToken,
      notify: (notification) => toolContext.mcpReq.notify(notification),
    }));
    server.registerTool(
      'read_file',
      { description: 'Reads a text file', inputSchema: z.object({ path: z.string() }) },
      async (args) => {
        recorder.call('read_file', args);
        return { content: [{ type: 'text', text: `the text of ${args.path}` }] };
      },
    );
    return server;
  },
  { onerror: (error) => process.stderr.write(`docs-files: ${error?.message ?? error}\n`) },
);
const serve = toNodeHandler(handler);

const httpServer = createServer(async (req, res) => {
  try {
    if (applyCors(req, res)) return;
    if (serveEvents(req, res, recorder)) return;
    if (new URL(req.url ?? '/', 'http://peer').pathname !== '/mcp')
      return sendJson(res, 404, { error: 'not found' });
    const body = req.method === 'POST' ? await readJsonBody(req) : undefined;
    recorder.request(req, body);
    await serve(req, res, body);
  } catch (error) {
    process.stderr.write(`docs-files: ${error?.stack ?? error}\n`);
    if (!res.headersSent)
      sendJson(res, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } });
  }
});

listen(httpServer, flags.port, '/mcp');

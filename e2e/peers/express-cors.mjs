#!/usr/bin/env node
/**
 * A legacy-era server built the way the doctor's Express snippet assumes: the official SDK's
 * StreamableHTTPServerTransport (stateful) on Express, with the `cors` middleware configured by
 * exactly the options given on the command line (the doctor's snippet, copied from the page).
 *
 *   --port N               0 = any free port
 *   --cors-options JSON    the object passed to cors(); without it, no CORS at all
 *   --wrong-version V      broken on purpose: initialize agrees on V (a version no client speaks),
 *                          server/discover is an unknown method
 */

import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import cors from 'cors';
import express from 'express';
import { z } from 'zod';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'cors-options': { type: 'string' },
    'wrong-version': { type: 'string' },
  },
  strict: true,
});

const app = express();
if (values['cors-options']) app.use(cors(JSON.parse(values['cors-options'])));
app.use(express.json());

/** sessionId -> transport */
const transports = new Map();

function newServer() {
  const server = new McpServer({ name: 'express-cors', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes its text', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

const wrongVersion = values['wrong-version'];
app.post('/mcp', async (req, res) => {
  if (wrongVersion) {
    const { id: rpcId, method } = req.body ?? {};
    if (method === 'initialize')
      return void res.json({
        jsonrpc: '2.0',
        id: rpcId,
        result: {
          protocolVersion: wrongVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'wrong', version: '1' },
        },
      });
    if (rpcId !== undefined)
      return void res.json({
        jsonrpc: '2.0',
        id: rpcId,
        error: { code: -32601, message: 'Method not found' },
      });
    return void res.status(202).end();
  }
  const id = req.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? transports.get(id) : undefined;
  if (!transport) {
    if (id !== undefined || !isInitializeRequest(req.body)) {
      res
        .status(400)
        .json({ jsonrpc: '2.0', error: { code: -32000, message: 'No valid session ID' }, id: null });
      return;
    }
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => transports.set(sessionId, transport),
    });
    await newServer().connect(transport);
  }
  await transport.handleRequest(req, res, req.body);
});

const bySession = async (req, res) => {
  const id = req.headers['mcp-session-id'];
  const transport = typeof id === 'string' ? transports.get(id) : undefined;
  if (!transport) {
    res.status(400).send('No valid session ID');
    return;
  }
  await transport.handleRequest(req, res);
};
app.get('/mcp', bySession);
app.delete('/mcp', bySession);

const server = app.listen(Number(values.port), '127.0.0.1', () => {
  process.stdout.write(`READY http://127.0.0.1:${server.address().port}/mcp\n`);
});
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

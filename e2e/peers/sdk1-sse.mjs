#!/usr/bin/env node
/**
 * A 2024-11-05 HTTP+SSE peer: @modelcontextprotocol/sdk 1.x McpServer over SSEServerTransport.
 * GET /sse opens the stream (its first event names the POST endpoint); POST /messages?sessionId=
 * carries client messages, whose answers come back on the stream.
 *
 *   --port N    0 = any free port
 *   --no-cors   send no CORS headers
 */

import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
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
import { ELICIT_FORM, elicitAnswer, registerSharedTools } from './tools.mjs';

const flags = peerFlags();
const recorder = createRecorder();
/** sessionId -> SSEServerTransport */
const transports = new Map();

function newServer() {
  const server = new McpServer({ name: 'toolgate-peer-sdk1-sse', version: '1.0.0' });
  registerSharedTools(server, recorder, (extra) => ({
    signal: extra.signal,
    progressToken: extra._meta?.progressToken,
    notify: (notification) => extra.sendNotification(notification),
  }));
  server.registerTool(
    'elicit',
    { description: 'Asks the user for their name (elicitation/create)', inputSchema: z.object({}) },
    async (args, extra) => {
      recorder.call('elicit', args);
      const result = await extra.sendRequest(
        { method: 'elicitation/create', params: ELICIT_FORM },
        ElicitResultSchema,
      );
      recorder.elicited('elicit', result);
      return elicitAnswer(result);
    },
  );
  return server;
}

const httpServer = createServer(async (req, res) => {
  try {
    if (flags.cors && applyCors(req, res)) return;
    if (serveEvents(req, res, recorder)) return;
    const url = new URL(req.url ?? '/', 'http://peer');
    if (req.method === 'GET' && url.pathname === '/sse') {
      recorder.request(req, undefined);
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      res.on('close', () => transports.delete(transport.sessionId));
      await newServer().connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = transports.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) return sendJson(res, 404, { error: 'unknown session' });
      const body = await readJsonBody(req);
      recorder.request(req, body);
      await transport.handlePostMessage(req, res, body);
      return;
    }
    // A Streamable HTTP POST to the SSE endpoint: refuse it the way real HTTP+SSE servers do.
    if (url.pathname === '/sse') return sendJson(res, 405, { error: 'use GET to open the stream' });
    sendJson(res, 404, { error: 'not found' });
  } catch (error) {
    process.stderr.write(`sdk1-sse: ${error?.stack ?? error}\n`);
    if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
  }
});

listen(httpServer, flags.port, '/sse');

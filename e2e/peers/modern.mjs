#!/usr/bin/env node
/**
 * A dual-era peer: @modelcontextprotocol/server 2.x through createMcpHandler (2026-07-28 with
 * per-request `_meta`, and the stateless legacy fallback on the same URL), adapted to node:http by
 * toNodeHandler from @modelcontextprotocol/node.
 *
 *   --port N    0 = any free port
 *   --json      responseMode 'json' (mid-call progress is dropped, by the SDK's rule)
 *   --no-cors   send no CORS headers
 *   --read-file also offer `read_file`, which answers with a fixed text naming the path (the tool
 *               the manual's examples call: e2e/doc-examples.spec.ts)
 *
 * Extra tools: `elicit` asks for a name through an input_required round (modern era only; the
 * stateless legacy fallback cannot carry a server-to-client request), `region` mirrors its `region`
 * argument into the Mcp-Param-Region header (x-mcp-header). POST /__control/add-tool publishes a
 * tools list change to open subscriptions/listen streams; POST /__control/resource-updated?uri=U publishes
 * notifications/resources/updated for U. --offerings adds resources, a template and a prompt (offerings.mjs).
 */

import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  completable,
  createMcpHandler,
  inputRequired,
  inputResponse,
  McpServer,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
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
import { registerOfferings } from './offerings.mjs';
import { ELICIT_FORM, elicitAnswer, registerSharedTools } from './tools.mjs';

const flags = peerFlags();
const recorder = createRecorder();
const extraTools = [];

function registerModernOnlyTools(server) {
  server.registerTool(
    'elicit',
    { description: 'Asks the user for their name (input_required round)', inputSchema: z.object({}) },
    async (args, context) => {
      recorder.call('elicit', args);
      const answer = inputResponse(context.mcpReq.inputResponses, 'name');
      if (answer.kind === 'missing')
        return inputRequired({
          inputRequests: { name: inputRequired.elicit(ELICIT_FORM) },
          requestState: 'asked-for-name',
        });
      recorder.elicited('elicit', {
        action: answer.kind === 'elicit' ? answer.action : answer.kind,
        content: answer.kind === 'elicit' ? (answer.content ?? null) : null,
        requestState: context.mcpReq.requestState() ?? null,
      });
      return elicitAnswer(answer.kind === 'elicit' ? answer : undefined);
    },
  );
}

const handler = createMcpHandler(
  (context) => {
    const server = new McpServer({ name: 'toolgate-peer-modern', version: '2.0.0' });
    registerSharedTools(server, recorder, (toolContext) => ({
      signal: toolContext.mcpReq.signal,
      progressToken: toolContext.mcpReq._meta?.progressToken,
      notify: (notification) => toolContext.mcpReq.notify(notification),
    }));
    server.registerTool(
      'region',
      {
        description: 'Looks something up in a region; the region travels in the Mcp-Param-Region header too',
        inputSchema: z.object({
          region: z.string().meta({ 'x-mcp-header': 'Region' }),
          query: z.string(),
        }),
      },
      async (args) => {
        recorder.call('region', args);
        return { content: [{ type: 'text', text: `${args.query} in ${args.region}` }] };
      },
    );
    if (context.era === 'modern') registerModernOnlyTools(server);
    if (flags.readFile)
      server.registerTool(
        'read_file',
        { description: 'Reads a text file', inputSchema: z.object({ path: z.string() }) },
        async (args) => {
          recorder.call('read_file', args);
          return { content: [{ type: 'text', text: `the text of ${args.path}` }] };
        },
      );
    if (flags.offerings) {
      registerOfferings(server, { ResourceTemplate, completable, z, wrapArgs: z.object });
      // Updates reach a subscriptions/listen stream through handler.notify.resourceUpdated (below).
      server.server.registerCapabilities({ resources: { subscribe: true } });
    }
    for (const name of extraTools)
      server.registerTool(
        name,
        { description: 'Added at run time', inputSchema: z.object({}) },
        async () => ({
          content: [{ type: 'text', text: `${name} ran` }],
        }),
      );
    return server;
  },
  {
    responseMode: flags.json ? 'json' : 'auto',
    onerror: (error) => process.stderr.write(`modern: ${error?.message ?? error}\n`),
  },
);
const serve = toNodeHandler(handler);

const httpServer = createServer(async (req, res) => {
  try {
    if (flags.cors && applyCors(req, res)) return;
    if (serveEvents(req, res, recorder)) return;
    const path = new URL(req.url ?? '/', 'http://peer').pathname;
    if (req.method === 'POST' && path === '/__control/add-tool') {
      const name = `extra_${extraTools.length + 1}`;
      extraTools.push(name);
      handler.notify.toolsChanged();
      return sendJson(res, 200, { added: name });
    }
    if (req.method === 'POST' && path === '/__control/resource-updated') {
      handler.notify.resourceUpdated(new URL(req.url ?? '/', 'http://peer').searchParams.get('uri') ?? '');
      return sendJson(res, 200, { published: true });
    }
    if (path !== '/mcp') return sendJson(res, 404, { error: 'not found' });
    const body = req.method === 'POST' ? await readJsonBody(req) : undefined;
    if (req.method === 'POST' && body === undefined)
      return sendJson(res, 400, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error' },
      });
    recorder.request(req, body);
    await serve(req, res, body);
  } catch (error) {
    process.stderr.write(`modern: ${error?.stack ?? error}\n`);
    if (!res.headersSent)
      sendJson(res, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } });
  }
});

listen(httpServer, flags.port, '/mcp');

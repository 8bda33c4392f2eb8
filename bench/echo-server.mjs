#!/usr/bin/env node
/**
 * The benchmark's server, in its own process on 127.0.0.1: an @modelcontextprotocol/sdk 1.x
 * McpServer with one `echo` tool behind StreamableHTTPServerTransport in stateless mode, plus the
 * fixed-body floor and the bench pages themselves. Serving the pages from the same origin means the
 * measured traffic needs no CORS preflight and no request interception of any kind.
 *
 *   POST /json        MCP, JSON responses (enableJsonResponse)
 *   POST /sse         MCP, SSE responses
 *   POST /floor       a fixed JSON body the size of an echo answer (the plain-fetch floor)
 *   POST /floor-sse   the same body as one SSE event (what an SSE answer costs without any MCP)
 *   GET  /bench/*     built pages and bundles from --static, cross-origin isolated, never cached
 *   POST /bench/report  a page's results: printed as `REPORT <json>`; answers the plan's next page
 *
 * Options: --port N (0 = any), --static DIR, --plan JSON (array of page paths, in order), and
 * --fresh-per-request (build a new McpServer for every request, as the SDK's stateless example does,
 * instead of reusing idle ones).
 */

import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { echoResponse, TOOL } from './payload.mjs';

const { values: flags } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    static: { type: 'string', default: '.bench-out/pages' },
    plan: { type: 'string', default: '[]' },
    'fresh-per-request': { type: 'boolean', default: false },
  },
  strict: true,
});
const plan = JSON.parse(flags.plan);

const FLOOR_BODY = JSON.stringify(echoResponse(1));
const FLOOR_SSE_BODY = `event: message\ndata: ${FLOOR_BODY}\n\n`;

function newMcpServer() {
  const server = new McpServer({ name: 'toolgate-bench-echo', version: '1.0.0' });
  server.registerTool(
    TOOL,
    { description: 'Echoes the message back', inputSchema: { message: z.string() } },
    async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
  );
  return server;
}

/**
 * Idle McpServers, reused across requests. Stateless mode still gets a fresh transport per request
 * (the SDK refuses to reuse one); only the server object, with its registered tool and compiled
 * schema, is kept. Building it anew costs the server tens of microseconds per request that no
 * client can influence, and every figure here is a ratio against a floor that does not pay it.
 */
const idle = { json: [], sse: [] };

async function serveMcp(req, res, kind) {
  if (req.method !== 'POST') {
    // Stateless: no standalone GET stream, no session to DELETE (the SDK example's answer).
    res.writeHead(405, { 'content-type': 'application/json', allow: 'POST' });
    res.end(
      JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed.' } }),
    );
    return;
  }
  const body = await readBody(req);
  let parsed;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const pool = idle[kind];
  const server = (!flags['fresh-per-request'] && pool.pop()) || newMcpServer();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: kind === 'json',
  });
  res.on('close', () => {
    // Closing the transport detaches the server (Protocol._onclose), which may then serve again.
    void transport.close().then(() => {
      if (!flags['fresh-per-request']) pool.push(server);
    });
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, parsed);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function serveFloor(req, res, sse) {
  // Read the request like a server must, then answer the fixed bytes: the cost of HTTP alone.
  await readBody(req);
  res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/json' });
  res.end(sse ? FLOOR_SSE_BODY : FLOOR_BODY);
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
};

/**
 * Pages are cross-origin isolated (COOP + COEP): only then does Chromium give performance.now() its
 * fine 5 us resolution instead of 100 us with jitter. CORP lets the other-origin iframe embed. No
 * caching, so every navigation-to-first-result run downloads and compiles its bundle again.
 */
const PAGE_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'cross-origin',
  'cache-control': 'no-store',
};

async function serveStatic(res, path) {
  const relative = normalize(path.slice('/bench/'.length));
  if (relative.startsWith('..')) return notFound(res);
  try {
    const content = await readFile(join(flags.static, relative));
    res.writeHead(200, {
      ...PAGE_HEADERS,
      'content-type': TYPES[extname(relative)] ?? 'application/octet-stream',
    });
    res.end(content);
  } catch {
    notFound(res);
  }
}

async function report(req, res) {
  const body = JSON.parse(await readBody(req));
  process.stdout.write(`REPORT ${JSON.stringify(body)}\n`);
  const next = typeof body.step === 'number' ? (plan[body.step + 1] ?? null) : null;
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ next }));
}

function notFound(res) {
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('not found');
}

/** TCP connections accepted: a client that cannot reuse its connections shows here (GET /bench/stats). */
let connections = 0;

const http = createServer(async (req, res) => {
  try {
    const path = new URL(req.url ?? '/', 'http://bench').pathname;
    if (path === '/json') return await serveMcp(req, res, 'json');
    if (path === '/sse') return await serveMcp(req, res, 'sse');
    if (path === '/floor') return await serveFloor(req, res, false);
    if (path === '/floor-sse') return await serveFloor(req, res, true);
    if (path === '/bench/report' && req.method === 'POST') return await report(req, res);
    if (path === '/bench/stats') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ connections }));
      return;
    }
    if (path.startsWith('/bench/') && req.method === 'GET') return await serveStatic(res, path);
    notFound(res);
  } catch (error) {
    process.stderr.write(`echo-server: ${error?.stack ?? error}\n`);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('internal error');
  }
});

http.on('connection', () => connections++);

http.listen(Number(flags.port), '127.0.0.1', () => {
  const { port } = http.address();
  process.stdout.write(`READY http://127.0.0.1:${port}\n`);
});

// Exit normally on a signal, so that `node --cpu-prof bench/echo-server.mjs` writes its profile.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));

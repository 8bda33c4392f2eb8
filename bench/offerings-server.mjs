/**
 * The server of bench/offerings.mjs, in the bench's process on 127.0.0.1: an SDK 1.x low-level
 * Server behind StreamableHTTPServerTransport in stateless mode with JSON responses, offering 10,000
 * resources in pages of 500 (cursor = the next offset), one template, and completion of its
 * variable; it also serves the bench page from the same origin.
 */
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CompleteRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

export const RESOURCE_COUNT = 10_000;
const PAGE = 500;
const IDS = Array.from({ length: 1000 }, (_, i) => String(i));

function newServer() {
  const server = new Server(
    { name: 'toolgate-bench-offerings', version: '1.0.0' },
    { capabilities: { resources: {}, completions: {} } },
  );
  server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    const from = Number(request.params?.cursor ?? 0);
    const to = Math.min(from + PAGE, RESOURCE_COUNT);
    return {
      resources: Array.from({ length: to - from }, (_, i) => ({
        uri: `bench://items/${from + i}`,
        name: `item-${from + i}`,
        title: `Item ${from + i}`,
        description: `Bench resource number ${from + i}`,
        mimeType: 'text/plain',
      })),
      ...(to < RESOURCE_COUNT ? { nextCursor: String(to) } : {}),
    };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [{ uriTemplate: 'bench://items/{id}', name: 'item', mimeType: 'text/plain' }],
  }));
  server.setRequestHandler(CompleteRequestSchema, (request) => {
    const values = IDS.filter((id) => id.startsWith(request.params.argument.value)).slice(0, 100);
    return { completion: { values, total: values.length, hasMore: false } };
  });
  return server;
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Starts the server; `page` is the bench page's bundled script. Resolves to its origin and a stop. */
export function startOfferingsServer(page) {
  const http = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://bench').pathname;
    if (path === '/mcp' && req.method === 'POST') {
      const body = JSON.parse(await readBody(req));
      const server = newServer();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on('close', () => void transport.close());
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    if (path === '/mcp') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    if (path === '/bench.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(page);
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        '<!doctype html><html lang="en"><title>Offerings bench</title><script type="module" src="/bench.js"></script></html>',
      );
  });
  return new Promise((resolve) =>
    http.listen(0, '127.0.0.1', () =>
      resolve({
        origin: `http://127.0.0.1:${http.address().port}`,
        stop: () => new Promise((done) => http.close(() => done())),
      }),
    ),
  );
}

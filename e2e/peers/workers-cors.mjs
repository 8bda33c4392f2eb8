#!/usr/bin/env node
/**
 * A Cloudflare Worker as the doctor's Workers snippet assumes, run on Node: the Workers runtime is
 * not here, but a Worker is a module whose default export's fetch(request, env, ctx) answers a
 * web-standard Request, which Node has. Its handleMcp passes each request on to an MCP server that
 * sends no CORS headers (a proxy Worker); the snippet given (copied from the doctor's report) wraps
 * it exactly as its owner would paste it.
 *
 *   --port N             0 = any free port
 *   --upstream URL       the MCP server handleMcp passes requests to
 *   --snippet-file PATH  the doctor's Workers snippet; without it, the Worker is handleMcp alone
 */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    upstream: { type: 'string' },
    'snippet-file': { type: 'string' },
  },
  strict: true,
});
if (!values.upstream) throw new Error('--upstream URL is required');

const handler = `const handleMcp = async (request) => {
  const headers = new Headers(request.headers);
  for (const name of ['host', 'origin', 'content-length']) headers.delete(name);
  const bodyless = request.method === 'GET' || request.method === 'HEAD';
  const upstream = await fetch(${JSON.stringify(values.upstream)}, {
    method: request.method,
    headers,
    ...(bodyless ? {} : { body: await request.arrayBuffer() }),
  });
  const answer = new Headers(upstream.headers);
  for (const name of ['content-encoding', 'content-length', 'transfer-encoding']) answer.delete(name);
  return new Response(upstream.body, { status: upstream.status, headers: answer });
};
`;
const worker = values['snippet-file']
  ? readFileSync(values['snippet-file'], 'utf8')
  : 'export default { fetch: handleMcp };';
const file = join(mkdtempSync(join(tmpdir(), 'toolgate-worker-')), 'worker.mjs');
writeFileSync(file, `${handler}\n${worker}\n`);
const { default: exported } = await import(pathToFileURL(file).href);

const server = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === 'string') headers.set(name, value);
  const bodyless = req.method === 'GET' || req.method === 'HEAD';
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers,
    ...(bodyless ? {} : { body: Buffer.concat(chunks) }),
  });
  try {
    const answer = await exported.fetch(request, {}, {});
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (answer.body) for await (const chunk of answer.body) res.write(chunk);
    res.end();
  } catch (error) {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
  }
});
server.listen(Number(values.port), '127.0.0.1', () => {
  process.stdout.write(`READY http://127.0.0.1:${server.address().port}/mcp\n`);
});
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

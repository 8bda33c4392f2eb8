#!/usr/bin/env node
/**
 * A recording reverse proxy in front of a real MCP peer, which can also redirect: the two servers a
 * redirect test needs. Every request it receives is recorded with all its headers (GET /__seen),
 * so a test proves from this server's side which credentials reached it.
 *
 *   /moved/<status>/…        answers <status> with Location: <redirectTo> (another origin)
 *   /same/<status>/<rest>    answers <status> with Location: /<rest> (same origin, query kept)
 *   /__seen                  the recorded requests, as JSON
 *   anything else            proxied to <upstream> (bodies streamed both ways, SSE included)
 *
 * Redirect answers carry CORS headers for any Origin and their preflights are answered here, so a
 * browser gets as far as the redirect itself (an opaque redirect) instead of a CORS failure.
 *
 * Importable (startRedirector) or runnable:
 *   node redirector.mjs --upstream http://127.0.0.1:PORT [--redirect-to URL] [--port N]
 * prints `READY http://127.0.0.1:PORT`.
 */

import { createServer, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Starts one redirector on 127.0.0.1.
 * @param {{ upstream: string, redirectTo?: string, port?: number }} options
 * @returns {Promise<{ origin: string, seen: () => { method: string, path: string, headers: Record<string, string> }[], close: () => Promise<void> }>}
 */
export function startRedirector({ upstream, redirectTo, port = 0 }) {
  const seen = [];
  const upstreamUrl = new URL(upstream);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://redirector');
    if (url.pathname === '/__seen') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(seen));
      return;
    }
    seen.push({ method: req.method ?? '', path: req.url ?? '/', headers: flatHeaders(req.headers) });
    const redirect = /^\/(moved|same)\/(\d{3})(\/.*)?$/.exec(url.pathname);
    if (redirect && REDIRECT_STATUSES.has(Number(redirect[2]))) {
      const [, kind, status, rest] = redirect;
      if (req.method === 'OPTIONS') return preflight(req, res);
      const location = kind === 'moved' ? redirectTo : `${rest ?? '/'}${url.search}`;
      if (!location) {
        res.writeHead(500).end('no --redirect-to configured');
        return;
      }
      req.resume();
      res.writeHead(Number(status), { location, ...corsHeaders(req), 'content-length': '0' });
      res.end();
      return;
    }
    proxy(req, res, upstreamUrl);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        origin: `http://127.0.0.1:${address.port}`,
        seen: () => seen.map((entry) => ({ ...entry, headers: { ...entry.headers } })),
        close: () =>
          new Promise((done) => {
            // Open SSE streams would keep a graceful close waiting: end them.
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function flatHeaders(headers) {
  const flat = {};
  for (const [name, value] of Object.entries(headers))
    flat[name] = Array.isArray(value) ? value.join(', ') : String(value);
  return flat;
}

function corsHeaders(req) {
  const origin = req.headers.origin;
  return origin ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {};
}

function preflight(req, res) {
  res.writeHead(204, {
    ...corsHeaders(req),
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': String(req.headers['access-control-request-headers'] ?? ''),
  });
  res.end();
}

function proxy(req, res, upstream) {
  const target = new URL(req.url ?? '/', upstream);
  const outbound = httpRequest(
    target,
    { method: req.method, headers: { ...req.headers, host: target.host } },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  outbound.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  // The client went away (a cancelled call, a closed stream): the upstream must notice too.
  res.on('close', () => outbound.destroy());
  req.pipe(outbound);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      upstream: { type: 'string' },
      'redirect-to': { type: 'string' },
      port: { type: 'string', default: '0' },
    },
    strict: true,
  });
  if (!values.upstream) throw new Error('--upstream is required');
  const running = await startRedirector({
    upstream: values.upstream,
    redirectTo: values['redirect-to'],
    port: Number(values.port),
  });
  process.stdout.write(`READY ${running.origin}\n`);
  const stop = () => process.exit(0);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/**
 * The fix to hand over for a CORS failure: the exact response headers a server must send for this
 * page's origin, and the same as configuration for the common Node servers (the official SDK on
 * Express with the `cors` middleware, and on Hono with `hono/cors`); the others (Python, Workers,
 * nginx, Caddy) are in cors-snippets.ts.
 */

import { caddySnippet, nginxSnippet, pythonSnippet, serverPlace, workersSnippet } from './cors-snippets.js';

/** What Toolgate sends with its requests, so what a server must allow. */
const ALLOWED_REQUEST_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'mcp-protocol-version',
  'mcp-session-id',
  'mcp-method',
  'mcp-name',
  'last-event-id',
] as const;

const ALLOWED_METHODS = ['GET', 'POST', 'DELETE', 'OPTIONS'] as const;

/** Headers the page must be able to read: the session id, and the sign-in challenge of a 401. */
const EXPOSED_HEADERS = ['mcp-session-id', 'www-authenticate'] as const;

/**
 * The request headers a server must allow: Toolgate's, and those configured for the server (an
 * API key header). Only plain header names are kept, so no snippet ever needs quoting.
 */
function allowedHeaders(configured: readonly string[]): string[] {
  const extra = configured
    .map((name) => name.toLowerCase())
    .filter((name) => /^[a-z0-9][a-z0-9_.-]*$/.test(name) && !ALLOWED_HEADER_SET.has(name));
  return [...ALLOWED_REQUEST_HEADERS, ...new Set(extra)];
}
const ALLOWED_HEADER_SET: ReadonlySet<string> = new Set(ALLOWED_REQUEST_HEADERS);

/**
 * The `cors` middleware's options (Express) for this origin; the Hono options have the same fields.
 * `configured`: the names of headers configured for the server, which must be allowed too.
 */
export function corsOptions(origin: string, configured: readonly string[] = []) {
  return {
    origin,
    methods: [...ALLOWED_METHODS],
    allowedHeaders: allowedHeaders(configured),
    exposedHeaders: [...EXPOSED_HEADERS],
  };
}

export interface CorsFix {
  /** The response headers, one per line, as the server must send them. */
  headers: string;
  /** Express with the official SDK: the `cors` middleware, before the MCP route. */
  express: string;
  /** Hono: `hono/cors`, before the MCP route. */
  hono: string;
  /** Python, the official SDK (FastMCP) on Starlette: `CORSMiddleware` around its app. */
  python: string;
  /** Cloudflare Workers: a wrapper around the Worker's fetch handler. */
  workers: string;
  /** nginx in front of the server: a `location` for the MCP path. */
  nginx: string;
  /** Caddy in front of the server: a site block. */
  caddy: string;
}

/** An options object one member a line, lists kept on their line: valid JSON, so valid JavaScript. */
function optionsText(options: Record<string, string | string[]>): string {
  const members = Object.entries(options).map(
    ([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value).replaceAll('","', '", "')}`,
  );
  return `{\n${members.join(',\n')}\n}`;
}

/**
 * The fix for pages at `origin`; `serverUrl` names the path and site in the proxy snippets, and
 * `configured` the headers configured for the server, allowed beside Toolgate's own.
 */
export function corsFix(origin: string, serverUrl?: string, configured: readonly string[] = []): CorsFix {
  const allowHeaders = allowedHeaders(configured);
  const lists = { origin, methods: ALLOWED_METHODS, allowHeaders, exposeHeaders: EXPOSED_HEADERS };
  const place = serverPlace(serverUrl);
  const options = optionsText(corsOptions(origin, configured));
  const hono = optionsText({
    origin,
    allowMethods: [...ALLOWED_METHODS],
    allowHeaders,
    exposeHeaders: [...EXPOSED_HEADERS],
  });
  return {
    headers: [
      `Access-Control-Allow-Origin: ${origin}`,
      'Vary: Origin',
      `Access-Control-Allow-Methods: ${ALLOWED_METHODS.join(', ')}`,
      `Access-Control-Allow-Headers: ${allowHeaders.join(', ')}`,
      `Access-Control-Expose-Headers: ${EXPOSED_HEADERS.join(', ')}`,
    ].join('\n'),
    express: [
      "import cors from 'cors';",
      '',
      '// Before the MCP route (app.post/get/delete("/mcp", ...)):',
      `app.use(cors(${options}));`,
    ].join('\n'),
    hono: [
      "import { cors } from 'hono/cors';",
      '',
      '// Before the MCP route:',
      `app.use('*', cors(${hono}));`,
    ].join('\n'),
    python: pythonSnippet(lists),
    workers: workersSnippet(lists),
    nginx: nginxSnippet(lists, place),
    caddy: caddySnippet(lists, place),
  };
}

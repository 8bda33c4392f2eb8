/**
 * The fix to hand over for a CORS failure: the exact response headers a server must send for this
 * page's origin, and the same as configuration for the common Node servers (the official SDK on
 * Express with the `cors` middleware, and on Hono with `hono/cors`).
 */

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

/** The `cors` middleware's options (Express) for this origin; the Hono options have the same fields. */
export function corsOptions(origin: string) {
  return {
    origin,
    methods: [...ALLOWED_METHODS],
    allowedHeaders: [...ALLOWED_REQUEST_HEADERS],
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
}

/** An options object one member a line, lists kept on their line: valid JSON, so valid JavaScript. */
function optionsText(options: Record<string, string | string[]>): string {
  const members = Object.entries(options).map(
    ([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value).replaceAll('","', '", "')}`,
  );
  return `{\n${members.join(',\n')}\n}`;
}

export function corsFix(origin: string): CorsFix {
  const options = optionsText(corsOptions(origin));
  const hono = optionsText({
    origin,
    allowMethods: [...ALLOWED_METHODS],
    allowHeaders: [...ALLOWED_REQUEST_HEADERS],
    exposeHeaders: [...EXPOSED_HEADERS],
  });
  return {
    headers: [
      `Access-Control-Allow-Origin: ${origin}`,
      'Vary: Origin',
      `Access-Control-Allow-Methods: ${ALLOWED_METHODS.join(', ')}`,
      `Access-Control-Allow-Headers: ${ALLOWED_REQUEST_HEADERS.join(', ')}`,
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
  };
}

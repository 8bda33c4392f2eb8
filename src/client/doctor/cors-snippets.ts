/**
 * The CORS fix as configuration for servers not built on Node: Python (the official SDK's FastMCP on
 * Starlette), Cloudflare Workers, and the reverse proxies nginx and Caddy. Each says the same as the
 * headers block of cors-fix.ts; the unit tests run or parse each one (doctor-snippets.test.ts).
 */

/** What every snippet must say, from cors-fix.ts. */
interface CorsLists {
  origin: string;
  methods: readonly string[];
  allowHeaders: readonly string[];
  exposeHeaders: readonly string[];
}

/** Where the server is, so the proxy snippets name its path and site. */
interface ServerPlace {
  /** The MCP endpoint's path, e.g. `/mcp`. */
  path: string;
  /** The site address a reverse proxy answers at, e.g. `mcp.example.com` or `http://127.0.0.1:8080`. */
  site: string;
}

export function serverPlace(serverUrl: string | undefined): ServerPlace {
  try {
    const url = new URL(serverUrl ?? '');
    const path = /^\/[A-Za-z0-9._~\-/]*$/.test(url.pathname) ? url.pathname : '/mcp';
    return { path, site: url.protocol === 'https:' ? url.host : `http://${url.host}` };
  } catch {
    // No usable URL: the usual names, for the owner to adapt.
    return { path: '/mcp', site: 'mcp.example.com' };
  }
}

/** A list as a Python or JavaScript array literal of strings, on one line. */
const list = (items: readonly string[]) => JSON.stringify(items).replaceAll('","', '", "');
/** Values are only header names, methods and an origin: no quote or backslash needs escaping. */
const quoted = (items: readonly string[]) => `"${items.join(', ')}"`;

export function pythonSnippet(lists: CorsLists): string {
  return [
    'from starlette.middleware.cors import CORSMiddleware',
    '',
    '# The official SDK (FastMCP): its Starlette app, with CORSMiddleware around it.',
    'app = mcp.streamable_http_app()',
    'app.add_middleware(',
    '    CORSMiddleware,',
    `    allow_origins=${list([lists.origin])},`,
    `    allow_methods=${list(lists.methods)},`,
    `    allow_headers=${list(lists.allowHeaders)},`,
    `    expose_headers=${list(lists.exposeHeaders)},`,
    ')',
    '# then serve `app`, e.g. uvicorn.run(app, host="0.0.0.0", port=8000)',
  ].join('\n');
}

export function workersSnippet(lists: CorsLists): string {
  return [
    '// Around the Worker\'s fetch handler (handleMcp: yours, e.g. createMcpHandler(server) of "agents/mcp").',
    'const CORS = {',
    `  "Access-Control-Allow-Origin": "${lists.origin}",`,
    `  "Access-Control-Allow-Methods": ${quoted(lists.methods)},`,
    `  "Access-Control-Allow-Headers": ${quoted(lists.allowHeaders)},`,
    `  "Access-Control-Expose-Headers": ${quoted(lists.exposeHeaders)}`,
    '};',
    '',
    'function withCors(handler) {',
    '  return async (request, env, ctx) => {',
    '    if (request.method === "OPTIONS")',
    '      return new Response(null, { status: 204, headers: { ...CORS, Vary: "Origin" } });',
    '    const answer = await handler(request, env, ctx);',
    '    const headers = new Headers(answer.headers);',
    '    for (const [name, value] of Object.entries(CORS)) headers.set(name, value);',
    '    headers.append("Vary", "Origin");',
    '    return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });',
    '  };',
    '}',
    '',
    'export default { fetch: withCors(handleMcp) };',
  ].join('\n');
}

export function nginxSnippet(lists: CorsLists, place: ServerPlace): string {
  const origin = `"${lists.origin}"`;
  return [
    '# In the server block, for the MCP path (proxy_pass to where the server listens):',
    `location ${place.path} {`,
    '    if ($request_method = OPTIONS) {',
    `        add_header Access-Control-Allow-Origin ${origin} always;`,
    '        add_header Vary Origin always;',
    `        add_header Access-Control-Allow-Methods ${quoted(lists.methods)} always;`,
    `        add_header Access-Control-Allow-Headers ${quoted(lists.allowHeaders)} always;`,
    '        add_header Access-Control-Max-Age 86400 always;',
    '        return 204;',
    '    }',
    '    proxy_hide_header Access-Control-Allow-Origin;',
    `    add_header Access-Control-Allow-Origin ${origin} always;`,
    '    add_header Vary Origin always;',
    `    add_header Access-Control-Expose-Headers ${quoted(lists.exposeHeaders)} always;`,
    '    proxy_pass http://127.0.0.1:3000;',
    '    proxy_http_version 1.1;',
    '    proxy_buffering off;',
    '}',
  ].join('\n');
}

export function caddySnippet(lists: CorsLists, place: ServerPlace): string {
  const origin = `"${lists.origin}"`;
  return [
    '# The site that serves the MCP server (reverse_proxy to where it listens):',
    `${place.site} {`,
    '\t@preflight method OPTIONS',
    '\thandle @preflight {',
    `\t\theader Access-Control-Allow-Origin ${origin}`,
    '\t\theader Vary Origin',
    `\t\theader Access-Control-Allow-Methods ${quoted(lists.methods)}`,
    `\t\theader Access-Control-Allow-Headers ${quoted(lists.allowHeaders)}`,
    '\t\trespond 204',
    '\t}',
    '\thandle {',
    `\t\theader Access-Control-Allow-Origin ${origin}`,
    '\t\theader Vary Origin',
    `\t\theader Access-Control-Expose-Headers ${quoted(lists.exposeHeaders)}`,
    '\t\treverse_proxy 127.0.0.1:3000 {',
    '\t\t\theader_down -Access-Control-Allow-Origin',
    '\t\t}',
    '\t}',
    '}',
  ].join('\n');
}

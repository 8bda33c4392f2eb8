/**
 * The CORS snippets for servers not built on Node, each checked by what runs here: the Python one
 * executed by python3 (on every machine of this project's kind) against a recording stand-in for
 * Starlette, so the arguments CORSMiddleware gets are compared; the Workers one imported as an ES
 * module and called with real Requests; nginx and Caddy run with the snippet, in front of a server
 * without CORS, where installed, and always checked structurally here, since neither is on a new
 * machine (Express, Hono and Workers run on real servers in e2e/doctor.spec.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { corsFix, corsOptions } from './cors-fix.js';
import { serverPlace } from './cors-snippets.js';

const ORIGIN = 'https://app.example:8443';
const SERVER = 'https://mcp.example.org/v1/mcp';
const fix = corsFix(ORIGIN, SERVER);
const expected = corsOptions(ORIGIN);
const dir = mkdtempSync(join(tmpdir(), 'toolgate-snippets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const has = (binary: string) => spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0;

describe('the Python snippet (FastMCP on Starlette)', () => {
  it('runs, giving CORSMiddleware this origin and every header Toolgate sends and reads', () => {
    // Stand-ins record what the snippet does: the module it imports, the app it asks the SDK for.
    const harness = `
import json, sys, types
cors = types.ModuleType("starlette.middleware.cors")
class CORSMiddleware: pass
cors.CORSMiddleware = CORSMiddleware
sys.modules["starlette"] = types.ModuleType("starlette")
sys.modules["starlette.middleware"] = types.ModuleType("starlette.middleware")
sys.modules["starlette.middleware.cors"] = cors
added = []
class App:
    def add_middleware(self, cls, **options):
        added.append((cls.__name__, options))
class FastMCP:
    def streamable_http_app(self):
        return App()
mcp = FastMCP()
exec(compile(sys.stdin.read(), "snippet.py", "exec"), {"mcp": mcp})
print(json.dumps(added))
`;
    const run = spawnSync('python3', ['-c', harness], { input: fix.python, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([
      [
        'CORSMiddleware',
        {
          allow_origins: [ORIGIN],
          allow_methods: expected.methods,
          allow_headers: expected.allowedHeaders,
          expose_headers: expected.exposedHeaders,
        },
      ],
    ]);
  });
});

describe('the Cloudflare Workers snippet', () => {
  it('answers the preflight itself and adds the headers to the handler answer, keeping its own', async () => {
    const file = join(dir, 'worker.mjs');
    // The handler the snippet wraps: an MCP answer with a session id and a Vary of its own.
    const handler = `const handleMcp = async (request) => new Response(await request.text(), {
  status: 200, headers: { "content-type": "application/json", "mcp-session-id": "s1", vary: "Accept" } });\n`;
    writeFileSync(file, handler + fix.workers);
    const worker = (await import(/* @vite-ignore */ pathToFileURL(file).href)).default as {
      fetch(request: Request, env: unknown, ctx: unknown): Promise<Response>;
    };

    const preflight = await worker.fetch(
      new Request(SERVER, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
      }),
      {},
      {},
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toBe(expected.methods.join(', '));
    expect(preflight.headers.get('access-control-allow-headers')).toBe(expected.allowedHeaders.join(', '));

    const post = await worker.fetch(
      new Request(SERVER, { method: 'POST', headers: { origin: ORIGIN }, body: '{"ok":1}' }),
      {},
      {},
    );
    expect(await post.text()).toBe('{"ok":1}');
    expect(post.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(post.headers.get('access-control-expose-headers')).toBe('mcp-session-id, www-authenticate');
    expect(post.headers.get('mcp-session-id')).toBe('s1');
    expect(post.headers.get('vary')).toBe('Accept, Origin');
  });
});

/**
 * A structural check of a brace-block configuration: braces balance, and every line is a comment,
 * an opening or closing brace line, or a directive (ending in `;` for nginx).
 */
function structure(text: string, directiveEnd: RegExp): string[] {
  const problems: string[] = [];
  let depth = 0;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.endsWith('{')) depth++;
    else if (line === '}') depth--;
    else if (!directiveEnd.test(line)) problems.push(`line ${index + 1}: ${line}`);
    if (depth < 0) problems.push(`line ${index + 1}: closes a block never opened`);
    if ((line.match(/"/g)?.length ?? 0) % 2 !== 0) problems.push(`line ${index + 1}: unbalanced quote`);
  }
  if (depth !== 0) problems.push(`${depth} block(s) left open`);
  return problems;
}

/** The value of each `directive Name "value"` line, by header name. */
function headerValues(text: string, directive: string): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const match of text.matchAll(
    new RegExp(`${directive} (\\S+) (?:"([^"]*)"|([^\\s;]+))(?: always)?;?$`, 'gm'),
  )) {
    const name = match[1] ?? '';
    values.set(name, [...(values.get(name) ?? []), match[2] ?? match[3] ?? '']);
  }
  return values;
}

describe('the nginx snippet', () => {
  it('is a location for the server path whose preflight and answers carry the headers', () => {
    expect(fix.nginx).toContain('location /v1/mcp {');
    expect(structure(fix.nginx, /;$/)).toEqual([]);
    const values = headerValues(fix.nginx, 'add_header');
    // Both the preflight (inside `if`, where nginx does not inherit add_header) and the answers.
    expect(values.get('Access-Control-Allow-Origin')).toEqual([ORIGIN, ORIGIN]);
    expect(values.get('Access-Control-Allow-Methods')).toEqual([expected.methods.join(', ')]);
    expect(values.get('Access-Control-Allow-Headers')).toEqual([expected.allowedHeaders.join(', ')]);
    expect(values.get('Access-Control-Expose-Headers')).toEqual([expected.exposedHeaders.join(', ')]);
    expect(fix.nginx).toMatch(/return 204;\n {4}}/);
    expect(fix.nginx).toContain('proxy_buffering off;'); // event streams must not wait in a buffer
  });

  it('in nginx (where installed), in front of a server without CORS, answers the preflight and adds the headers', async () => {
    if (!has('nginx')) {
      // Not on a new machine: the structural test above is what checks it there.
      expect(structure(fix.nginx, /;$/)).toEqual([]);
      return;
    }
    const upstream = await serverWithoutCors();
    const port = await freePort();
    const conf = join(dir, 'nginx.conf');
    const temp = (name: string) => `${name} ${join(dir, name)};`;
    // The snippet as its owner pastes it, proxy_pass pointed at their server.
    const location = fix.nginx.replace('http://127.0.0.1:3000', upstream.url);
    writeFileSync(
      conf,
      `pid ${join(dir, 'nginx.pid')};\nerror_log stderr;\ndaemon off;\nevents {}\nhttp {\n  access_log off;\n  ${temp('client_body_temp_path')}\n  ${temp('proxy_temp_path')}\n  server {\n    listen 127.0.0.1:${port};\n${location}\n  }\n}\n`,
    );
    const nginx = spawn('nginx', ['-p', dir, '-c', conf], { stdio: 'ignore' });
    try {
      await expectCorsThrough(`http://127.0.0.1:${port}/v1/mcp`);
    } finally {
      nginx.kill();
      await upstream.close();
    }
  });
});

describe('the Caddy snippet', () => {
  it('is a site block whose preflight and answers carry the headers', () => {
    expect(fix.caddy).toContain('mcp.example.org {');
    expect(structure(fix.caddy, /^[@a-z_-]+\s/)).toEqual([]);
    const values = headerValues(fix.caddy, 'header');
    expect(values.get('Access-Control-Allow-Origin')).toEqual([ORIGIN, ORIGIN]);
    expect(values.get('Access-Control-Allow-Methods')).toEqual([expected.methods.join(', ')]);
    expect(values.get('Access-Control-Allow-Headers')).toEqual([expected.allowedHeaders.join(', ')]);
    expect(values.get('Access-Control-Expose-Headers')).toEqual([expected.exposedHeaders.join(', ')]);
    expect(fix.caddy).toContain('respond 204');
  });

  it('in Caddy (where installed), in front of a server without CORS, answers the preflight and adds the headers', async () => {
    if (!has('caddy')) {
      // Not on a new machine: the structural test above is what checks it there.
      expect(structure(fix.caddy, /^[@a-z_-]+\s/)).toEqual([]);
      return;
    }
    const upstream = await serverWithoutCors();
    const port = await freePort();
    const file = join(dir, 'Caddyfile');
    // The snippet as its owner pastes it: their site's address, reverse_proxy to their server.
    const site = fix.caddy
      .replace('mcp.example.org {', `{\n\tadmin off\n}\nhttp://127.0.0.1:${port} {`)
      .replace('127.0.0.1:3000', upstream.url.replace('http://', ''));
    writeFileSync(file, `${site}\n`);
    const caddy = spawn('caddy', ['run', '--config', file, '--adapter', 'caddyfile'], {
      stdio: 'ignore',
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    });
    try {
      await expectCorsThrough(`http://127.0.0.1:${port}/v1/mcp`);
    } finally {
      caddy.kill();
      await upstream.close();
    }
  });
});

/** A server that sends its own `Access-Control-Allow-Origin: *` only, as many do: the proxy must replace it. */
async function serverWithoutCors(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    response.writeHead(200, {
      'content-type': 'application/json',
      'mcp-session-id': 's1',
      'access-control-allow-origin': '*',
    });
    response.end(JSON.stringify({ method: request.method, path: request.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The preflight and a POST through the proxy, once it listens (bounded: 100 tries). */
async function expectCorsThrough(url: string): Promise<void> {
  let preflight: Response | undefined;
  for (let attempt = 0; attempt < 100 && !preflight; attempt++) {
    preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    }).catch(() => undefined);
    if (!preflight) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(preflight?.status).toBe(204);
  expect(preflight?.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  expect(preflight?.headers.get('access-control-allow-headers')).toBe(expected.allowedHeaders.join(', '));
  const post = await fetch(url, { method: 'POST', headers: { origin: ORIGIN }, body: '{}' });
  expect(await post.json()).toEqual({ method: 'POST', path: '/v1/mcp' });
  // Exactly this origin: the server's own `*` was taken out, or the browser would refuse both.
  expect(post.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  expect(post.headers.get('access-control-expose-headers')).toBe('mcp-session-id, www-authenticate');
  expect(post.headers.get('mcp-session-id')).toBe('s1');
}

describe('serverPlace', () => {
  it('takes the path and site from the server URL, and falls back to the usual names', () => {
    expect(serverPlace('https://mcp.example.org/v1/mcp')).toEqual({
      path: '/v1/mcp',
      site: 'mcp.example.org',
    });
    expect(serverPlace('http://127.0.0.1:8000/mcp')).toEqual({ path: '/mcp', site: 'http://127.0.0.1:8000' });
    expect(serverPlace('https://h.example/a b;}')).toEqual({ path: '/mcp', site: 'h.example' });
    expect(serverPlace(undefined)).toEqual({ path: '/mcp', site: 'mcp.example.com' });
  });
});

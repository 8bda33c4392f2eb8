/**
 * Redirects and secrets against real servers: real SDK peers behind two recording redirectors on
 * different ports (different origins). Server A is the address the person configured; server B is
 * another origin A points to. What reached B is read from B itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Redirector, type SeenRequest, startRedirector } from '../../e2e/peers/redirector.mjs';
import { type Peer, startPeer } from '../../e2e/support/peers.js';
import { clearEraCache, connect, type McpClient, TransportError } from '../../src/index.js';
import { firstText } from './peer-cases.js';

const TOKEN = 'Bearer tg-test-token-0123456789';
const API_KEY = 'tg-test-api-key-9876543210';
const HEADERS = { Authorization: TOKEN, 'X-Api-Key': API_KEY };

const carriesCredentials = (request: SeenRequest): boolean =>
  request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined;

/** What connect() settled with: a client (closed after the tests) or the error. */
async function settle(promise: Promise<McpClient>, clients: McpClient[]): Promise<McpClient | unknown> {
  return promise.then(
    (client) => {
      clients.push(client);
      return client;
    },
    (reason: unknown) => reason,
  );
}

function asRefusal(outcome: unknown): TransportError {
  expect(outcome).toBeInstanceOf(TransportError);
  return outcome as TransportError;
}

async function refusal(promise: Promise<McpClient>, clients: McpClient[]): Promise<TransportError> {
  return asRefusal(await settle(promise, clients));
}

describe('redirects', () => {
  let streamable: Peer;
  let legacySse: Peer;
  /** B: another origin, a working MCP endpoint (proxying the SDK peer) that records what reached it. */
  let b: Redirector;
  /** A: the configured server; redirects to B, or within itself, depending on the path. */
  let a: Redirector;
  /** A' in front of the 2024-11-05 HTTP+SSE peer, for that transport's same-origin redirect. */
  let aSse: Redirector;
  const clients: McpClient[] = [];

  beforeAll(async () => {
    [streamable, legacySse] = await Promise.all([
      startPeer('sdk1-stateful-sse'),
      startPeer('sdk1-legacy-sse'),
    ]);
    b = await startRedirector({ upstream: streamable.url });
    a = await startRedirector({ upstream: streamable.url, redirectTo: `${b.origin}/mcp` });
    aSse = await startRedirector({ upstream: legacySse.url });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await Promise.all([a?.close(), b?.close(), aSse?.close()]);
    await Promise.all([streamable?.stop(), legacySse?.stop()]);
  });

  it.each([
    ['streamable-http', 307],
    ['streamable-http', 308],
    ['streamable-http', 302],
    ['sse', 307],
    ['auto', 301],
  ] as const)(
    'a cross-origin redirect (%s, HTTP %i) is refused, and B never sees the headers',
    async (transport, status) => {
      clearEraCache();
      const before = b.seen().length;
      const outcome = await settle(
        connect({ url: `${a.origin}/moved/${status}/mcp`, headers: HEADERS, httpTransport: transport }),
        clients,
      );
      // B received nothing at all, so certainly no Authorization or X-Api-Key.
      const atB = b.seen().slice(before);
      expect(atB.filter(carriesCredentials)).toEqual([]);
      expect(atB).toEqual([]);
      const error = asRefusal(outcome);
      expect(error.failure).toBe('bad-endpoint');
      expect(error.message).toContain(
        `${a.origin}/moved/${status}/mcp redirected to another origin (${b.origin}/mcp, HTTP ${status}); ` +
          `Toolgate does not follow it so your headers and tokens stay with ${a.origin}. Use the final URL.`,
      );
      // A, the configured server, was asked, with the headers: that is where they belong.
      const atA = a.seen().filter((request) => request.path.startsWith(`/moved/${status}/`));
      expect(atA.length).toBeGreaterThan(0);
      expect(atA.every((request) => request.headers.authorization === TOKEN)).toBe(true);
    },
  );

  it('B records credentials that do reach it (the check above could fail)', async () => {
    clearEraCache();
    const before = b.seen().length;
    const client = await connect({ url: `${b.origin}/mcp`, headers: HEADERS });
    clients.push(client);
    expect((await client.listTools()).map((tool) => tool.name)).toContain('echo');
    const posts = b
      .seen()
      .slice(before)
      .filter((request) => request.method === 'POST');
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every((request) => request.headers.authorization === TOKEN)).toBe(true);
    expect(posts.every((request) => request.headers['x-api-key'] === API_KEY)).toBe(true);
  });

  it.each([307, 308])(
    'a same-origin redirect (HTTP %i) is followed with the same headers',
    async (status) => {
      clearEraCache();
      const before = a.seen().length;
      const client = await connect({ url: `${a.origin}/same/${status}/mcp`, headers: HEADERS });
      clients.push(client);
      const result = await client.callTool('echo', { message: `via ${status}` });
      expect(firstText(result)).toBe(`Echo: via ${status}`);
      // The server behind A ran the call.
      expect((await streamable.events()).calls).toContainEqual({
        tool: 'echo',
        arguments: { message: `via ${status}` },
      });
      // Every request went to the configured path first, then was re-issued by Toolgate to /mcp,
      // with the same method and credentials.
      const seen = a.seen().slice(before);
      const redirected = seen.filter((request) => request.path === `/same/${status}/mcp`);
      const followed = seen.filter((request) => request.path === '/mcp');
      expect(redirected.length).toBeGreaterThan(0);
      expect(followed.map((request) => request.method)).toEqual(redirected.map((request) => request.method));
      expect(followed.every((request) => request.headers.authorization === TOKEN)).toBe(true);
      expect(followed.every((request) => request.headers['x-api-key'] === API_KEY)).toBe(true);
    },
  );

  it('a same-origin redirect is followed by the 2024-11-05 HTTP+SSE transport', async () => {
    clearEraCache();
    const before = aSse.seen().length;
    const client = await connect({
      url: `${aSse.origin}/same/307/sse`,
      headers: HEADERS,
      httpTransport: 'sse',
    });
    clients.push(client);
    const result = await client.callTool('echo', { message: 'old transport' });
    expect(firstText(result)).toBe('Echo: old transport');
    const streams = aSse
      .seen()
      .slice(before)
      .filter((request) => request.method === 'GET')
      .map((request) => request.path);
    expect(streams).toEqual(['/same/307/sse', '/sse']);
  });

  it('a same-origin 303 on a POST is refused: it would turn the message into a GET', async () => {
    clearEraCache();
    const error = await refusal(
      connect({ url: `${a.origin}/same/303/mcp`, headers: HEADERS, httpTransport: 'streamable-http' }),
      clients,
    );
    expect(error.message).toContain(
      `${a.origin}/same/303/mcp answered HTTP 303, a redirect to ${a.origin}/mcp`,
    );
    expect(error.message).toContain('turns a POST into a GET');
  });

  it('a redirect loop ends with a readable error', async () => {
    clearEraCache();
    // /same/307/same/307/… : every hop lands on another redirect.
    const loop = `${a.origin}${'/same/307'.repeat(8)}/mcp`;
    const error = await refusal(connect({ url: loop, httpTransport: 'streamable-http' }), clients);
    expect(error.message).toMatch(/redirected more than 5 times .*Use the final URL/);
  });

  it('secrets in the server URL stay out of error messages', async () => {
    clearEraCache();
    const url = `${a.origin}/moved/307/mcp?api_key=sk-live-url-secret-42&region=eu`;
    const error = await refusal(
      connect({ url, headers: HEADERS, httpTransport: 'streamable-http' }),
      clients,
    );
    expect(error.message).toContain(
      `${a.origin}/moved/307/mcp?api_key=***&region=eu redirected to another origin`,
    );
    expect(error.message).not.toContain('sk-live-url-secret-42');
    expect(error.url).toBe(`${a.origin}/moved/307/mcp?api_key=***&region=eu`);
    // The server did get the key: redaction is for what people see, not for what is sent.
    expect(a.seen().some((request) => request.path.includes('api_key=sk-live-url-secret-42'))).toBe(true);
  });
});

/**
 * HttpSseTransport (2024-11-05 HTTP+SSE) against hand-written node:http peers on 127.0.0.1, acting out
 * edge cases (foreign endpoints, silent streams, drops). The real SDK servers are covered by the
 * integration tests elsewhere. Assertions check what the server actually received.
 */

import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TransportError } from '../protocol/index.js';
import { type HttpSseOptions, HttpSseTransport } from './http-sse.js';
import { ResponseTooLargeError } from './too-large.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  closed: Promise<void>;
}

type Handler = (request: Seen, response: ServerResponse) => void;

const cleanups: Array<() => Promise<void>> = [];

async function serve(handler: Handler): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
    const request: Seen = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      closed,
    };
    seen.push(request);
    handler(request, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function openSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

function transport(url: string, options: HttpSseOptions = {}) {
  const t = new HttpSseTransport(url, options);
  const got: unknown[] = [];
  const errors: Error[] = [];
  let closes = 0;
  t.onmessage = (message) => got.push(message);
  t.onerror = (error) => errors.push(error);
  t.onclose = () => closes++;
  cleanups.unshift(() => t.close());
  return { t, got, errors, closes: () => closes };
}

async function failureOf(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

/** A minimal 2024-11-05 server: GET /sse names /messages?sessionId=abc; POSTs are answered on the stream. */
function legacyServer(stream: { res?: ServerResponse }): Handler {
  return (req, res) => {
    if (req.method === 'GET') {
      stream.res = res;
      openSse(res);
      res.write('event: endpoint\ndata: /messages?sessionId=abc\n\n');
      return;
    }
    res.writeHead(202);
    res.end('Accepted');
    const message = JSON.parse(req.body) as { id?: number };
    if (message.id !== undefined)
      stream.res?.write(
        `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { echoed: true } })}\n\n`,
      );
  };
}

describe('HttpSseTransport', () => {
  it('waits for the endpoint event, POSTs there, and delivers the answer from the stream', async () => {
    const stream: { res?: ServerResponse } = {};
    const { origin, seen } = await serve(legacyServer(stream));
    const { t, got } = transport(`${origin}/sse`, { headers: { 'X-Api-Key': 'key-123456' } });
    await t.start();
    await t.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await vi.waitFor(() => expect(got).toEqual([{ jsonrpc: '2.0', id: 1, result: { echoed: true } }]), {
      timeout: 5_000,
    });
    expect(seen.map((r) => [r.method, r.url])).toEqual([
      ['GET', '/sse'],
      ['POST', '/messages?sessionId=abc'],
    ]);
    expect(seen[0]?.headers.accept).toBe('text/event-stream');
    expect(seen[0]?.headers['x-api-key']).toBe('key-123456');
    expect(seen[1]?.headers['content-type']).toBe('application/json');
    expect(seen[1]?.headers['x-api-key']).toBe('key-123456');
    expect(JSON.parse(seen[1]?.body ?? '')).toEqual({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  });

  it('refuses an endpoint on another origin and closes the stream', async () => {
    const { origin, seen } = await serve((_req, res) => {
      openSse(res);
      res.write('event: endpoint\ndata: http://evil.example/messages?sessionId=abc\n\n');
    });
    const { t } = transport(`${origin}/sse`);
    const error = await failureOf(t.start());
    expect(error.failure).toBe('bad-endpoint');
    expect(error.message).toContain('http://evil.example');
    await seen[0]?.closed;
    await expect(t.send({ jsonrpc: '2.0', id: 1, method: 'x' })).rejects.toThrow(/not open/);
  });

  it('gives up when no endpoint event arrives in time, naming the URL', async () => {
    const { origin, seen } = await serve((_req, res) => {
      openSse(res);
      res.write(': keep-alive\n\n');
    });
    const url = `${origin}/sse`;
    // Long enough for the stream to open on a busy machine (else it is the 'not-mcp' case below).
    const error = await failureOf(transport(url, { endpointTimeoutMs: 1000 }).t.start());
    // Its own cause, not 'not-mcp': connect() prefers it to the Streamable HTTP refusal it follows.
    expect(error.failure).toBe('no-endpoint');
    expect(error.message).toContain(`${url}: no endpoint announced within the connect timeout (1 s)`);
    expect(error.message).toContain('raise connectTimeoutMs');
    await seen[0]?.closed;
  });

  it('gives up on a GET that never opens its event stream, saying so', async () => {
    const { origin, seen } = await serve(() => undefined);
    const url = `${origin}/sse`;
    const error = await failureOf(transport(url, { endpointTimeoutMs: 100 }).t.start());
    expect(error.failure).toBe('not-mcp');
    expect(error.message).toContain(
      `${url} did not open an event stream within the connect timeout (100 ms)`,
    );
    await seen[0]?.closed;
  });

  it('rejects a start answered with something other than an event stream', async () => {
    const { origin } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const error = await failureOf(transport(`${origin}/sse`).t.start());
    expect(error.failure).toBe('wrong-content-type');
    expect(error.message).toContain(`${origin}/sse`);
  });

  it('rejects a start answered with an HTML error page', async () => {
    const { origin } = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><title>Not Found</title></html>');
    });
    const error = await failureOf(transport(`${origin}/sse`).t.start());
    expect(error.failure).toBe('html-page');
    expect(error.status).toBe(404);
  });

  it('rejects a start whose stream ends before the endpoint event', async () => {
    const { origin } = await serve((_req, res) => {
      openSse(res);
      res.end('data: {}\n\n');
    });
    const error = await failureOf(transport(`${origin}/sse`).t.start());
    expect(error.failure).toBe('not-mcp');
    expect(error.message).toContain('ended before its endpoint event');
  });

  it('reports a dropped stream and closes', async () => {
    const stream: { res?: ServerResponse } = {};
    const { origin } = await serve(legacyServer(stream));
    const { t, errors, closes } = transport(`${origin}/sse`);
    await t.start();
    stream.res?.end();
    await vi.waitFor(() => expect(closes()).toBe(1), { timeout: 5_000 });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TransportError);
    expect(errors[0]?.message).toContain('ended');
    await expect(t.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).rejects.toThrow(/closed/);
  });

  it('close() ends the event stream on the server side', async () => {
    const stream: { res?: ServerResponse } = {};
    const { origin, seen } = await serve(legacyServer(stream));
    const { t, errors, closes } = transport(`${origin}/sse`);
    await t.start();
    await t.close();
    await seen[0]?.closed;
    expect(closes()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('rejects a failed POST without showing the session id in the endpoint query', async () => {
    const { origin } = await serve((req, res) => {
      if (req.method === 'GET') {
        openSse(res);
        res.write('event: endpoint\ndata: /messages?sessionId=s3cr3t-session-id\n\n');
        return;
      }
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('no such session s3cr3t-session-id');
    });
    const { t } = transport(`${origin}/sse`);
    await t.start();
    const error = await failureOf(t.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(error.failure).toBe('http-status');
    expect(error.message).toContain(`${origin}/messages`);
    expect(`${error.message} ${error.bodySnippet}`).not.toContain('s3cr3t-session-id');
  });

  it('counts and reports message events that are not JSON', async () => {
    const { origin } = await serve((_req, res) => {
      openSse(res);
      res.write('event: endpoint\ndata: /messages\n\n');
      res.write('event: message\ndata: {oops\n\n');
      res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/x' })}\n\n`);
    });
    const { t, got, errors } = transport(`${origin}/sse`);
    await t.start();
    await vi.waitFor(() => expect(got).toEqual([{ jsonrpc: '2.0', method: 'notifications/x' }]), {
      timeout: 5_000,
    });
    expect(t.invalidMessages).toBe(1);
    expect((errors[0] as TransportError).failure).toBe('not-mcp');
  });
});

describe('HttpSseTransport bounds', () => {
  /** A stream that names its endpoint and accepts every POST; the test writes on it. */
  function quietServer(stream: { res?: ServerResponse }): Handler {
    return (req, res) => {
      if (req.method === 'GET') {
        stream.res = res;
        openSse(res);
        res.write('event: endpoint\ndata: /messages\n\n');
        return;
      }
      res.writeHead(202);
      res.end();
    };
  }

  it('an event over maxEventBytes fails every waiting call as too large, naming its method, and closes', async () => {
    const stream: { res?: ServerResponse } = {};
    const { origin, seen } = await serve(quietServer(stream));
    const { t, got, closes } = transport(`${origin}/sse`, { limits: { maxEventBytes: 10_000 } });
    const failed: Array<{ id: unknown; error: Error }> = [];
    t.onresponsefailed = (id, error) => failed.push({ id, error });
    await t.start();
    await t.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'big' } });
    await t.send({ jsonrpc: '2.0', id: 8, method: 'tools/list' });
    stream.res?.write(
      `event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"text":"${'x'.repeat(50_000)}"}}\n\n`,
    );
    await vi.waitFor(() => expect(closes()).toBe(1), { timeout: 5_000 });
    expect(failed.map((f) => f.id)).toEqual([7, 8]);
    expect(failed[0]?.error).toBeInstanceOf(ResponseTooLargeError);
    expect(failed[0]?.error.message).toContain('limit 10 KB per event)');
    expect(failed[0]?.error.message).toContain('answered tools/call');
    expect(failed[1]?.error.message).toContain('answered tools/list');
    expect(got).toEqual([]);
    await seen[0]?.closed;
  });

  it('a dropped stream fails the calls still waiting as lost at once, and only those', async () => {
    const stream: { res?: ServerResponse } = {};
    const { origin } = await serve(quietServer(stream));
    const { t, closes } = transport(`${origin}/sse`);
    const lost: Array<{ id: unknown; error: Error }> = [];
    t.onresponselost = (id, error) => lost.push({ id, error });
    await t.start();
    await t.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'answered' } });
    await t.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'waiting' } });
    stream.res?.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })}\n\n`);
    await vi.waitFor(() => expect(closes()).toBe(1), { timeout: 5_000 });
    expect(lost.map((l) => l.id)).toEqual([2]);
    expect(lost[0]?.error.message).toContain('ended before the answer arrived');
    expect(lost[0]?.error.message).toContain('a 2024-11-05 stream cannot be resumed');
  });
});

/**
 * StreamableHttpTransport against hand-written node:http peers on 127.0.0.1. These peers act out edge
 * cases (dropped streams, odd statuses, resumption) that real servers rarely show on demand; the real
 * SDK servers are covered by the integration tests elsewhere. Assertions check what the server
 * actually received wherever the behaviour is on the wire.
 */

import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type JsonRpcMessage, type RequestId, TransportError } from '../protocol/index.js';
import { readSse } from './sse-reader.js';
import { encodeHeaderValue, type StreamableHttpOptions, StreamableHttpTransport } from './streamable-http.js';
import { ResponseTooLargeError } from './too-large.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Resolves when the client closed (or the server ended) this exchange. */
  closed: Promise<void>;
}

type Handler = (request: Seen, response: ServerResponse) => void | Promise<void>;

const servers: Array<() => Promise<void>> = [];

async function serve(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
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
    await handler(request, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function openSse(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
  res.flushHeaders();
}

function event(message: unknown, id?: string): string {
  return `${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(message)}\n\n`;
}

function bodyOf(request: Seen): JsonRpcMessage {
  return JSON.parse(request.body) as JsonRpcMessage;
}

/** A transport whose every callback is recorded. */
function transport(url: string, options: StreamableHttpOptions = {}) {
  const t = new StreamableHttpTransport(url, options);
  const got: unknown[] = [];
  const errors: Error[] = [];
  const lost: Array<{ id: RequestId; error: Error }> = [];
  let closes = 0;
  t.onmessage = (message) => got.push(message);
  t.onerror = (error) => errors.push(error);
  t.onresponselost = (id, error) => lost.push({ id, error });
  t.onclose = () => closes++;
  transports.push(t);
  return { t, got, errors, lost, closes: () => closes };
}

const transports: StreamableHttpTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
});

const call = (id: number, name = 'get_weather'): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: { location: 'Seattle' } },
});
const result = (id: RequestId, text = 'ok') => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text }] },
});
const progress = (token: number, value: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: token, progress: value },
});
const initialize: JsonRpcMessage = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

async function failureOf(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

describe('encodeHeaderValue (spec Value Encoding table)', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ])('%j → %s', (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
  });

  it('keeps inner spaces and punctuation plain, encodes control characters', () => {
    expect(encodeHeaderValue('a b/c:d')).toBe('a b/c:d');
    expect(encodeHeaderValue('tab\there')).toBe(`=?base64?${btoa('tab\there')}?=`);
  });
});

describe('POST exchanges', () => {
  it('delivers an application/json answer and sends the required headers', async () => {
    const { url, seen } = await serve((req, res) =>
      json(res, 200, result((bodyOf(req) as { id: number }).id)),
    );
    const { t, got } = transport(url);
    await t.send(call(7));
    expect(got).toEqual([result(7)]);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe('POST');
    expect(request?.headers.accept).toBe('application/json, text/event-stream');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(bodyOf(request as Seen)).toEqual(call(7));
    // No version header before one is negotiated.
    expect(request?.headers['mcp-protocol-version']).toBeUndefined();
  });

  it('resolves at the headers of an SSE answer and delivers progress, then the result', async () => {
    let finish = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const { url } = await serve(async (_req, res) => {
      openSse(res);
      res.write(event(progress(3, 1)));
      await finished;
      res.end(event(result(3)));
    });
    const { t, got } = transport(url);
    await t.send(call(3));
    // send() returned while the server still holds the result back.
    expect(got).not.toContainEqual(result(3));
    finish();
    await vi.waitFor(() => expect(got).toEqual([progress(3, 1), result(3)]), { timeout: 5_000 });
  });

  it('accepts 202 for a notification', async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(202);
      res.end();
    });
    const { t, got } = transport(url);
    await t.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(seen.map((r) => bodyOf(r))).toEqual([{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect(got).toEqual([]);
  });

  it('captures the session id, sends it afterwards, and DELETEs it on close (405 tolerated)', async () => {
    const { url, seen } = await serve((req, res) => {
      if (req.method === 'DELETE') {
        res.writeHead(405);
        res.end();
      } else if (req.body.includes('"initialize"')) {
        json(res, 200, result(1), { 'mcp-session-id': 'sess-1' });
      } else {
        // A later id must not replace the first one.
        res.writeHead(202, { 'mcp-session-id': 'other' });
        res.end();
      }
    });
    const { t, closes } = transport(url);
    t.setProtocolVersion('2025-11-25');
    await t.send(initialize);
    expect(t.sessionId).toBe('sess-1');
    await t.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await t.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    await t.close();
    expect(seen.map((r) => [r.method, r.headers['mcp-session-id']])).toEqual([
      ['POST', undefined],
      ['POST', 'sess-1'],
      ['POST', 'sess-1'],
      ['DELETE', 'sess-1'],
    ]);
    expect(seen[3]?.headers['mcp-protocol-version']).toBe('2025-11-25');
    expect(closes()).toBe(1);
    expect(t.sessionId).toBeUndefined();
  });

  it('turns 404 to a request with a session into session-expired and forgets the session', async () => {
    const { url, seen } = await serve((req, res) => {
      if (req.body.includes('"initialize"')) json(res, 200, result(1), { 'mcp-session-id': 'sess-2' });
      else
        json(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
    });
    const { t } = transport(url);
    t.setProtocolVersion('2025-11-25');
    await t.send(initialize);
    const error = await failureOf(t.send(call(2)));
    expect(error.failure).toBe('session-expired');
    expect(t.sessionId).toBeUndefined();
    await failureOf(t.send(call(3)));
    expect(seen[2]?.headers['mcp-session-id']).toBeUndefined();
  });

  it('explains an HTML 404 page', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><head><title>Not Found</title></head><body>Cannot POST /</body></html>');
    });
    const { t } = transport(url);
    const error = await failureOf(t.send(call(1)));
    expect(error.failure).toBe('html-page');
    expect(error.status).toBe(404);
    expect(error.message).toContain(url);
    expect(error.message).toContain('HTML page (HTTP 404');
    expect(error.message).toContain('often /mcp');
  });

  it('rejects a 2xx answer of another content type', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello');
    });
    const error = await failureOf(transport(url).t.send(call(1)));
    expect(error.failure).toBe('wrong-content-type');
    expect(error.status).toBe(200);
    expect(error.message).toContain('text/plain');
  });

  it('rejects 2xx JSON that is not JSON-RPC', async () => {
    const { url } = await serve((_req, res) => json(res, 200, { status: 'ok', version: 3 }));
    const error = await failureOf(transport(url).t.send(call(1)));
    expect(error.failure).toBe('not-mcp');
    expect(error.bodySnippet).toContain('"status":"ok"');
  });

  it('reports an application/json answer that lacks the response to the request', async () => {
    const { url } = await serve((_req, res) => json(res, 200, result(999)));
    const { t, got, lost } = transport(url);
    await t.send(call(4));
    expect(got).toEqual([result(999)]);
    expect(lost.map((l) => l.id)).toEqual([4]);
  });

  it('delivers a 400 carrying a JSON-RPC error for the request (modern version negotiation)', async () => {
    const unsupported = {
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2025-11-25'] } },
    };
    const { url } = await serve((_req, res) => json(res, 400, unsupported));
    const { t, got } = transport(url);
    t.setProtocolVersion('2026-07-28');
    await t.send({ jsonrpc: '2.0', id: 5, method: 'server/discover', params: {} });
    expect(got).toEqual([unsupported]);
  });

  it('rejects a 400 whose JSON-RPC error is not for the request, quoting the server', async () => {
    const { url } = await serve((_req, res) =>
      json(res, 400, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'Bad Request: No valid session ID' },
      }),
    );
    const error = await failureOf(transport(url).t.send(call(6)));
    expect(error.failure).toBe('http-status');
    expect(error.status).toBe(400);
    expect(error.message).toContain('Bad Request: No valid session ID (MCP error -32000)');
  });
});

describe('request metadata headers', () => {
  async function headersFor(version: string, message: JsonRpcMessage): Promise<IncomingHttpHeaders> {
    const { url, seen } = await serve((_req, res) => json(res, 200, result(1)));
    const { t } = transport(url, { headers: { 'X-Api-Key': 'key-123456' } });
    t.setProtocolVersion(version);
    await t.send(message, { headers: { 'Mcp-Param-Region': 'us-west1' } });
    return seen[0]?.headers ?? {};
  }

  it('modern: MCP-Protocol-Version, Mcp-Method and Mcp-Name on tools/call', async () => {
    const headers = await headersFor('2026-07-28', call(1));
    expect(headers['mcp-protocol-version']).toBe('2026-07-28');
    expect(headers['mcp-method']).toBe('tools/call');
    expect(headers['mcp-name']).toBe('get_weather');
    expect(headers['mcp-param-region']).toBe('us-west1');
    expect(headers['x-api-key']).toBe('key-123456');
  });

  it('modern: Mcp-Name from params.uri for resources/read', async () => {
    const headers = await headersFor('2026-07-28', {
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/read',
      params: { uri: 'file:///projects/myapp/config.json' },
    });
    expect(headers['mcp-method']).toBe('resources/read');
    expect(headers['mcp-name']).toBe('file:///projects/myapp/config.json');
  });

  it('modern: a non-ASCII prompt name travels as the Base64 sentinel', async () => {
    const headers = await headersFor('2026-07-28', {
      jsonrpc: '2.0',
      id: 1,
      method: 'prompts/get',
      params: { name: 'Hello, 世界' },
    });
    expect(headers['mcp-name']).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
  });

  it('modern: no Mcp-Name where the method has none', async () => {
    const headers = await headersFor('2026-07-28', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(headers['mcp-method']).toBe('tools/list');
    expect(headers['mcp-name']).toBeUndefined();
  });

  it('legacy: version header only, no Mcp-Method or Mcp-Name (CORS allow-lists)', async () => {
    const headers = await headersFor('2025-11-25', call(1));
    expect(headers['mcp-protocol-version']).toBe('2025-11-25');
    expect(headers['mcp-method']).toBeUndefined();
    expect(headers['mcp-name']).toBeUndefined();
  });

  it('modern: ignores a session id the server offers', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 200, result(1), { 'mcp-session-id': 'nope' }));
    const { t } = transport(url);
    t.setProtocolVersion('2026-07-28');
    await t.send(call(1));
    await t.send(call(2));
    expect(t.sessionId).toBeUndefined();
    expect(seen[1]?.headers['mcp-session-id']).toBeUndefined();
  });
});

describe('legacy standalone GET stream', () => {
  it('resolves quietly when the server offers none (405)', async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(405);
      res.end();
    });
    const { t, errors } = transport(url);
    t.setProtocolVersion('2025-11-25');
    await t.openServerStream();
    expect(seen.map((r) => [r.method, r.headers.accept])).toEqual([['GET', 'text/event-stream']]);
    expect(errors).toEqual([]);
  });

  it('opens no GET stream in the modern era', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 200, {}));
    const { t } = transport(url);
    t.setProtocolVersion('2026-07-28');
    await t.openServerStream();
    expect(seen).toEqual([]);
  });

  it('reconnects after the server-given retry with Last-Event-ID, session and version', async () => {
    const first = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
    const second = { jsonrpc: '2.0', method: 'notifications/resources/list_changed' };
    let gets = 0;
    const { url, seen } = await serve((req, res) => {
      if (req.method === 'POST') return json(res, 200, result(1), { 'mcp-session-id': 'sess-g' });
      gets++;
      openSse(res);
      if (gets === 1) res.end(`retry: 20\n${event(first, 'g1')}`);
      else res.write(event(second, 'g2'));
    });
    // A backoff this long would time the test out: only the server's retry can make it pass.
    const { t, got } = transport(url, { limits: { reconnectDelayMs: 60_000 } });
    t.setProtocolVersion('2025-11-25');
    await t.send(initialize);
    await t.openServerStream();
    await vi.waitFor(() => expect(got).toContainEqual(second), { timeout: 5_000 });
    const getRequests = seen.filter((r) => r.method === 'GET');
    expect(getRequests.map((r) => r.headers['last-event-id'])).toEqual([undefined, 'g1']);
    for (const r of getRequests) {
      expect(r.headers['mcp-session-id']).toBe('sess-g');
      expect(r.headers['mcp-protocol-version']).toBe('2025-11-25');
    }
    expect(got).toEqual([result(1), first, second]);
  });

  it('gives up after maxRetries failed reconnections and reports it', async () => {
    let gets = 0;
    const { url, seen } = await serve((_req, res) => {
      gets++;
      if (gets > 1) return json(res, 500, { oops: true });
      openSse(res);
      res.end(event({ jsonrpc: '2.0', method: 'notifications/message', params: {} }, 'x1'));
    });
    const { t, errors } = transport(url, {
      limits: { reconnectDelayMs: 1, minRetryMs: 1, maxReconnects: 2 },
    });
    t.setProtocolVersion('2025-11-25');
    await t.openServerStream();
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 5_000 });
    expect(errors[0]).toBeInstanceOf(TransportError);
    expect(errors[0]?.message).toContain('2 attempts to reopen it failed');
    expect(errors[0]?.message).toContain('HTTP 500');
    expect(seen.filter((r) => r.method === 'GET')).toHaveLength(3);
  });
});

describe('response stream loss and resumption', () => {
  it('legacy: resumes a POST stream with GET + Last-Event-ID after the retry (sse-retry scenario)', async () => {
    let resumed: Seen | undefined;
    const { url, seen } = await serve((req, res) => {
      if (req.method === 'GET') {
        resumed = req;
        openSse(res);
        // Like the conformance server: priming event, the answer, and the stream left open.
        res.write('id: ev-2\ndata: \n\n');
        res.write(event(result(9, 'resumed'), 'ev-3'));
        return;
      }
      if (req.body.includes('"initialize"')) return json(res, 200, result(1), { 'mcp-session-id': 's-r' });
      openSse(res);
      res.end('id: ev-1\nretry: 30\ndata: \n\n');
    });
    const { t, got, lost } = transport(url, { limits: { reconnectDelayMs: 60_000 } });
    t.setProtocolVersion('2025-11-25');
    await t.send(initialize);
    await t.send(call(9));
    await vi.waitFor(() => expect(got).toContainEqual(result(9, 'resumed')), { timeout: 5_000 });
    expect(lost).toEqual([]);
    expect(seen.map((r) => r.method)).toEqual(['POST', 'POST', 'GET']);
    expect(resumed?.headers['last-event-id']).toBe('ev-1');
    expect(resumed?.headers['mcp-session-id']).toBe('s-r');
    // Answered: the client closes the resumed stream the server left open.
    await resumed?.closed;
  });

  it('legacy: a stream that ends without the answer or an event id is lost at once', async () => {
    const { url, seen } = await serve((_req, res) => {
      openSse(res);
      res.end(event(progress(2, 1)));
    });
    const { t, lost } = transport(url, { limits: { reconnectDelayMs: 1 } });
    t.setProtocolVersion('2025-11-25');
    await t.send(call(2));
    await vi.waitFor(() => expect(lost).toHaveLength(1), { timeout: 5_000 });
    expect(lost[0]?.id).toBe(2);
    expect(lost[0]?.error.message).toContain('no event id');
    expect(seen.map((r) => r.method)).toEqual(['POST']);
  });

  it('legacy: gives the request up when resumption keeps failing', async () => {
    const { url, seen } = await serve((req, res) => {
      if (req.method === 'GET') return json(res, 503, {});
      openSse(res);
      res.end('id: e1\nretry: 5\ndata: \n\n');
    });
    const { t, lost } = transport(url, { limits: { maxReconnects: 2 } });
    t.setProtocolVersion('2025-11-25');
    await t.send(call(8));
    await vi.waitFor(() => expect(lost).toHaveLength(1), { timeout: 5_000 });
    expect(lost[0]?.id).toBe(8);
    expect(lost[0]?.error.message).toContain('2 attempts to reopen it failed');
    expect(seen.filter((r) => r.method === 'GET')).toHaveLength(2);
  });

  it('modern: a stream that ends without the answer is lost at once, never resumed', async () => {
    const { url, seen } = await serve((_req, res) => {
      openSse(res);
      // Even an id and a retry must not tempt a modern client into GET resumption.
      res.end(`retry: 1\n${event(progress(4, 1), 'm1')}`);
    });
    const { t, got, lost } = transport(url, { limits: { reconnectDelayMs: 1 } });
    t.setProtocolVersion('2026-07-28');
    await t.send(call(4));
    await vi.waitFor(() => expect(lost).toHaveLength(1), { timeout: 5_000 });
    expect(lost[0]?.id).toBe(4);
    expect(got).toEqual([progress(4, 1)]);
    expect(seen.map((r) => r.method)).toEqual(['POST']);
  });

  it('closes the response stream when the request signal aborts, silently', async () => {
    let stream: Seen | undefined;
    const { url } = await serve((req, res) => {
      stream = req;
      openSse(res);
      res.write(event(progress(5, 1)));
    });
    const { t, got, errors, lost } = transport(url);
    t.setProtocolVersion('2026-07-28');
    const controller = new AbortController();
    await t.send(call(5), { signal: controller.signal });
    await vi.waitFor(() => expect(got).toHaveLength(1), { timeout: 5_000 });
    controller.abort(new Error('user cancelled'));
    await stream?.closed;
    expect(errors).toEqual([]);
    expect(lost).toEqual([]);
  });

  it('counts and reports event data that is not JSON, and keeps reading', async () => {
    const { url } = await serve((_req, res) => {
      openSse(res);
      res.end(`data: {not json\n\n${event(result(6))}`);
    });
    const { t, got, errors } = transport(url);
    await t.send(call(6));
    await vi.waitFor(() => expect(got).toEqual([result(6)]), { timeout: 5_000 });
    expect(t.invalidMessages).toBe(1);
    expect(errors).toHaveLength(1);
    expect((errors[0] as TransportError).failure).toBe('not-mcp');
  });
});

describe('failures a person can act on', () => {
  it('rejects URLs that are not http(s), naming them', () => {
    expect(() => new StreamableHttpTransport('ftp://example.com/mcp')).toThrow(TransportError);
    expect(() => new StreamableHttpTransport('ftp://example.com/mcp')).toThrow(/ftp:\/\/example\.com\/mcp/);
  });

  it('names the URL and the cause when nothing listens on the port', async () => {
    const { url } = await serve(() => undefined);
    await Promise.all(servers.splice(0).map((close) => close()));
    const error = await failureOf(transport(url).t.send(call(1)));
    expect(error.failure).toBe('unreachable');
    expect(error.message).toContain(url);
    expect(error.message).toContain('ECONNREFUSED');
  });

  describe('never shows header values', () => {
    const secret = 'Bearer sekret-token-abcdef';
    const echo = (req: Seen) => JSON.stringify(req.headers);
    const cases: Array<[string, Handler]> = [
      ['an error status', (req, res) => json(res, 500, { echo: echo(req) })],
      [
        'an HTML page',
        (req, res) => {
          res.writeHead(404, { 'content-type': 'text/html' });
          res.end(`<html><title>${echo(req)}</title></html>`);
        },
      ],
      ['JSON that is not MCP', (req, res) => json(res, 200, { echo: echo(req) })],
      [
        'a wrong content type',
        (req, res) => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end(echo(req));
        },
      ],
    ];

    it.each(cases)('in the error for %s', async (_name, handler) => {
      const { url, seen } = await serve(handler);
      const error = await failureOf(transport(url, { headers: { Authorization: secret } }).t.send(call(1)));
      // The server did get (and echo) the value; the error must not carry it anywhere.
      expect(seen[0]?.headers.authorization).toBe(secret);
      for (const text of [error.message, error.bodySnippet ?? '', String(error.stack)])
        expect(text).not.toContain('sekret-token-abcdef');
    });

    it('in the error for an unreachable server', async () => {
      const { url } = await serve(() => undefined);
      await Promise.all(servers.splice(0).map((close) => close()));
      const error = await failureOf(transport(url, { headers: { Authorization: secret } }).t.send(call(1)));
      expect(`${error.message} ${String(error.stack)}`).not.toContain('sekret');
    });

    it('in the TypeError for a header value HTTP refuses', () => {
      let error: unknown;
      try {
        new StreamableHttpTransport('http://127.0.0.1:1/mcp', { headers: { 'X-Key': 'sekret\n1' } });
      } catch (thrown) {
        error = thrown;
      }
      // Read from the one error thrown: the test fails if the constructor stops refusing the header.
      expect(error).toBeInstanceOf(TypeError);
      expect((error as TypeError).message).toContain('X-Key');
      expect((error as TypeError).message).not.toContain('sekret');
    });
  });
});

const MB = 1024 * 1024;

/** The transport of transport(), also recording answers that failed (over a cap). */
function capped(url: string, options: StreamableHttpOptions) {
  const recorded = transport(url, options);
  const failed: Array<{ id: RequestId; error: Error }> = [];
  recorded.t.onresponsefailed = (id, error) => failed.push({ id, error });
  return { ...recorded, failed };
}

/** Writes `bytes` of filler in 64 KB chunks, waiting for the client, stopping when it goes away. */
async function writeFiller(
  res: ServerResponse,
  bytes: number,
): Promise<{ written: number; finished: boolean }> {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let written = 0;
  while (written < bytes) {
    if (res.destroyed) return { written, finished: false };
    const flushed = res.write(chunk);
    written += chunk.length;
    if (!flushed)
      await new Promise((resolve) => {
        res.once('drain', resolve);
        res.once('close', resolve);
      });
  }
  return { written, finished: !res.destroyed };
}

describe('bounded reading', () => {
  it('fails a JSON answer that grows past maxBodyBytes at the cap, and the server cannot finish writing it', async () => {
    let outcome: Promise<{ written: number; finished: boolean }> | undefined;
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"');
      outcome = writeFiller(res, 40 * MB).then((done) => {
        if (done.finished) res.end('"}]}}');
        return done;
      });
    });
    const { t, got } = transport(url, { limits: { maxBodyBytes: MB } });
    const error = await t.send(call(1)).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error?.message).toContain('response too large (over 1 MB, limit 1 MB)');
    expect(error?.message).toContain(`${url} answered tools/call`);
    expect(got).toEqual([]);
    const done = await outcome;
    expect(done?.finished).toBe(false);
    expect(done?.written).toBeLessThan(40 * MB);
  });

  it('refuses a declared Content-Length over the cap before reading the body', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(5 * MB) });
      void writeFiller(res, 5 * MB);
    });
    const { t } = transport(url, { limits: { maxBodyBytes: MB } });
    await expect(t.send(call(1))).rejects.toThrow('response too large (5 MB, limit 1 MB)');
  });

  it('fails the request whose SSE event outgrows maxEventBytes, through onresponsefailed, and closes its stream', async () => {
    let stream: Seen | undefined;
    const { url } = await serve((req, res) => {
      stream = req;
      openSse(res);
      res.write(event(progress(3, 1)));
      res.write('data: {"jsonrpc":"2.0","id":3,"result":{"text":"');
      void writeFiller(res, 10 * MB);
    });
    const { t, got, failed, lost } = capped(url, { limits: { maxEventBytes: 100_000 } });
    await t.send(call(3));
    await vi.waitFor(() => expect(failed).toHaveLength(1), { timeout: 5_000 });
    expect(failed[0]?.id).toBe(3);
    expect(failed[0]?.error.message).toContain(
      'response too large (an event of over 98 KB, limit 98 KB per event)',
    );
    // What came before the oversized event was delivered; nothing of that event was.
    expect(got).toEqual([progress(3, 1)]);
    expect(lost).toEqual([]);
    await stream?.closed;
  });

  it("counts a request's whole stream against maxBodyBytes, resumed connections included", async () => {
    const padding = 'p'.repeat(600);
    const note = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: padding },
    };
    const { url, seen } = await serve((req, res) => {
      openSse(res);
      res.end(`retry: 1\n${event(note, req.method === 'GET' ? 'second' : 'first')}`);
    });
    const { t, got, failed, lost } = capped(url, { limits: { maxBodyBytes: 1_000, minRetryMs: 1 } });
    t.setProtocolVersion('2025-11-25');
    await t.send(call(4));
    await vi.waitFor(() => expect(failed).toHaveLength(1), { timeout: 5_000 });
    expect(failed[0]?.error.message).toContain('in its event stream, limit 1 KB');
    expect(got).toEqual([note]);
    expect(lost).toEqual([]);
    expect(seen.map((r) => r.method)).toEqual(['POST', 'GET']);
  });

  it('reports an oversized event on the standalone stream and does not reopen it', async () => {
    const { url, seen } = await serve((req, res) => {
      if (req.method === 'POST') return json(res, 200, result(1), { 'mcp-session-id': 's-big' });
      openSse(res);
      res.write(`id: 1\nretry: 1\ndata: ${'x'.repeat(5_000)}\n\n`);
    });
    const { t, got, errors } = transport(url, { limits: { maxEventBytes: 1_000, minRetryMs: 1 } });
    t.setProtocolVersion('2025-11-25');
    await t.send(initialize);
    await t.openServerStream();
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 5_000 });
    expect(errors[0]?.message).toContain('sent an event over the limit of 1 KB');
    expect(got).toEqual([result(1)]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.filter((r) => r.method === 'GET')).toHaveLength(1);
  });
});

describe('legacy sessions by the specification', () => {
  it.each([
    ['has space', 'character 4 is a space (U+0020)'],
    ['x'.repeat(1_025), 'it is 1025 characters long'],
    ['tab\there', 'a control character (U+0009)'],
  ])('refuses the session id %#, neither storing nor showing it', async (id, reason) => {
    const { url, seen } = await serve((_req, res) => json(res, 200, result(1), { 'mcp-session-id': id }));
    const { t } = transport(url);
    const error = await failureOf(t.send(initialize));
    expect(error.failure).toBe('not-mcp');
    expect(error.message).toContain('assigned an MCP session id Toolgate cannot use');
    expect(error.message).toContain(reason);
    expect(error.message).not.toContain(id);
    expect(t.sessionId).toBeUndefined();
    expect(seen).toHaveLength(1);
  });

  it('accepts a session id of 1024 visible ASCII characters', async () => {
    const id = '!~'.repeat(512);
    const { url } = await serve((_req, res) => json(res, 200, result(1), { 'mcp-session-id': id }));
    const { t } = transport(url);
    await t.send(initialize);
    expect(t.sessionId).toBe(id);
  });

  /** A server that hands out sessions and answers 404 to one whenever `forget()` says so. */
  async function forgetful(forget: () => boolean) {
    let issued = 0;
    return serve((req, res) => {
      if (req.headers['mcp-session-id'] && forget())
        return json(res, 404, {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32001, message: 'Session not found' },
        });
      const message = bodyOf(req) as { id?: number; method?: string };
      if (message.method === 'initialize')
        return json(res, 200, result(message.id ?? 0), { 'mcp-session-id': `s${++issued}` });
      return json(res, 200, result(message.id ?? 0));
    });
  }

  it('gives a server that forgets every session 3 new ones in a row, then fails for good and sends nothing more', async () => {
    const { url, seen } = await forgetful(() => true);
    const { t } = transport(url);
    t.setProtocolVersion('2025-11-25');
    for (let restart = 0; restart < 3; restart++) {
      await t.send(initialize);
      expect((await failureOf(t.send(call(2)))).failure).toBe('session-expired');
    }
    await t.send(initialize);
    const last = await failureOf(t.send(call(2)));
    expect(last.failure).toBe('http-status');
    expect(last.message).toContain(
      'forgot the MCP session again (HTTP 404) after Toolgate started 3 new sessions',
    );
    expect(t.failure).toBe(last);
    const sent = seen.length;
    await expect(t.send(initialize)).rejects.toBe(last);
    expect(seen).toHaveLength(sent);
  });

  it('starts counting again after a request succeeds in a session', async () => {
    let forgetting = true;
    const { url } = await forgetful(() => forgetting);
    const { t } = transport(url, { limits: { maxSessionRestarts: 1 } });
    t.setProtocolVersion('2025-11-25');
    await t.send(initialize);
    expect((await failureOf(t.send(call(2)))).failure).toBe('session-expired');
    await t.send(initialize);
    forgetting = false;
    await t.send(call(3));
    forgetting = true;
    expect((await failureOf(t.send(call(4)))).failure).toBe('session-expired');
    expect(t.failure).toBeUndefined();
  });

  it('after a lost session the next request says so at once instead of going out without one', async () => {
    let first = true;
    const { url, seen } = await forgetful(() => {
      const forget = first;
      first = false;
      return forget;
    });
    const { t } = transport(url);
    t.setProtocolVersion('2025-11-25');
    await t.send(initialize);
    expect((await failureOf(t.send(call(2)))).failure).toBe('session-expired');
    expect((await failureOf(t.send(call(3)))).failure).toBe('session-expired');
    expect(seen).toHaveLength(2);
  });
});

describe('bounded reconnects', () => {
  it('a priming event is not progress: a server that drops every stream is given up after maxReconnects', async () => {
    const { url, seen } = await serve((_req, res) => {
      openSse(res);
      res.end('id: again\nretry: 0\ndata: \n\n');
    });
    // Empty streams alone never end it here: only maxReconnects can, so a reopened stream that
    // opened fine but brought nothing must count as a failed attempt (no reset on a good GET).
    const { t, lost } = transport(url, {
      limits: { maxReconnects: 3, maxEmptyStreams: 100, minRetryMs: 1, maxReconnectDelayMs: 5 },
    });
    t.setProtocolVersion('2025-11-25');
    await t.send(call(5));
    await vi.waitFor(() => expect(lost).toHaveLength(1), { timeout: 5_000 });
    expect(lost[0]?.error.message).toContain('3 attempts to reopen it failed');
    expect(seen.map((r) => r.method)).toEqual(['POST', 'GET', 'GET', 'GET']);
  });

  it('`retry: 0` and closed at once, every time: given up after maxEmptyStreams, before maxReconnects, saying why', async () => {
    const { url, seen } = await serve((_req, res) => {
      openSse(res);
      res.end('id: again\nretry: 0\ndata: \n\n');
    });
    const { t, lost } = transport(url, {
      limits: { maxReconnects: 100, maxEmptyStreams: 2, minRetryMs: 1, maxReconnectDelayMs: 5 },
    });
    t.setProtocolVersion('2025-11-25');
    await t.send(call(5));
    await vi.waitFor(() => expect(lost).toHaveLength(1), { timeout: 5_000 });
    expect(lost[0]?.error.message).toContain(
      '2 times in a row the server let Toolgate reopen it and closed it at once without sending anything ' +
        '(it asked to be reconnected after 0 ms), so Toolgate stopped trying',
    );
    expect(lost[0]?.error.message).toContain('tell its maintainer');
    // The POST's own stream may end after its priming event (the spec's polling): only reopened ones count.
    expect(seen.map((r) => r.method)).toEqual(['POST', 'GET', 'GET']);
  });

  it('a reopened stream that brings a message starts the count of empty ones again', async () => {
    let gets = 0;
    const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } };
    const { url, seen } = await serve((req, res) => {
      openSse(res);
      if (req.method === 'GET') gets++;
      // GET 2 carries a message; every other stream only its priming event.
      res.end(gets === 2 ? event(note, `e${gets}`) : `id: e${gets}\nretry: 0\ndata: \n\n`);
    });
    const { t, lost } = transport(url, {
      limits: { maxReconnects: 100, maxEmptyStreams: 2, minRetryMs: 1, maxReconnectDelayMs: 5 },
    });
    t.setProtocolVersion('2025-11-25');
    await t.send(call(5));
    await vi.waitFor(() => expect(lost).toHaveLength(1), { timeout: 5_000 });
    // GET 1 empty, GET 2 a message (count back to 0), GETs 3 and 4 empty: given up.
    expect(seen.map((r) => r.method)).toEqual(['POST', 'GET', 'GET', 'GET', 'GET']);
  });

  it('the server-to-client stream, opened and closed empty for ever, is given up too, saying notifications stop', async () => {
    const { url, seen } = await serve((_req, res) => {
      openSse(res);
      res.end('id: s\nretry: 0\ndata: \n\n');
    });
    const { t, errors } = transport(url, {
      limits: { maxReconnects: 100, maxEmptyStreams: 2, minRetryMs: 1, maxReconnectDelayMs: 5 },
    });
    t.setProtocolVersion('2025-11-25');
    await t.openServerStream();
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 5_000 });
    expect(errors[0]?.message).toContain('closed it at once without sending anything');
    expect(errors[0]?.message).toContain('server notifications no longer arrive');
    expect(seen.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
  });
});

describe('readSse', () => {
  function streamOf(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
    return new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
  }

  it('reassembles events and UTF-8 split across chunks, reports retry, drops a cut-off event', async () => {
    const bytes = new TextEncoder().encode('retry: 250\nid: 1\ndata: {"name":"世界"}\n\ndata: cut off');
    const split = bytes.indexOf(0xe4) + 1; // inside the first multi-byte character
    const events: Array<{ id?: string | undefined; data: string }> = [];
    let retry = 0;
    await readSse(streamOf(bytes.slice(0, split), bytes.slice(split)), {
      onEvent: (e) => events.push({ id: e.id, data: e.data }),
      onRetry: (ms) => {
        retry = ms;
      },
    });
    expect(events).toEqual([{ id: '1', data: '{"name":"世界"}' }]);
    expect(retry).toBe(250);
  });

  it('rejects an event larger than the limit instead of buffering without end', async () => {
    const huge = new TextEncoder().encode(`data: ${'x'.repeat(2_000)}`);
    await expect(
      readSse(streamOf(huge), { onEvent: () => undefined }, { maxEventBytes: 1_000 }),
    ).rejects.toThrow(/exceeded 1000/);
  });
});

describe('when the event stream reader cannot load', () => {
  // A test double for a lost chunk: stream-follow.ts fails to import, as when the page's own server
  // is out of reach; no real part can make a dynamic import fail on demand.
  afterEach(() => {
    vi.doUnmock('./stream-follow.js');
    vi.resetModules();
  });

  it("reports the request's answer lost with a readable reason, then loads the reader again for the next stream", async () => {
    const { url } = await serve((request, res) => {
      const id = (bodyOf(request) as { id: RequestId }).id;
      openSse(res);
      res.end(event(result(id, `answer ${id}`)));
    });
    vi.resetModules();
    vi.doMock('./stream-follow.js', () => {
      throw new Error('chunk failed to load');
    });
    const fresh = await import('./streamable-http.js');
    const t = new fresh.StreamableHttpTransport(`${url}?api_key=sk-hidden-value`);
    transports.push(t);
    const got: unknown[] = [];
    const lost: Array<{ id: RequestId; error: Error }> = [];
    t.onmessage = (message) => got.push(message);
    t.onresponselost = (id, error) => lost.push({ id, error });

    await t.send(call(1));
    await vi.waitFor(() => expect(lost).toHaveLength(1));
    expect(lost[0]?.id).toBe(1);
    expect(lost[0]?.error.message).toMatch(
      /^the response stream from http:\/\/127\.0\.0\.1:\d+\/mcp\?api_key=\*\*\* could not be read: Toolgate could not load its event stream reader \(.+\)$/,
    );
    expect(got).toEqual([]);

    vi.doUnmock('./stream-follow.js');
    await t.send(call(2));
    await vi.waitFor(() => expect(got).toEqual([result(2, 'answer 2')]));
    expect(lost).toHaveLength(1);
  });
});

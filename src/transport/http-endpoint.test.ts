/**
 * What both HTTP transports share about their server, on its own. `fetch` here is a test double
 * (a function returning made-up Responses or failing like a closed port); the transports' own tests
 * run the same paths against node:http peers.
 */
import { describe, expect, it } from 'vitest';
import { redactUrl, redactUrlsInText, secretsInUrl, TransportError } from '../protocol/index.js';
import { HttpEndpoint, openRequestLine } from './http-endpoint.js';

const API_KEY = 'key-0123456789abcdef';

describe('HttpEndpoint', () => {
  it('refuses a bad address or header before anything is sent', () => {
    expect(() => new HttpEndpoint('http://example.com/mcp')).toThrow(/plain http/);
    expect(() => new HttpEndpoint('https://example.com/mcp', { headers: { 'X-Key': 'a\nb' } })).toThrow(
      /header "X-Key"/,
    );
  });

  it('keeps header values and URL secrets out of what failure messages may say', () => {
    const http = new HttpEndpoint(
      `https://example.com/mcp?api_key=${API_KEY}`,
      { headers: { Authorization: 'Bearer tok-0123456789' } },
      { redactUrl, redactUrlsInText, secretsInUrl },
    );
    const context = http.context({ 'X-Extra': 'extra-0123456789' }, ['session-0123456789']);
    expect(context.url).not.toContain(API_KEY);
    expect(context.headerNames).toEqual(['Authorization', 'X-Extra']);
    expect(context.secrets).toEqual(
      expect.arrayContaining(['Bearer tok-0123456789', 'extra-0123456789', API_KEY, 'session-0123456789']),
    );
    expect(http.redactMessage(`failed: ${API_KEY} and tok-0123456789`, redactUrlsInText)).not.toMatch(
      /0123456789/,
    );
  });

  it('refuses to start without the URL rule for an address that may carry a secret', () => {
    for (const url of ['https://example.com/mcp?api_key=k', 'https://example.com/@team/mcp'])
      expect(() => new HttpEndpoint(url)).toThrow(/needs the URL secret rule/);
    expect(new HttpEndpoint('https://example.com/mcp?plain').label).toBe('https://example.com/mcp?plain');
  });

  it('explains a network failure, and says nothing when the request was aborted', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    const http = new HttpEndpoint('http://127.0.0.1:9/mcp', {
      fetch: async () => {
        throw refused;
      },
    });
    const error = await http
      .fetch({ method: 'POST', signal: new AbortController().signal }, http.context())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).failure).toBe('unreachable');
    const aborted = new AbortController();
    aborted.abort();
    expect(await http.fetch({ method: 'POST', signal: aborted.signal }, http.context())).toBeUndefined();
  });

  it('accepts only an event stream as the answer to a GET', async () => {
    const http = new HttpEndpoint('https://example.com/sse');
    const page = new Response('<html><title>Login</title></html>', {
      headers: { 'content-type': 'text/html' },
    });
    await expect(http.eventStream(page, http.context())).rejects.toMatchObject({ failure: 'html-page' });
    const denied = new Response('nope', { status: 403 });
    await expect(http.eventStream(denied, http.context())).rejects.toMatchObject({ failure: 'http-status' });
    const stream = new Response('data: {}\n\n', { headers: { 'content-type': 'text/event-stream' } });
    expect(await http.eventStream(stream, http.context())).toBeInstanceOf(ReadableStream);
  });
});

describe('openRequestLine', () => {
  it("ties a request to its caller's signal and to close(), and unties it on release", () => {
    const live = new Set<AbortController>();
    const caller = new AbortController();
    let told = 0;
    const line = openRequestLine(caller.signal, live, () => told++);
    expect(line && live.has(line.controller)).toBe(true);
    caller.abort(new Error('gone'));
    expect(line?.controller.signal.aborted).toBe(true);
    expect(told).toBe(1);
    line?.release();
    expect(live.size).toBe(0);
    expect(openRequestLine(caller.signal, live)).toBeUndefined();
  });
});

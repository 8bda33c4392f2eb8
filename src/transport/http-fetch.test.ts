/**
 * Which server addresses the HTTP transports accept. Redirects are proven against real servers in
 * test/integration/redirects.test.ts; here, plain http to another machine is refused before
 * anything is sent, which no real server here can show (there is no non-loopback host to reach),
 * so the "nothing was sent" part uses a fetch that records what it was asked to do.
 */
import { describe, expect, it } from 'vitest';
import { connect } from '../client/index.js';
import { redactUrl, TransportError } from '../protocol/index.js';
import { checkServerUrl, isLoopbackHost } from './http-fetch.js';
import { HttpSseTransport } from './http-sse.js';
import { StreamableHttpTransport } from './streamable-http.js';
import { StreamableHttpCore, streamableHttpFor } from './streamable-http-core.js';

function refusalOf(run: () => unknown): TransportError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(TransportError);
    return error as TransportError;
  }
  throw new Error('expected a refusal');
}

describe('checkServerUrl', () => {
  it('accepts https anywhere and http on this machine only', () => {
    for (const url of [
      'https://mcp.example.com/mcp',
      'http://localhost:8000/mcp',
      'http://127.0.0.1:3000/mcp',
      'http://127.8.9.10/mcp',
      'http://[::1]:8000/mcp',
      // Spellings the URL parser normalizes to loopback addresses.
      'http://LOCALHOST/mcp',
      'http://127.1/mcp',
      'http://[0:0:0:0:0:0:0:1]/mcp',
    ])
      expect(checkServerUrl(url, redactUrl).href).toBe(new URL(url).href);
  });

  it('refuses plain http to another machine with a readable reason and the https address', () => {
    for (const url of [
      'http://mcp.example.com/mcp',
      'http://192.168.1.20:8000/mcp',
      'http://10.0.0.5/mcp',
      'http://localhost.example.com/mcp',
      'http://128.0.0.1/mcp',
      'http://[::2]/mcp',
    ]) {
      const error = refusalOf(() => checkServerUrl(url, redactUrl));
      expect(error.failure).toBe('bad-endpoint');
      expect(error.message).toContain(`${url} uses plain http to another machine`);
      expect(error.message).toContain(`use https (${url.replace('http:', 'https:')})`);
    }
  });

  it('hides URL secrets in every refusal', () => {
    const http = refusalOf(() =>
      checkServerUrl('http://mcp.example.com/mcp?api_key=sk-abcdef123', redactUrl),
    );
    expect(http.message).not.toContain('sk-abcdef123');
    expect(http.message).toContain('http://mcp.example.com/mcp?api_key=***');
    expect(http.url).toBe('http://mcp.example.com/mcp?api_key=***');
    const invalid = refusalOf(() => checkServerUrl('https://exa mple.com/mcp?token=tok-secret-1', redactUrl));
    expect(invalid.message).toContain('is not a valid URL');
    expect(invalid.message).not.toContain('tok-secret-1');
    const userInfo = refusalOf(() =>
      checkServerUrl('https://alice:hunter2-pass@mcp.example.com/mcp', redactUrl),
    );
    expect(userInfo.message).not.toContain('hunter2-pass');
  });

  it('names loopback hosts as URL.hostname spells them', () => {
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('127.255.255.255')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('127.0.0.1.example.com')).toBe(false);
    expect(isLoopbackHost('sub.localhost')).toBe(false);
  });
});

describe('the HTTP transports', () => {
  it('refuse plain http to another machine when they are made, for both transports', () => {
    expect(refusalOf(() => new StreamableHttpTransport('http://mcp.example.com/mcp')).failure).toBe(
      'bad-endpoint',
    );
    expect(refusalOf(() => new HttpSseTransport('http://mcp.example.com/sse')).failure).toBe('bad-endpoint');
  });

  it("connect()'s transport carries the URL rule exactly when its address may hold a secret", async () => {
    // Without `@` or `=` the rule has nothing to hide, so the transport made without it is the same.
    const plain = await streamableHttpFor(new URL('https://mcp.example.com/mcp/path'), {});
    expect(plain).toBeInstanceOf(StreamableHttpCore);
    expect(plain).not.toBeInstanceOf(StreamableHttpTransport);
    expect(plain.label).toBe('https://mcp.example.com/mcp/path');
    const secret = await streamableHttpFor(new URL('https://mcp.example.com/mcp?token=tok-123456&x=1'), {});
    expect(secret).toBeInstanceOf(StreamableHttpTransport);
    expect(secret.label).toBe('https://mcp.example.com/mcp?token=***&x=1');
    const inPath = await streamableHttpFor(new URL('https://mcp.example.com/@team/mcp'), {});
    expect(inPath).toBeInstanceOf(StreamableHttpTransport);
    expect(inPath.label).toBe('https://mcp.example.com/@team/mcp');
  });

  it('show the URL without its secrets in their label', () => {
    const transport = new StreamableHttpTransport('https://mcp.example.com/mcp?token=tok-123456&x=1');
    expect(transport.label).toBe('https://mcp.example.com/mcp?token=***&x=1');
    expect(new HttpSseTransport('https://mcp.example.com/sse?key=k-123456').label).toBe(
      'https://mcp.example.com/sse?key=***',
    );
  });

  it('connect() refuses plain http to another machine before sending anything', async () => {
    const asked: string[] = [];
    const recordingFetch: typeof fetch = async (input) => {
      asked.push(String(input));
      return new Response('{}', { status: 500 });
    };
    for (const httpTransport of ['auto', 'streamable-http', 'sse'] as const) {
      const error = await connect({
        url: 'http://mcp.example.com/mcp?api_key=sk-zyxwvu987',
        headers: { Authorization: 'Bearer never-sent-123' },
        fetch: recordingFetch,
        httpTransport,
      }).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(TransportError);
      expect((error as TransportError).message).toContain('use https');
      expect((error as TransportError).message).not.toContain('sk-zyxwvu987');
    }
    expect(asked).toEqual([]);
  });
});

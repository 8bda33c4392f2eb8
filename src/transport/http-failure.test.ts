/**
 * The failure messages on their own: causes, advice and redaction. Pure functions, no servers; the
 * transports' tests check that real exchanges reach them (hand-written node:http peers there, real SDK
 * servers in the integration tests elsewhere).
 */

import { afterEach, describe, expect, it, vi } from 'vitest';
import { TransportError } from '../protocol/index.js';
import {
  assertValidHeaders,
  type FailureContext,
  mediaTypeOf,
  parseHttpUrl,
  redact,
  rpcErrorIn,
} from './http-failure.js';
import { networkFailure, notMcp, snippet, statusFailure, wrongContentType } from './http-failure-messages.js';

const SECRET = 'Bearer tok-0123456789abcdef';
const context: FailureContext = {
  url: 'https://mcp.example.com/mcp',
  headerNames: ['Authorization', 'X-Api-Key'],
  secrets: [SECRET, 'key-abcdefgh'],
};

afterEach(() => {
  vi.unstubAllGlobals();
});

function fetchFailed(cause?: unknown): TypeError {
  return new TypeError('fetch failed', cause === undefined ? undefined : { cause });
}

function withCode(code: string): Error {
  return Object.assign(new Error(`connect ${code}`), { code });
}

describe('networkFailure', () => {
  it('names both likely causes and the CORS headers to allow when fetch gives no detail', () => {
    const error = networkFailure(context, fetchFailed());
    expect(error).toBeInstanceOf(TransportError);
    expect(error.failure).toBe('cors-or-network');
    expect(error.message).toContain('https://mcp.example.com/mcp');
    expect(error.message).toContain('down or unreachable');
    expect(error.message).toContain('Access-Control-Allow-Origin');
    expect(error.message).toContain(
      'Access-Control-Allow-Headers: content-type, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, last-event-id, authorization, x-api-key',
    );
    expect(error.message).toContain('Access-Control-Expose-Headers: mcp-session-id');
    expect(error.message).not.toContain('tok-0123456789abcdef');
    expect(error.message).not.toContain('key-abcdefgh');
  });

  it("names this page's origin in a browser, and mixed content for a plain-http server", () => {
    vi.stubGlobal('location', { origin: 'https://app.example', protocol: 'https:' });
    const remote = networkFailure({ ...context, url: 'http://mcp.example.com/mcp' }, fetchFailed());
    expect(remote.message).toContain('Access-Control-Allow-Origin: https://app.example');
    expect(remote.message).toContain('mixed content');
    // Browsers let secure pages call loopback servers over http.
    const local = networkFailure({ ...context, url: 'http://127.0.0.1:3000/mcp' }, fetchFailed());
    expect(local.message).not.toContain('mixed content');
  });

  it('explains local network access when a public page cannot reach a loopback or private server', () => {
    vi.stubGlobal('location', { origin: 'https://app.example', protocol: 'https:' });
    for (const url of ['http://127.0.0.1:3000/mcp', 'http://192.168.1.20/mcp', 'http://10.0.0.5/mcp'])
      expect(networkFailure({ ...context, url }, fetchFailed()).message).toContain('local network access');
    expect(networkFailure(context, fetchFailed()).message).not.toContain('local network access');
    // A page that is itself local is not subject to the rule.
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:5174', protocol: 'http:' });
    const local = networkFailure({ ...context, url: 'http://127.0.0.1:3000/mcp' }, fetchFailed());
    expect(local.message).not.toContain('local network access');
  });

  it.each([
    ['ECONNREFUSED', 'is the MCP server running'],
    ['ENOTFOUND', 'could not be found'],
    ['EHOSTUNREACH', 'unreachable'],
  ])('%s in the cause means unreachable', (code, advice) => {
    const error = networkFailure(context, fetchFailed(withCode(code)));
    expect(error.failure).toBe('unreachable');
    expect(error.message).toContain(code);
    expect(error.message).toContain(advice);
  });

  it('finds the code inside an AggregateError cause (one error per address tried)', () => {
    const cause = new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'all failed');
    expect(networkFailure(context, fetchFailed(cause)).failure).toBe('unreachable');
  });

  it('keeps other codes as network failures but mentions them', () => {
    const error = networkFailure(context, fetchFailed(withCode('UNABLE_TO_VERIFY_LEAF_SIGNATURE')));
    expect(error.failure).toBe('cors-or-network');
    expect(error.message).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });
});

describe('statusFailure', () => {
  it('recognises an HTML page by its content type and quotes its title', () => {
    const error = statusFailure(context, 404, 'text/html', '<html><title>Not Found</title></html>');
    expect(error.failure).toBe('html-page');
    expect(error.status).toBe(404);
    expect(error.message).toBe(
      'https://mcp.example.com/mcp answered with an HTML page (HTTP 404, "Not Found"), not MCP: ' +
        "check the URL points at the server's MCP endpoint, often /mcp",
    );
  });

  it('recognises an HTML page served with a wrong content type', () => {
    expect(statusFailure(context, 502, 'text/plain', '  <!doctype html><p>bad gateway').failure).toBe(
      'html-page',
    );
  });

  it('quotes a JSON-RPC error body and advises per status', () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32001, message: 'Unauthorized' },
    });
    const error = statusFailure(context, 401, 'application/json', body);
    expect(error.failure).toBe('http-status');
    expect(error.status).toBe(401);
    expect(error.message).toContain('HTTP 401: Unauthorized (MCP error -32001)');
    expect(error.message).toContain('add an Authorization header');
  });

  it('keeps a short, single-line snippet of other bodies', () => {
    const error = statusFailure(context, 500, 'text/plain', `boom\n${'x'.repeat(1_000)}`);
    expect(error.bodySnippet?.startsWith('boom x')).toBe(true);
    expect(error.bodySnippet?.length).toBeLessThanOrEqual(301);
    expect(error.message).toContain('logs');
  });

  it('redacts header values a server echoed into its body', () => {
    const error = statusFailure(context, 500, 'text/plain', `you sent ${SECRET} and tok-0123456789abcdef`);
    expect(`${error.message} ${error.bodySnippet}`).not.toContain('tok-0123456789abcdef');
    expect(error.bodySnippet).toContain('[redacted]');
  });
});

describe('other answers that are not MCP', () => {
  it('wrong content type names what came and what was expected', () => {
    const error = wrongContentType(context, 200, 'text/plain', 'hi', [
      'application/json',
      'text/event-stream',
    ]);
    expect(error.failure).toBe('wrong-content-type');
    expect(error.message).toContain(
      'Content-Type text/plain, expected application/json or text/event-stream',
    );
  });

  it('wrong content type that is an HTML page says so', () => {
    expect(wrongContentType(context, 200, 'text/html', '<html></html>', ['text/event-stream']).failure).toBe(
      'html-page',
    );
  });

  it('not-mcp carries the reason and a snippet', () => {
    const error = notMcp(context, 200, '{"hello":1}', 'no "jsonrpc": "2.0" message');
    expect(error.failure).toBe('not-mcp');
    expect(error.message).toContain('no "jsonrpc": "2.0" message');
    expect(error.bodySnippet).toBe('{"hello":1}');
  });
});

describe('helpers', () => {
  it('redact leaves short values alone (they are likely ordinary words)', () => {
    expect(redact('value abc here', ['abc'])).toBe('value abc here');
    expect(redact('token tok-0123456789abcdef', [SECRET])).toBe('token [redacted]');
  });

  it('snippet collapses whitespace', () => {
    expect(snippet('a\n\n  b\tc', [])).toBe('a b c');
  });

  it('rpcErrorIn finds JSON-RPC errors only', () => {
    expect(rpcErrorIn('{"jsonrpc":"2.0","id":3,"error":{"code":-32022,"message":"no"}}')).toMatchObject({
      id: 3,
      code: -32022,
      message: 'no',
    });
    expect(rpcErrorIn('not json')).toBeUndefined();
    expect(rpcErrorIn('{"jsonrpc":"2.0","id":3,"result":{}}')).toBeUndefined();
    expect(rpcErrorIn('{"error":{"code":1,"message":"x"}}')).toBeUndefined();
  });

  it('mediaTypeOf lowercases and drops parameters', () => {
    const response = new Response('', { headers: { 'content-type': 'Text/Event-Stream; charset=utf-8' } });
    expect(mediaTypeOf(response)).toBe('text/event-stream');
    expect(mediaTypeOf(new Response(null))).toBe('');
  });

  it('parseHttpUrl accepts http(s) only and never echoes a password', () => {
    expect(parseHttpUrl('https://example.com/mcp').href).toBe('https://example.com/mcp');
    expect(() => parseHttpUrl('ws://example.com/mcp')).toThrow(/ws:\/\/example\.com\/mcp/);
    expect(() => parseHttpUrl('not a url')).toThrow(TransportError);
    const error = thrownBy(() => parseHttpUrl('https://user:hunter2-secret@example.com/mcp'));
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).failure).toBe('bad-endpoint');
    expect(error.message).toContain('https://example.com/mcp');
    expect(error.message).not.toContain('hunter2');
  });

  it('assertValidHeaders names the bad header without its value', () => {
    // The error is caught and read, so the test fails if the check stops throwing.
    const error = thrownBy(() => assertValidHeaders({ Good: 'fine', 'X-Token': 'abc\r\ndef-secret' }, 'srv'));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain('"X-Token"');
    expect(error.message).toContain('srv');
    expect(error.message).not.toContain('def-secret');
    expect(() => assertValidHeaders({ Good: 'fine' }, 'srv')).not.toThrow();
  });
});

describe('explainFailure when its wording cannot load', () => {
  // A test double for a lost chunk: the wording module's import fails, as when the page's own server
  // is out of reach; no real part can make a dynamic import fail on demand.
  afterEach(() => {
    vi.doUnmock('./http-failure-messages.js');
    vi.resetModules();
  });

  it('still names the URL, the cause and the status, then tries the wording again next time', async () => {
    vi.resetModules();
    vi.doMock('./http-failure-messages.js', () => {
      throw new Error('chunk failed to load');
    });
    const { explainFailure } = await import('./http-failure.js');
    // Fresh modules: the error class is the fresh one too.
    const fresh = await import('../protocol/index.js');
    const unused = () => {
      throw new Error('the wording is not loaded');
    };
    const refused = await explainFailure(context, 'bad-endpoint', 302, unused);
    expect(refused).toBeInstanceOf(fresh.TransportError);
    expect(refused.failure).toBe('bad-endpoint');
    expect(refused.status).toBe(302);
    expect(refused.message).toMatch(
      /^https:\/\/mcp\.example\.com\/mcp redirected to an address Toolgate does not follow/,
    );
    const status = await explainFailure(context, 'http-status', 500, unused);
    expect(status.message).toMatch(/answered HTTP 500, which is not an MCP answer/);
    const network = await explainFailure(context, 'cors-or-network', undefined, unused);
    expect(network.message).toMatch(/^Could not reach https:\/\/mcp\.example\.com\/mcp/);

    vi.doUnmock('./http-failure-messages.js');
    const worded = await explainFailure(context, 'http-status', 500, (messages) =>
      messages.statusFailure(context, 500, 'text/plain', 'boom'),
    );
    expect(worded.message).toContain('The server failed while handling the request');
  });
});

/** The error `run` throws; fails the test when it throws nothing (or something that is not an Error). */
function thrownBy(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`threw a non-Error: ${String(error)}`);
  }
  throw new Error('expected a throw, but it returned');
}

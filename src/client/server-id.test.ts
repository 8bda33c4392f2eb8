/** Server ids are the whole address that picks the server (server-id.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serverIdForUrl, serverLabelForUrl } from './server-id.js';

const id = (url: string) => serverIdForUrl(new URL(url));

describe('serverIdForUrl', () => {
  it('keeps scheme, host, port, path and query: every difference is another server', () => {
    const ids = [
      'https://h.example/mcp?tenant=a',
      'https://h.example/mcp?tenant=b',
      'https://h.example/mcp',
      'http://h.example/mcp',
      'https://h.example:8443/mcp',
      'https://h.example/other',
      'https://g.example/mcp',
    ].map(id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(id('https://h.example/mcp?tenant=a')).toBe('https://h.example/mcp?tenant=a');
  });

  it('is the same for the same address, however it was written', () => {
    expect(id('HTTPS://H.Example:443/mcp?tenant=a')).toBe(id('https://h.example/mcp?tenant=a'));
    expect(id('https://h.example/mcp#part')).toBe('https://h.example/mcp');
    expect(id('https://h.example')).toBe('https://h.example/');
  });

  it('leaves out user info and masks secret parameters: never a password in an id', () => {
    expect(id('https://ada:hunter2@h.example/mcp')).toBe('https://h.example/mcp');
    expect(id('https://h.example/mcp?tenant=a&api_key=s3cret')).toBe(
      'https://h.example/mcp?tenant=a&api_key=***',
    );
  });

  it('never equals an id of an earlier version (host and path): old settings are not handed on', () => {
    const legacy = (url: URL) => `${url.host}${url.pathname === '/' ? '' : url.pathname}`;
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true }), (address) => {
        const url = new URL(address);
        expect(serverIdForUrl(url)).not.toBe(legacy(url));
        expect(serverIdForUrl(url).startsWith(`${url.protocol}//`)).toBe(true);
      }),
    );
  });
});

describe('serverLabelForUrl', () => {
  it('is short (no scheme) but keeps the query, secrets masked', () => {
    expect(serverLabelForUrl(new URL('https://h.example/mcp?tenant=a'))).toBe('h.example/mcp?tenant=a');
    expect(serverLabelForUrl(new URL('http://127.0.0.1:8000/'))).toBe('127.0.0.1:8000');
    expect(serverLabelForUrl(new URL('https://h.example/mcp?token=abc'))).toBe('h.example/mcp?token=***');
  });
});

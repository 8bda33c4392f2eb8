/** The demo's `?server=` links: only http: and https: are offered, each with the name at its position. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkedTransport, readLinkedServers } from './deep-link.js';

describe('readLinkedServers', () => {
  it('offers http: and https: addresses with their names, and names every other scheme as refused', () => {
    const search = new URLSearchParams([
      ['server', 'https://a.example.com/mcp'],
      ['name', 'First\nline'],
      ['server', 'javascript:alert(1)'],
      ['server', 'http://127.0.0.1:3000/mcp'],
      ['server', 'data:text/html,<b>x</b>'],
      ['server', 'not a url'],
    ]).toString();
    const { offers, refused } = readLinkedServers(`?${search}`);
    expect(offers.map((offer) => [offer.url.href, offer.name])).toEqual([
      ['https://a.example.com/mcp', 'First line'],
      ['http://127.0.0.1:3000/mcp', ''],
    ]);
    expect(refused).toEqual([
      '“javascript:” addresses are not servers (only http: and https:)',
      '“data:” addresses are not servers (only http: and https:)',
      '“not a url” is not an address',
    ]);
  });

  it('never offers anything but http: and https:, whatever the link says', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.webUrl(), fc.constant('javascript:x'))), (servers) => {
        const search = new URLSearchParams(servers.map((server) => ['server', server])).toString();
        const { offers, refused } = readLinkedServers(`?${search}`);
        expect(offers.length + refused.length).toBe(servers.length);
        for (const offer of offers) expect(['http:', 'https:']).toContain(offer.url.protocol);
      }),
    );
  });
});

describe('the transport a link names', () => {
  it('is read at its server’s position, by the names configurations use', () => {
    const search = new URLSearchParams([
      ['server', 'https://a.example.com/sse'],
      ['name', 'Old'],
      ['transport', 'sse'],
      ['server', 'https://b.example.com/mcp'],
      ['name', 'New'],
      ['transport', 'http'],
      ['server', 'https://c.example.com/mcp'],
      ['name', 'Unknown'],
      ['transport', 'websocket'],
      ['server', 'https://d.example.com/mcp'],
    ]).toString();
    const { offers } = readLinkedServers(`?${search}`);
    expect(offers.map((offer) => [offer.name, offer.httpTransport])).toEqual([
      ['Old', 'sse'],
      ['New', 'streamable-http'],
      ['Unknown', undefined],
      ['', undefined],
    ]);
  });

  it('maps each name to the ServerConfig option', () => {
    expect(linkedTransport('SSE')).toBe('sse');
    expect(linkedTransport('streamable-http')).toBe('streamable-http');
    expect(linkedTransport('streamableHttp')).toBe('streamable-http');
    expect(linkedTransport('http')).toBe('streamable-http');
    expect(linkedTransport('stdio')).toBeUndefined();
    expect(linkedTransport(undefined)).toBeUndefined();
  });
});

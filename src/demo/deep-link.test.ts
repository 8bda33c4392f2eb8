/** The demo's `?server=` links: only http: and https: are offered, each with the name at its position. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLinkedServers } from './deep-link.js';

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

/**
 * When the lazy layer loads the OAuth code: a 401, or a 403 `insufficient_scope` under an OAuth
 * scheme (Bearer, or DPoP: RFC 9449 §7.1 challenges with the same params), whatever the casing
 * and spacing a server sends. The answers are built here (the rule reads only status and header);
 * the loading itself runs against a real HTTP server on 127.0.0.1.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { asksForToken, createLazyOAuthFetch } from './lazy-fetch.js';

const answer = (status: number, challenge?: string) =>
  new Response(null, { status, headers: challenge === undefined ? {} : { 'www-authenticate': challenge } });

/** Any casing of a word: `dpop`, `DPoP`, `DPOP`... */
const anyCase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) =>
      [...word].map((char, i) => (upper[i] ? char.toUpperCase() : char.toLowerCase())).join(''),
    );
const blanks = fc
  .array(fc.constantFrom(' ', '\t'), { minLength: 1, maxLength: 3 })
  .map((chars) => chars.join(''));
const lead = fc.constantFrom('', ' ', 'Basic realm="x", ', 'Basic realm="x",', 'Negotiate, ');

describe('asksForToken', () => {
  it('a 403 insufficient_scope under Bearer or DPoP, in any casing and spacing, asks for a token', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('bearer', 'dpop').chain(anyCase),
        blanks,
        lead,
        fc.constantFrom('error="insufficient_scope"', 'error=insufficient_scope, scope="a b"'),
        (scheme, space, before, params) => asksForToken(answer(403, `${before}${scheme}${space}${params}`)),
      ),
    );
  });

  it('a 403 insufficient_scope under any other scheme does not', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('Basic', 'DPoPx', 'XBearer', 'Negotiate', 'Digest').chain((word) => anyCase(word)),
        blanks,
        (scheme, space) => !asksForToken(answer(403, `${scheme}${space}error="insufficient_scope"`)),
      ),
    );
  });

  it('a 401 always asks, a 403 without insufficient_scope or another status never does', () => {
    expect(asksForToken(answer(401))).toBe(true);
    expect(asksForToken(answer(403, 'DPoP error="invalid_token"'))).toBe(false);
    expect(asksForToken(answer(403))).toBe(false);
    expect(asksForToken(answer(400, 'DPoP error="insufficient_scope"'))).toBe(false);
  });
});

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

describe('createLazyOAuthFetch', () => {
  it('loads the OAuth layer at a first DPoP 403 insufficient_scope, and passes a Basic one through', async () => {
    let challenge = 'DPoP error="insufficient_scope", scope="more"';
    const server: Server = createServer((_req, res) =>
      res.writeHead(403, { 'www-authenticate': challenge }).end(),
    );
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    stop = () => new Promise<void>((done) => server.close(() => done()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    // No identity given: the loaded layer refuses at once, which shows it was loaded.
    const options = { serverUrl: url };

    challenge = 'Basic realm="x", error="insufficient_scope"';
    const passed = createLazyOAuthFetch(options);
    expect((await passed(url, { method: 'POST', body: '{}' })).status).toBe(403);
    expect(passed.loaded()).toBeUndefined();

    challenge = 'DPoP error="insufficient_scope", scope="more"';
    const lazy = createLazyOAuthFetch(options);
    await expect(lazy(url, { method: 'POST', body: '{}' })).rejects.toThrow(/need client and authorize/);
  });
});

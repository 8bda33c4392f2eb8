import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asksForDPoPNonce, isDPoPNonce, offersDPoP, resourceChallenge } from './dpop-challenge.js';

/** RFC 9449 §8.1 NQCHAR: every visible ASCII character but `"` and `\`. */
const NQCHARS = [...Array(0x7f - 0x21).keys()]
  .map((offset) => String.fromCharCode(0x21 + offset))
  .filter((char) => char !== '"' && char !== '\\');
const nonceArb = fc
  .array(fc.constantFrom(...NQCHARS), { minLength: 1, maxLength: 60 })
  .map((chars) => chars.join(''));
/** Values a server may send quoted (no `"` or `\`, which need escaping we do not generate here). */
const quotedArb = fc
  .array(fc.constantFrom(...NQCHARS, ' '), { minLength: 1, maxLength: 40 })
  .map((chars) => chars.join(''));
const scopeArb = fc.array(fc.stringMatching(/^[a-z][a-z0-9:._-]{0,12}$/), { minLength: 1, maxLength: 4 });

describe('resourceChallenge', () => {
  it('reads a DPoP challenge as a Bearer one is read (resource_metadata, scope, error)', () => {
    fc.assert(
      fc.property(
        fc.webUrl(),
        scopeArb,
        fc.constantFrom('invalid_token', 'insufficient_scope', 'use_dpop_nonce'),
        (url, scopes, error) => {
          const header = `DPoP algs="ES256 PS256", resource_metadata="${url}", scope="${scopes.join(' ')}", error="${error}"`;
          const challenge = resourceChallenge(header);
          expect(challenge).toEqual({
            scheme: 'dpop',
            resourceMetadata: url,
            scopes: [...new Set(scopes)],
            error,
          });
        },
      ),
    );
  });

  it('prefers the Bearer challenge when a server offers both schemes, in either order', () => {
    const bearer = 'Bearer resource_metadata="https://a.example/prm", scope="read"';
    const dpop = 'DPoP resource_metadata="https://b.example/prm", scope="write"';
    for (const header of [`${bearer}, ${dpop}`, `${dpop}, ${bearer}`])
      expect(resourceChallenge(header)).toMatchObject({
        scheme: 'bearer',
        resourceMetadata: 'https://a.example/prm',
        scopes: ['read'],
      });
  });

  it('never throws, and finds nothing in a header with neither scheme', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (header) => {
        const challenge = resourceChallenge(header);
        if (challenge) expect(['bearer', 'dpop']).toContain(challenge.scheme);
        if (!/bearer|dpop/i.test(header)) expect(challenge).toBeUndefined();
      }),
    );
    expect(resourceChallenge('Basic realm="x"')).toBeUndefined();
    expect(resourceChallenge(null)).toBeUndefined();
  });

  it('offersDPoP sees a DPoP challenge anywhere in the header, and only a DPoP one', () => {
    expect(offersDPoP('Bearer realm="x", DPoP algs="ES256"')).toBe(true);
    expect(offersDPoP('dpop')).toBe(true);
    expect(offersDPoP('Bearer realm="DPoP"')).toBe(false);
    expect(offersDPoP(undefined)).toBe(false);
  });
});

describe('DPoP nonces', () => {
  it('accepts every 1*NQCHAR string as a nonce', () => {
    fc.assert(
      fc.property(nonceArb, (nonce) => {
        expect(isDPoPNonce(nonce)).toBe(true);
      }),
    );
  });

  it('refuses a nonce with a space, a quote, a backslash, a control or non-ASCII character, or none at all', () => {
    const bad = fc.constantFrom(' ', '"', '\\', '\n', '\u0000', 'é', '\u2028');
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), bad, fc.string({ maxLength: 10 }), (before, char, after) => {
        expect(isDPoPNonce(`${before}${char}${after}`)).toBe(false);
      }),
    );
    expect(isDPoPNonce('')).toBe(false);
    expect(isDPoPNonce(null)).toBe(false);
  });

  it('asks for a resend only on a 401 with a DPoP use_dpop_nonce challenge and a valid nonce', () => {
    fc.assert(
      fc.property(nonceArb, quotedArb, (nonce, description) => {
        const header = `DPoP error="use_dpop_nonce", error_description="${description}"`;
        expect(asksForDPoPNonce(401, header, nonce)).toBe(true);
        // Each missing piece makes it an ordinary answer (a sign-in, or the response as it is).
        expect(asksForDPoPNonce(400, header, nonce)).toBe(false);
        expect(asksForDPoPNonce(401, header, null)).toBe(false);
        expect(asksForDPoPNonce(401, header, `${nonce} x`)).toBe(false);
        expect(asksForDPoPNonce(401, `Bearer error="use_dpop_nonce"`, nonce)).toBe(false);
        expect(asksForDPoPNonce(401, `DPoP error="invalid_token"`, nonce)).toBe(false);
      }),
    );
  });

  it('never asks for a resend for any status but 401, whatever the headers say', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }).filter((status) => status !== 401),
        fc.string({ maxLength: 120 }),
        fc.option(fc.string({ maxLength: 40 })),
        (status, header, nonce) => {
          expect(asksForDPoPNonce(status, header, nonce)).toBe(false);
        },
      ),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerChallenge, type Challenge, parseChallenges, splitScopes } from './www-authenticate.js';

describe('parseChallenges', () => {
  it('reads the RFC 9110 example: two challenges, escaped quotes, a bare token value', () => {
    const header = 'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"';
    expect(parseChallenges(header)).toEqual([
      { scheme: 'Newauth', params: { realm: 'apps', type: '1', title: 'Login to "apps"' } },
      { scheme: 'Basic', params: { realm: 'simple' } },
    ]);
  });

  it('reads a token68 challenge beside a Bearer one', () => {
    expect(parseChallenges('Basic dXNlcjpwYXNz==, Bearer scope="a"')).toEqual([
      { scheme: 'Basic', params: {}, token68: 'dXNlcjpwYXNz==' },
      { scheme: 'Bearer', params: { scope: 'a' } },
    ]);
  });

  it('reads a scheme alone, and lower-cases parameter names (first of duplicates wins)', () => {
    expect(parseChallenges('Negotiate, Bearer ERROR="one", error="two"')).toEqual([
      { scheme: 'Negotiate', params: {} },
      { scheme: 'Bearer', params: { error: 'one' } },
    ]);
  });

  it('accepts an unquoted URL as a value (servers send them)', () => {
    expect(
      parseChallenges('Bearer resource_metadata=https://mcp.example.com/.well-known/x, scope=a'),
    ).toEqual([
      {
        scheme: 'Bearer',
        params: { resource_metadata: 'https://mcp.example.com/.well-known/x', scope: 'a' },
      },
    ]);
  });

  it('returns nothing for an empty or missing header', () => {
    expect(parseChallenges(null)).toEqual([]);
    expect(parseChallenges('')).toEqual([]);
    expect(parseChallenges(' , ,')).toEqual([]);
  });

  const tokenArb = fc.stringMatching(/^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,12}$/);
  const valueArb = fc.string({ unit: fc.constantFrom(...printableAscii()), maxLength: 40 });
  const challengeArb = fc.record({
    scheme: tokenArb,
    params: fc.uniqueArray(fc.tuple(tokenArb, valueArb), {
      maxLength: 5,
      selector: ([name]) => name.toLowerCase(),
    }),
  });

  it('reads back any list of challenges with quoted parameters (property)', () => {
    fc.assert(
      fc.property(fc.array(challengeArb, { minLength: 1, maxLength: 4 }), (challenges) => {
        const header = challenges
          .map(({ scheme, params }) =>
            params.length === 0
              ? scheme
              : `${scheme} ${params.map(([name, value]) => `${name}="${value.replace(/[\\"]/g, '\\$&')}"`).join(', ')}`,
          )
          .join(', ');
        const expected: Challenge[] = challenges.map(({ scheme, params }) => ({
          scheme,
          params: Object.fromEntries(params.map(([name, value]) => [name.toLowerCase(), value])),
        }));
        expect(parseChallenges(header)).toEqual(expected);
      }),
    );
  });

  it('never throws, whatever the header holds (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (header) => {
        parseChallenges(header);
        bearerChallenge(header);
      }),
    );
  });
});

describe('bearerChallenge', () => {
  it('reads the MCP example of a runtime insufficient-scope challenge', () => {
    const header =
      'Bearer error="insufficient_scope", scope="files:read files:write user:profile", ' +
      'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", ' +
      'error_description="Additional file write permission required"';
    expect(bearerChallenge(header)).toEqual({
      error: 'insufficient_scope',
      scopes: ['files:read', 'files:write', 'user:profile'],
      resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource',
      errorDescription: 'Additional file write permission required',
    });
  });

  it('finds the Bearer challenge among others, whatever the case of its scheme', () => {
    expect(bearerChallenge('Basic realm="x", bearer scope="a"')).toEqual({ scopes: ['a'] });
  });

  it('is undefined without a Bearer challenge, and empty scopes are no scopes', () => {
    expect(bearerChallenge('Basic realm="x"')).toBeUndefined();
    expect(bearerChallenge('Bearer scope=""')).toEqual({});
  });
});

describe('splitScopes', () => {
  it('drops empty and repeated entries, keeping the order', () => {
    expect(splitScopes('  b a\tb  c ')).toEqual(['b', 'a', 'c']);
  });
});

function printableAscii(): string[] {
  return Array.from({ length: 0x7f - 0x20 }, (_, index) => String.fromCharCode(0x20 + index));
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProtectedResourceMetadata } from './resource-metadata.js';

describe('parseProtectedResourceMetadata', () => {
  it('reads resource, authorization servers and scopes (duplicates and empty scopes dropped)', () => {
    expect(
      parseProtectedResourceMetadata({
        resource: 'https://mcp.example.com/mcp',
        authorization_servers: ['https://auth.example.com'],
        scopes_supported: ['a', 'b', 'a', ''],
        bearer_methods_supported: ['header'],
      }),
    ).toEqual({
      resource: 'https://mcp.example.com/mcp',
      authorizationServers: ['https://auth.example.com'],
      scopesSupported: ['a', 'b'],
    });
  });

  it('reads dpop_bound_access_tokens_required (RFC 9728 §2): true is kept, false and absent are the same', () => {
    const base = {
      resource: 'https://mcp.example.com/mcp',
      authorization_servers: ['https://auth.example.com'],
    };
    expect(
      parseProtectedResourceMetadata({ ...base, dpop_bound_access_tokens_required: true }),
    ).toMatchObject({
      dpopBoundTokensRequired: true,
    });
    expect(
      parseProtectedResourceMetadata({ ...base, dpop_bound_access_tokens_required: false }),
    ).not.toHaveProperty('dpopBoundTokensRequired');
    expect(parseProtectedResourceMetadata(base)).not.toHaveProperty('dpopBoundTokensRequired');
    expect(parseProtectedResourceMetadata({ ...base, dpop_bound_access_tokens_required: 'yes' })).toBe(
      '"dpop_bound_access_tokens_required" is not true or false',
    );
  });

  it('names the first problem of a document it cannot use', () => {
    expect(parseProtectedResourceMetadata([])).toBe('it is not a JSON object');
    expect(parseProtectedResourceMetadata({ authorization_servers: ['x'] })).toBe(
      'it has no "resource" string',
    );
    expect(parseProtectedResourceMetadata({ resource: 'r', authorization_servers: [] })).toMatch(
      /no "authorization_servers"/,
    );
    expect(parseProtectedResourceMetadata({ resource: 'r', authorization_servers: [1] })).toMatch(
      /other than issuer URLs/,
    );
    expect(
      parseProtectedResourceMetadata({
        resource: 'r',
        authorization_servers: ['a'],
        scopes_supported: 'a b',
      }),
    ).toMatch(/not a list of strings/);
  });

  it('never throws and returns either metadata or a reason, for any JSON value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = parseProtectedResourceMetadata(value);
        if (typeof result === 'string') return;
        expect(typeof result.resource).toBe('string');
        expect(result.authorizationServers.length).toBeGreaterThan(0);
      }),
    );
  });

  it('keeps what a valid document says (property)', () => {
    const nonEmpty = fc.string({ minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(nonEmpty, fc.array(nonEmpty, { minLength: 1, maxLength: 4 }), (resource, servers) => {
        expect(parseProtectedResourceMetadata({ resource, authorization_servers: servers })).toEqual({
          resource,
          authorizationServers: servers,
        });
      }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { alreadyGranted, selectScopes } from './scopes.js';

describe('selectScopes', () => {
  it('takes the challenge first, then the resource metadata, else none', () => {
    expect(
      selectScopes({ challenged: ['a'], resourceSupported: ['b', 'c'], wantsOfflineAccess: true }),
    ).toEqual(['a']);
    expect(selectScopes({ resourceSupported: ['b', 'c'], wantsOfflineAccess: true })).toEqual(['b', 'c']);
    expect(selectScopes({ wantsOfflineAccess: true })).toEqual([]);
  });

  it('keeps what was asked before on a step-up (the union, earlier scopes first)', () => {
    expect(selectScopes({ challenged: ['write'], previous: ['basic'], wantsOfflineAccess: false })).toEqual([
      'basic',
      'write',
    ]);
  });

  it('adds offline_access only when the authorization server lists it and refresh tokens are wanted', () => {
    const base = { resourceSupported: ['mcp:basic'] };
    expect(
      selectScopes({ ...base, serverSupported: ['mcp:basic', 'offline_access'], wantsOfflineAccess: true }),
    ).toEqual(['mcp:basic', 'offline_access']);
    expect(selectScopes({ ...base, serverSupported: ['mcp:basic'], wantsOfflineAccess: true })).toEqual([
      'mcp:basic',
    ]);
    expect(selectScopes({ ...base, serverSupported: ['offline_access'], wantsOfflineAccess: false })).toEqual(
      ['mcp:basic'],
    );
  });

  it('does not turn an omitted scope into a request for offline_access alone', () => {
    expect(selectScopes({ serverSupported: ['offline_access'], wantsOfflineAccess: true })).toEqual([]);
  });
});

describe('alreadyGranted', () => {
  it('is true only when every challenged scope is held', () => {
    expect(alreadyGranted(['a', 'b'], ['b', 'a', 'c'])).toBe(true);
    expect(alreadyGranted(['a', 'd'], ['a'])).toBe(false);
    expect(alreadyGranted(undefined, ['a'])).toBe(false);
    expect(alreadyGranted([], ['a'])).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { dpopKeyFor, keyForToken } from '../../src/auth/dpop-keys.js';
import { type PairRecords, sessionKeyPairVault } from './key-pair-vault.js';
import { sessionAuthStore } from './session-store.js';

// Test doubles, because IndexedDB and chrome.storage.session exist only in the browser (the
// worker's real ones are used by the built extension): a Map that keeps values as they are (as
// IndexedDB's structured clone keeps a CryptoKey), and a storage area that JSON-copies like Chrome.
function records(): PairRecords & { size(): number } {
  const values = new Map<string, unknown>();
  return {
    get: async (name) => values.get(name),
    async keepFirst<T>(name: string, candidate: T): Promise<T> {
      if (!values.has(name)) values.set(name, candidate);
      return values.get(name) as T;
    },
    clear: async () => values.clear(),
    size: () => values.size,
  };
}

function sessionArea(): chrome.storage.StorageArea {
  let values: Record<string, unknown> = {};
  return {
    get: async (key: string) => (key in values ? { [key]: JSON.parse(JSON.stringify(values[key])) } : {}),
    set: async (items: Record<string, unknown>) => {
      values = { ...values, ...JSON.parse(JSON.stringify(items)) };
    },
    remove: async (key: string) => {
      delete values[key];
    },
    clear: async () => {
      values = {};
    },
  } as unknown as chrome.storage.StorageArea;
}

const issuer = 'https://as.example';

describe('the extension keeps DPoP key pairs beside its session tokens', () => {
  it('gives a restarted worker the same key, so a DPoP-bound token kept in session storage still proves', async () => {
    const kept = records();
    const area = sessionArea();
    const first = sessionAuthStore(area, sessionKeyPairVault(kept, area));
    const key = await dpopKeyFor(issuer, first.keyPairs);
    await first.set('tokens', { accessToken: 'a', issuer, tokenType: 'DPoP', dpopJkt: key.jkt });

    // A new worker: new objects over the same IndexedDB and session storage.
    const restarted = sessionAuthStore(area, sessionKeyPairVault(kept, area));
    const tokens = await restarted.get<{
      accessToken: string;
      issuer: string;
      tokenType: 'DPoP';
      dpopJkt: string;
    }>('tokens');
    const found = await keyForToken(tokens as NonNullable<typeof tokens>, restarted.keyPairs);
    expect(found).not.toBe('bearer');
    expect(found).not.toBe('lost');
    expect(found === 'bearer' || found === 'lost' ? undefined : found.jkt).toBe(key.jkt);
  });

  it('drops the pairs of an earlier browser session (its tokens are gone with session storage)', async () => {
    const kept = records();
    const key = await dpopKeyFor(issuer, sessionKeyPairVault(kept, sessionArea()));
    expect(kept.size()).toBe(1);
    // The browser closed: session storage is empty again, the database is not.
    const next = sessionKeyPairVault(kept, sessionArea());
    expect(await next.get(`dpop-key ${issuer}`)).toBeUndefined();
    expect(kept.size()).toBe(0);
    expect((await dpopKeyFor(issuer, next)).jkt).not.toBe(key.jkt);
  });
});

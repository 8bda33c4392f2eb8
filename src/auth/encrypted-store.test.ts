/**
 * The sealing of the opt-in store, with Node's real WebCrypto. The record holder is a Map: a test
 * double for IndexedDB, which Node does not have (e2e/oauth-at-rest.spec.ts runs the same store on
 * Chromium's real IndexedDB).
 */
import { describe, expect, it } from 'vitest';
import { type SealedRecords, sealedAuthStore } from './encrypted-store.js';

function mapRecords(): SealedRecords & { raw: Map<string, unknown> } {
  const raw = new Map<string, unknown>();
  return {
    raw,
    get: async (name) => raw.get(name),
    set: async (name, value) => {
      raw.set(name, value);
    },
    delete: async (name) => {
      raw.delete(name);
    },
    async keepFirst<T>(name: string, candidate: T) {
      if (!raw.has(name)) raw.set(name, candidate);
      return raw.get(name) as T;
    },
  };
}

const tokens = { accessToken: 'at-secret-123', refreshToken: 'rt-secret-456', grantedScopes: ['mcp:tools'] };

describe('sealedAuthStore', () => {
  it('gives back what was set, while the records hold no plaintext', async () => {
    const records = mapRecords();
    const store = sealedAuthStore(records);
    await store.set('tokens https://mcp.example/', tokens);
    expect(await store.get('tokens https://mcp.example/')).toEqual(tokens);
    const rawText = JSON.stringify([...records.raw.entries()], (_key, value) =>
      value instanceof ArrayBuffer || value instanceof Uint8Array
        ? Buffer.from(value as ArrayBuffer).toString('latin1')
        : value,
    );
    expect(rawText).not.toContain('at-secret-123');
    expect(rawText).not.toContain('rt-secret-456');
    expect(rawText).not.toContain('mcp:tools');
  });

  it('keeps a non-extractable key, made once', async () => {
    const records = mapRecords();
    const store = sealedAuthStore(records);
    await store.set('a', 1);
    await store.set('b', 2);
    const key = records.raw.get('key') as CryptoKey;
    expect(key).toBeInstanceOf(CryptoKey);
    expect(key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    // A second store over the same records (the next page) reads with the same key.
    expect(await sealedAuthStore(records).get('b')).toBe(2);
  });

  it('uses a new IV for every record, even for equal values', async () => {
    const records = mapRecords();
    const store = sealedAuthStore(records);
    await store.set('one', tokens);
    await store.set('two', tokens);
    const one = records.raw.get('value one') as { iv: Uint8Array; data: ArrayBuffer };
    const two = records.raw.get('value two') as { iv: Uint8Array; data: ArrayBuffer };
    expect(one.iv).toHaveLength(12);
    expect(Buffer.from(one.iv).equals(Buffer.from(two.iv))).toBe(false);
    expect(Buffer.from(one.data).equals(Buffer.from(two.data))).toBe(false);
  });

  it('does not open a sealed value moved under another name, nor one sealed under a lost key', async () => {
    const records = mapRecords();
    const store = sealedAuthStore(records);
    await store.set('tokens https://a.example/', tokens);
    records.raw.set('value tokens https://b.example/', records.raw.get('value tokens https://a.example/'));
    expect(await store.get('tokens https://b.example/')).toBeUndefined();

    const other = mapRecords();
    other.raw.set('value tokens https://a.example/', records.raw.get('value tokens https://a.example/'));
    expect(await sealedAuthStore(other).get('tokens https://a.example/')).toBeUndefined();
    // The unreadable record is dropped, so the next sign-in starts clean.
    expect(other.raw.has('value tokens https://a.example/')).toBe(false);
  });

  it('keeps DPoP key pairs as they are, under their own names, the first one kept when two are made', async () => {
    const records = mapRecords();
    const store = sealedAuthStore(records);
    const make = () =>
      crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    const first = await make();
    expect(await store.keyPairs?.keepFirst('dpop-key https://as.example', first)).toBe(first);
    // Another tab made its own meanwhile: it gets the kept one, so both prove with the same key.
    expect(await store.keyPairs?.keepFirst('dpop-key https://as.example', await make())).toBe(first);
    expect(await sealedAuthStore(records).keyPairs?.get('dpop-key https://as.example')).toBe(first);
    expect(records.raw.get('pair dpop-key https://as.example')).toBe(first);
    // Not a sealed value: reading that name as one finds nothing (and drops nothing).
    expect(await store.get('dpop-key https://as.example')).toBeUndefined();
    expect(records.raw.has('pair dpop-key https://as.example')).toBe(true);
  });

  it('deletes', async () => {
    const store = sealedAuthStore(mapRecords());
    await store.set('x', 'y');
    await store.delete('x');
    expect(await store.get('x')).toBeUndefined();
  });
});

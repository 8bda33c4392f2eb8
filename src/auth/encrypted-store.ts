/**
 * Sign-ins that survive a reload, for hosts that opt in (`auth: { keepSignedIn: true }`, or
 * `store: encryptedAuthStore()`): tokens and client registrations are kept in IndexedDB, each
 * value sealed with AES-GCM under one CryptoKey that is generated here as non-extractable and kept
 * in the same database (IndexedDB stores a CryptoKey by structured clone, which keeps it
 * non-extractable: no script can read its bytes, only ask the browser to use it). Each record has
 * its own random 96-bit IV, and its key name is bound as additional data, so a sealed value moved
 * under another name does not open.
 *
 * Threat model, honestly: this protects tokens from whoever reads the browser profile on disk
 * (another program, a backup, a stolen laptop image), from IndexedDB exports and devtools dumps,
 * and from code that copies the database elsewhere (the key cannot leave the browser). It does NOT
 * protect against script running on this origin: such script can call this store (or
 * crypto.subtle.decrypt with the stored key) just as Toolgate does. A host whose origin runs
 * untrusted script should keep the default (memory: gone with the page).
 *
 * DPoP key pairs (dpop-keys.ts) are kept beside the sealed values, as CryptoKey objects under
 * their own names: non-extractable like the sealing key, so they need no sealing of their own.
 */

import { createStore, del, get, set, update } from 'idb-keyval';
import type { AuthStore } from './store.js';

/** Where sealed records and the key live (IndexedDB in the browser). */
export interface SealedRecords {
  get(name: string): Promise<unknown>;
  set(name: string, value: unknown): Promise<void>;
  delete(name: string): Promise<void>;
  /** Keeps `candidate` under `name` unless something is there already, atomically; resolves with what is kept. */
  keepFirst<T>(name: string, candidate: T): Promise<T>;
}

/** A value as it rests: ciphertext and its IV, nothing readable. */
export interface SealedValue {
  iv: Uint8Array;
  data: ArrayBuffer;
}

export interface EncryptedAuthStoreOptions {
  /** The IndexedDB database; default `toolgate-auth`. One object store, `sealed`, inside it. */
  databaseName?: string;
}

const KEY_NAME = 'key';
const VALUE_PREFIX = 'value ';
const KEY_PAIR_PREFIX = 'pair ';
const DEFAULT_DATABASE = 'toolgate-auth';

/** The host's opt-in store: IndexedDB, every value sealed under a non-extractable AES-GCM key. */
export function encryptedAuthStore(options: EncryptedAuthStoreOptions = {}): AuthStore {
  const idb = createStore(options.databaseName ?? DEFAULT_DATABASE, 'sealed');
  return sealedAuthStore({
    get: (name) => get(name, idb),
    set: (name, value) => set(name, value, idb),
    delete: (name) => del(name, idb),
    async keepFirst<T>(name: string, candidate: T): Promise<T> {
      // One readwrite transaction: two tabs that each made a key keep the same one.
      await update<T>(name, (old) => old ?? candidate, idb);
      return (await get<T>(name, idb)) as T;
    },
  });
}

/** The sealing over any record holder (the browser's IndexedDB above; tests give their own). */
export function sealedAuthStore(records: SealedRecords): AuthStore {
  let key: Promise<CryptoKey> | undefined;
  const cryptoKey = () => {
    key ??= (async () => {
      const stored = await records.get(KEY_NAME);
      if (stored instanceof CryptoKey) return stored;
      const made = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
        'encrypt',
        'decrypt',
      ]);
      return records.keepFirst(KEY_NAME, made);
    })();
    // A failure (IndexedDB unavailable, e.g. a private window that refuses it) is tried again next time.
    key.catch(() => {
      key = undefined;
    });
    return key;
  };
  const nameOf = (name: string) => `${VALUE_PREFIX}${name}`;
  // Their own prefix: a key pair is never read as a sealed value, nor a value as a pair.
  const pairName = (name: string) => `${KEY_PAIR_PREFIX}${name}`;
  const additionalData = (name: string) => new TextEncoder().encode(nameOf(name));

  return {
    async get<T>(name: string): Promise<T | undefined> {
      const sealed = await records.get(nameOf(name));
      if (!isSealed(sealed)) return undefined;
      try {
        const plain = await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: sealed.iv as Uint8Array<ArrayBuffer>, additionalData: additionalData(name) },
          await cryptoKey(),
          sealed.data,
        );
        return JSON.parse(new TextDecoder().decode(plain)) as T;
      } catch {
        // Sealed under a key this browser no longer has (or altered): as good as absent; sign in again.
        await records.delete(nameOf(name));
        return undefined;
      }
    },
    async set<T>(name: string, value: T): Promise<void> {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const data = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: additionalData(name) },
        await cryptoKey(),
        new TextEncoder().encode(JSON.stringify(value)),
      );
      const sealed: SealedValue = { iv, data };
      await records.set(nameOf(name), sealed);
    },
    async delete(name: string): Promise<void> {
      await records.delete(nameOf(name));
    },
    keyPairs: {
      get: (name) => records.get(pairName(name)),
      keepFirst: (name, candidate) => records.keepFirst(pairName(name), candidate),
    },
  };
}

function isSealed(value: unknown): value is SealedValue {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return record.iv instanceof Uint8Array && record.data instanceof ArrayBuffer;
}

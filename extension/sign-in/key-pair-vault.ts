/**
 * Where the extension keeps DPoP key pairs (src/auth/dpop-keys.ts): the worker's IndexedDB, as the
 * CryptoKey objects themselves (IndexedDB stores them by structured clone, which keeps the private
 * key non-extractable). chrome.storage.session, where the tokens are, takes only JSON, so a pair
 * cannot live there; without this slot a DPoP-bound token died with the worker Chrome stopped
 * after 30 idle seconds.
 *
 * The pairs live as long as the tokens: each pair is kept under a session id held in
 * chrome.storage.session, which the browser empties when it closes. A worker that finds no session
 * id makes a new one and clears the database first, so pairs of an earlier browser session never
 * outlive the tokens bound to them. Signing out of one server keeps the pair: it belongs to the
 * authorization server (shared by its other servers) and grants nothing without a token.
 */

import { clear, createStore, get, update } from 'idb-keyval';
import type { KeyPairVault } from '../../src/auth/index.js';

/** The records the vault reads and writes (IndexedDB in the worker; tests give their own). */
export interface PairRecords {
  get(name: string): Promise<unknown>;
  /** Keeps `candidate` under `name` unless something is there, atomically; resolves with what is kept. */
  keepFirst<T>(name: string, candidate: T): Promise<T>;
  clear(): Promise<void>;
}

const SESSION_KEY = 'auth key-pair session';

/** The worker's vault: IndexedDB `toolgate-dpop-keys`, tied to the browser session. */
export function extensionKeyPairVault(
  area: chrome.storage.StorageArea = chrome.storage.session,
): KeyPairVault {
  const idb = createStore('toolgate-dpop-keys', 'pairs');
  return sessionKeyPairVault(
    {
      get: (name) => get(name, idb),
      async keepFirst<T>(name: string, candidate: T): Promise<T> {
        await update<T>(name, (old) => old ?? candidate, idb);
        return (await get<T>(name, idb)) as T;
      },
      clear: () => clear(idb),
    },
    area,
  );
}

/** The vault over any records, names bound to the session id kept in `area`. */
export function sessionKeyPairVault(records: PairRecords, area: chrome.storage.StorageArea): KeyPairVault {
  let session: Promise<string> | undefined;
  const sessionId = () => {
    session ??= (async () => {
      const kept = (await area.get(SESSION_KEY))[SESSION_KEY];
      if (typeof kept === 'string') return kept;
      // A new browser session: pairs of the last one are bound to tokens that are gone.
      await records.clear();
      const made = crypto.randomUUID();
      await area.set({ [SESSION_KEY]: made });
      return made;
    })();
    session.catch(() => {
      session = undefined;
    });
    return session;
  };
  return {
    get: async (name) => records.get(`${await sessionId()} ${name}`),
    keepFirst: async (name, candidate) => records.keepFirst(`${await sessionId()} ${name}`, candidate),
  };
}

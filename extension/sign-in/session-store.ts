/**
 * Where the extension keeps sign-ins (tokens per server, registrations per authorization server):
 * chrome.storage.session. Chrome stops an idle service worker after 30 seconds, so tokens held in
 * the worker's memory alone would send the person back to the authorization server after every
 * pause; session storage outlives the worker but not the browser, stays in memory (never written
 * to disk), and is readable by the extension's own pages and worker only, not by content scripts
 * (Chrome's default access level, which this extension never widens).
 *
 * Nothing in it is logged: the audit log records sign-in events, which carry no token. DPoP key
 * pairs cannot be JSON: they live in the worker's IndexedDB (key-pair-vault.ts), as long as these.
 */

import type { AuthStore, KeyPairVault } from '../../src/auth/index.js';
import { extensionKeyPairVault } from './key-pair-vault.js';

const PREFIX = 'auth ';

export function sessionAuthStore(
  area: chrome.storage.StorageArea = chrome.storage.session,
  keyPairs: KeyPairVault = extensionKeyPairVault(area),
): AuthStore {
  return {
    keyPairs,
    async get<T>(key: string) {
      const name = PREFIX + key;
      return (await area.get(name))[name] as T | undefined;
    },
    async set<T>(key: string, value: T) {
      await area.set({ [PREFIX + key]: value });
    },
    async delete(key: string) {
      await area.remove(PREFIX + key);
    },
  };
}

/**
 * A tiny key-value seam for the gate's small settings (trust, rules, remembered approvals). Keys are
 * strings with a kind prefix (`rule:`, `grant:`, `trust:`); values are plain JSON. Two homes: IndexedDB
 * through idb-keyval (persistent, shared by every page of an origin) and memory (Node hosts, tests, or
 * a deliberate "forget everything on reload").
 */

import { createStore, del, get, promisifyRequest, set, type UseStore } from 'idb-keyval';

/** Where settings live. Values read back are unchecked: callers parse them. */
export interface SettingsStore {
  /** True when values survive a reload. */
  readonly persistent: boolean;
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
  /** Every entry whose key starts with `prefix`, in key order. */
  entries(prefix: string): Promise<[string, unknown][]>;
}

/** A storage failure, saying what was being read or written and what the person can do. */
export class SettingsStoreError extends Error {
  override readonly name = 'SettingsStoreError';
}

export const DEFAULT_SETTINGS_DB = 'toolgate-settings';
export const DEFAULT_SETTINGS_STORE = 'settings';

/** Settings in IndexedDB (database `toolgate-settings`, object store `settings` unless named). */
export function idbSettingsStore(
  dbName = DEFAULT_SETTINGS_DB,
  storeName = DEFAULT_SETTINGS_STORE,
): SettingsStore {
  let store: UseStore | undefined;
  // Lazy, so merely creating a policy in a page that never decides opens no database.
  const use = (): UseStore => {
    store ??= createStore(dbName, storeName);
    return store;
  };
  const guard = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw new SettingsStoreError(
        `Toolgate could not ${what} in this browser's IndexedDB (${dbName}/${storeName}): ${
          error instanceof Error ? error.message : String(error)
        }. Check that site storage is allowed, or use in-memory settings.`,
        { cause: error },
      );
    }
  };
  return {
    persistent: true,
    get: (key) => guard(`read "${key}"`, () => get(key, use())),
    set: (key, value) => guard(`save "${key}"`, () => set(key, value, use())),
    del: (key) => guard(`delete "${key}"`, () => del(key, use())),
    entries: (prefix) =>
      guard(`list "${prefix}*"`, () =>
        // idb-keyval's escape hatch: keys and values from one key range in one transaction.
        use()('readonly', async (objects) => {
          const range = prefixRange(prefix);
          const [keys, values] = await Promise.all([
            promisifyRequest(objects.getAllKeys(range)),
            promisifyRequest(objects.getAll(range)),
          ]);
          const found: [string, unknown][] = [];
          keys.forEach((key, index) => {
            if (typeof key === 'string' && key.startsWith(prefix)) found.push([key, values[index]]);
          });
          return found;
        }),
      ),
  };
}

/** Keys starting with `prefix`: [prefix, prefix with its last code unit incremented). */
function prefixRange(prefix: string): IDBKeyRange | undefined {
  if (prefix === '') return undefined;
  const last = prefix.charCodeAt(prefix.length - 1);
  if (last === 0xffff) return IDBKeyRange.lowerBound(prefix);
  return IDBKeyRange.bound(prefix, prefix.slice(0, -1) + String.fromCharCode(last + 1), false, true);
}

/** Settings in memory: gone with the page. Values are cloned both ways, as IndexedDB would. */
export function memorySettingsStore(): SettingsStore {
  const values = new Map<string, unknown>();
  return {
    persistent: false,
    get: async (key) => structuredClone(values.get(key)),
    set: async (key, value) => {
      values.set(key, structuredClone(value));
    },
    del: async (key) => {
      values.delete(key);
    },
    entries: async (prefix) =>
      [...values.entries()]
        .filter(([key]) => key.startsWith(prefix))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, value]): [string, unknown] => [key, structuredClone(value)]),
  };
}

/** A random id for a stored record (works in insecure contexts, where crypto.randomUUID is absent). */
export function newRecordId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  let id = '';
  for (const byte of bytes) id += byte.toString(16).padStart(2, '0');
  return id;
}

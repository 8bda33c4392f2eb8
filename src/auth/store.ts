/**
 * Where a server's sign-in state lives: client registrations per authorization server and tokens
 * per resource. The default keeps them in memory for the life of the page; a host that wants them
 * to survive a reload supplies its own store (the issue asks for encryption at rest with a
 * non-extractable WebCrypto key there). Nothing in it is ever logged or exported.
 */

export interface AuthStore {
  get<T>(key: string): Promise<T | undefined>;
  set<T>(key: string, value: T): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Where a store kept at rest keeps DPoP key pairs as they are (dpop-keys.ts); absent (the memory
   * store), they live with the page, as the tokens do.
   */
  keyPairs?: KeyPairVault;
}

/**
 * Key pairs kept as CryptoKey objects (IndexedDB clones them and they stay non-extractable),
 * never through JSON or encryption: their bytes cannot be read, only used.
 */
export interface KeyPairVault {
  get(name: string): Promise<unknown>;
  /** Keeps `candidate` under `name` unless a pair is there already, atomically; resolves with the kept one. */
  keepFirst(name: string, candidate: CryptoKeyPair): Promise<CryptoKeyPair>;
}

/** The default store: a Map, gone with the page. */
export function memoryAuthStore(): AuthStore {
  const values = new Map<string, unknown>();
  return {
    async get<T>(key: string) {
      return values.get(key) as T | undefined;
    },
    async set<T>(key: string, value: T) {
      values.set(key, value);
    },
    async delete(key: string) {
      values.delete(key);
    },
  };
}

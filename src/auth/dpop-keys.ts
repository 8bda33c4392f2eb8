/**
 * The DPoP keys (RFC 9449): an ECDSA P-256 pair made by WebCrypto with a non-extractable private
 * key, one per authorization server. A token bound to it is of no use to anyone who copies it (a
 * log, an extension, a stolen store), since the proof needs a key no script can read.
 *
 * Where the key lives follows where the tokens live. With the default memory store it lives as
 * long as the page: every connection of the page to servers of that authorization server uses the
 * same key (a reconnect keeps its token), and after a reload a DPoP-bound token is gone anyway.
 * With a store kept at rest that holds key pairs (encryptedAuthStore), the pair is kept in its
 * IndexedDB as the CryptoKey objects themselves: IndexedDB stores them by structured clone, which
 * keeps the private key non-extractable, so the pair never passes through JSON or the sealing, and
 * a DPoP-bound token kept at rest can still be proven after a reload.
 */

import * as oauth from 'oauth4webapi';
import type { KeyPairVault } from './store.js';

/** A DPoP key, with the thumbprint tokens bound to it carry (`cnf.jkt`). */
export interface DPoPKey {
  handle: oauth.DPoPHandle;
  jkt: string;
}

/** The token fields that say whether (and to which key) a token is bound. */
export interface BoundToken {
  accessToken: string;
  issuer: string;
  tokenType?: 'DPoP';
  dpopJkt?: string;
}

/** Keys of the page (no vault, or before the vault answered), per authorization server. */
const pageKeys = new Map<string, Promise<DPoPKey>>();
/** Keys read from or kept in a vault, per vault: each vault is its own database. */
const vaultKeys = new WeakMap<KeyPairVault, Map<string, Promise<DPoPKey>>>();

/** The name a key pair is kept under in a vault. */
export function keyPairName(issuer: string): string {
  return `dpop-key ${issuer}`;
}

/**
 * The DPoP key for an authorization server, made at its first use: the one kept in `vault` when
 * there is one (made and kept there otherwise), else the page's.
 */
export function dpopKeyFor(issuer: string, vault?: KeyPairVault): Promise<DPoPKey> {
  const keys = keysOf(vault);
  let key = keys.get(issuer);
  if (!key) {
    key = vault ? keptKey(vault, issuer) : makePair().then(keyOf);
    keys.set(issuer, key);
    // A failure (no WebCrypto, IndexedDB refused) is not remembered: the next sign-in tries again.
    key.catch(() => {
      if (keys.get(issuer) === key) keys.delete(issuer);
    });
  }
  return key;
}

/**
 * How a token is sent: `bearer`, with `key` (DPoP-bound, the key is at hand), or `lost` (bound to
 * a key this page does not have: the token is useless and a new one must be asked for). A token
 * kept at rest finds its key in `vault`; none is made for it (a new key could not prove it).
 */
export async function keyForToken(
  tokens: BoundToken,
  vault?: KeyPairVault,
): Promise<DPoPKey | 'bearer' | 'lost'> {
  if (tokens.tokenType !== 'DPoP') return 'bearer';
  const keys = keysOf(vault);
  let key = keys.get(tokens.issuer);
  if (!key && vault) {
    const pair = await vault.get(keyPairName(tokens.issuer)).catch(() => undefined);
    if (isKeyPair(pair)) {
      key = keyOf(pair);
      keys.set(tokens.issuer, key);
    }
  }
  const found = await key?.catch(() => undefined);
  return found && found.jkt === tokens.dpopJkt ? found : 'lost';
}

function keysOf(vault: KeyPairVault | undefined): Map<string, Promise<DPoPKey>> {
  if (!vault) return pageKeys;
  let keys = vaultKeys.get(vault);
  if (!keys) {
    keys = new Map();
    vaultKeys.set(vault, keys);
  }
  return keys;
}

async function keptKey(vault: KeyPairVault, issuer: string): Promise<DPoPKey> {
  const name = keyPairName(issuer);
  const stored = await vault.get(name);
  if (isKeyPair(stored)) return keyOf(stored);
  // Two tabs that each made a pair keep the same one (the vault keeps the first).
  return keyOf(await vault.keepFirst(name, await makePair()));
}

function makePair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
}

async function keyOf(pair: CryptoKeyPair): Promise<DPoPKey> {
  // oauth4webapi reads only the clock skew from the client; proofs do not name the client.
  const handle = oauth.DPoP({}, pair);
  return { handle, jkt: await handle.calculateThumbprint() };
}

/** A P-256 ECDSA pair as WebCrypto made it (anything else in the vault is ignored). */
function isKeyPair(value: unknown): value is CryptoKeyPair {
  if (typeof value !== 'object' || value === null) return false;
  const { privateKey, publicKey } = value as Partial<CryptoKeyPair>;
  return (
    privateKey instanceof CryptoKey &&
    publicKey instanceof CryptoKey &&
    privateKey.algorithm.name === 'ECDSA' &&
    (privateKey.algorithm as EcKeyAlgorithm).namedCurve === 'P-256'
  );
}

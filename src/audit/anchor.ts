/**
 * Anchored heads: the chain's head signed with the log's own ECDSA P-256 key (ES256), so a copy
 * kept outside the browser can later show whether the chain still passes through it. A hash chain
 * alone is tamper-evident only against partial edits: script on the origin can rewrite every event
 * and the head. It cannot rewrite a head the host already shipped somewhere else.
 *
 * The signature covers the canonical JSON of {at, hash, keyId, seq}. Signatures are WebCrypto's
 * ECDSA form (r || s, 64 bytes), base64url; keys travel as public JWKs named by their RFC 7638
 * thumbprint. scripts/verify-audit-export.mjs checks the same things with node:crypto alone.
 */

import { canonicalJson } from '../protocol/index.js';
import type { ChainAnchor } from './chain.js';

/** A signed chain head: the event at `seq` had hash `hash` when the log signed it at `at`. */
export interface AnchoredHead {
  seq: number;
  /** The hash of event `seq` (`sha256:` and hex, as the chain stores it). */
  hash: string;
  /** When it was signed (ms since epoch). */
  at: number;
  /** RFC 7638 thumbprint of the public key that verifies `signature`. */
  keyId: string;
  /** ES256 over canonicalJson({at, hash, keyId, seq}), base64url. */
  signature: string;
}

/** A log's public key as an export carries it. */
export interface AnchorKey {
  keyId: string;
  /** The public key, with `kid` (the key id) and `alg: 'ES256'`. */
  jwk: JsonWebKey & { kid?: string };
}

/** Where the head that was checked came from. */
export type AnchorSource = 'log' | 'given';

/** Whether the chain as stored extends an anchored head. */
export type AnchorReport =
  | { status: 'none' }
  | { status: 'extends'; head: AnchoredHead; source: AnchorSource }
  | { status: 'broken'; head: AnchoredHead; source: AnchorSource; reason: string }
  | { status: 'unverifiable'; head: AnchoredHead; source: AnchorSource; reason: string };

export const ANCHOR_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** The text a head's signature covers. */
export function anchorText(head: Omit<AnchoredHead, 'signature'>): string {
  const { seq, hash, at, keyId } = head;
  return canonicalJson({ at, hash, keyId, seq });
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** RFC 7638: SHA-256 over the required members of an EC key, in lexicographic order, base64url. */
export async function jwkThumbprint(jwk: JsonWebKey): Promise<string> {
  if (
    jwk.kty !== 'EC' ||
    typeof jwk.crv !== 'string' ||
    typeof jwk.x !== 'string' ||
    typeof jwk.y !== 'string'
  )
    throw new TypeError('an anchor key is an EC public key with crv, x and y');
  const required = canonicalJson({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(required))));
}

/** The public half of `publicKey` as an export carries it. */
export async function anchorKeyOf(publicKey: CryptoKey): Promise<AnchorKey> {
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', publicKey);
  const bare = { kty, crv, x, y } as JsonWebKey;
  const keyId = await jwkThumbprint(bare);
  return { keyId, jwk: { ...bare, kid: keyId, alg: 'ES256', use: 'sig' } };
}

/** Signs `head` with the log's private key. */
export async function signHead(
  privateKey: CryptoKey,
  keyId: string,
  head: ChainAnchor,
  at: number,
): Promise<AnchoredHead> {
  const unsigned = { seq: head.seq, hash: head.hash, at, keyId };
  const signature = await crypto.subtle.sign(
    SIGNING,
    privateKey,
    new TextEncoder().encode(anchorText(unsigned)),
  );
  return { ...unsigned, signature: base64url(new Uint8Array(signature)) };
}

/** Whether `value` has an anchored head's shape (heads handed back by a host are not trusted). */
export function isAnchoredHead(value: unknown): value is AnchoredHead {
  if (typeof value !== 'object' || value === null) return false;
  const head = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(head.seq) &&
    (head.seq as number) > 0 &&
    typeof head.hash === 'string' &&
    Number.isFinite(head.at) &&
    typeof head.keyId === 'string' &&
    typeof head.signature === 'string'
  );
}

/**
 * Why `head`'s signature does not hold under `publicKey`, or undefined when it does. The key must
 * be the one the head names (its thumbprint), so a replaced key is told apart from a forged head.
 */
export async function signatureProblem(
  head: AnchoredHead,
  publicKey: JsonWebKey,
): Promise<string | undefined> {
  let keyId: string;
  try {
    keyId = await jwkThumbprint(publicKey);
  } catch (error) {
    return `the public key cannot be read (${error instanceof Error ? error.message : String(error)})`;
  }
  if (keyId !== head.keyId)
    return `it was signed by key ${head.keyId}, but the key it is checked with is ${keyId}: the log's key was replaced, or the head is from another log`;
  const signature = fromBase64url(head.signature);
  if (!signature) return 'its signature is not base64url';
  try {
    const key = await crypto.subtle.importKey(
      'jwk',
      { kty: publicKey.kty, crv: publicKey.crv, x: publicKey.x, y: publicKey.y } as JsonWebKey,
      ANCHOR_ALGORITHM,
      false,
      ['verify'],
    );
    const valid = await crypto.subtle.verify(
      SIGNING,
      key,
      signature as Uint8Array<ArrayBuffer>,
      new TextEncoder().encode(anchorText(head)),
    );
    return valid ? undefined : 'its signature does not verify: the head was altered after signing, or forged';
  } catch (error) {
    return `its signature cannot be checked (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** The chain as stored, as far as an anchor check needs it. */
export interface ChainView {
  /** Where the chain starts (the genesis, or the checkpoint pruning left). */
  checkpoint: ChainAnchor;
  /** The newest event. */
  head: ChainAnchor;
  /** The stored hash of event `seq` (checkpoint.seq < seq <= head.seq), if it is there. */
  hashAt(seq: number): Promise<string | undefined> | string | undefined;
}

/**
 * Whether the chain passes through `head`: its signature holds under `publicKey` (the key the
 * host trusts, else the log's own), and the event at its seq still has its hash. Call it on a
 * chain that verified: then that one event's hash vouches for every event before it. Check the
 * head's shape first (isAnchoredHead): heads from outside are not trusted.
 */
export async function checkAnchoredHead(
  head: AnchoredHead,
  publicKey: JsonWebKey | undefined,
  chain: ChainView,
  source: AnchorSource,
): Promise<AnchorReport> {
  const broken = (reason: string): AnchorReport => ({ status: 'broken', head, source, reason });
  if (!publicKey) return broken('the log has no signing key to check it with: give the public key you kept');
  const problem = await signatureProblem(head, publicKey);
  if (problem) return broken(problem);
  if (head.seq > chain.head.seq)
    return broken(
      `the chain ends at event ${chain.head.seq}, before the anchored event ${head.seq}: events were removed or the chain was rewritten`,
    );
  if (head.seq < chain.checkpoint.seq)
    return {
      status: 'unverifiable',
      head,
      source,
      reason: `event ${head.seq} was pruned (the log starts after event ${chain.checkpoint.seq}); check against a newer anchored head`,
    };
  const stored = head.seq === chain.checkpoint.seq ? chain.checkpoint.hash : await chain.hashAt(head.seq);
  if (stored === undefined) return broken(`event ${head.seq} is missing from the chain`);
  if (stored !== head.hash)
    return broken(
      `event ${head.seq} no longer has the hash that was signed: the chain was rewritten at or before that event`,
    );
  return { status: 'extends', head, source };
}

/** One sentence for a person: what the check found. */
export function describeAnchorReport(report: AnchorReport): string {
  if (report.status === 'none') return 'No anchored head yet: the chain head has not been signed.';
  const which = `${report.source === 'given' ? 'The anchored head you gave' : 'The last anchored head'} (event ${report.head.seq}, signed ${new Date(report.head.at).toISOString()})`;
  if (report.status === 'extends') return `${which} is still in the chain: nothing before it was rewritten.`;
  if (report.status === 'unverifiable') return `${which} cannot be checked: ${report.reason}.`;
  return `${which} is not in the chain: ${report.reason}.`;
}

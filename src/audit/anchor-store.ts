/**
 * Where a log keeps its anchoring key pair and its newest anchored heads: two records in the meta
 * store. The private key is a non-extractable CryptoKey: IndexedDB stores it by structured clone,
 * which keeps it non-extractable, so no script (ours included) can read its bytes; script on the
 * origin can still ask it to sign, which is why heads are worth shipping elsewhere while the log
 * is known to be intact.
 */

import { ANCHOR_ALGORITHM, type AnchoredHead, type AnchorKey, anchorKeyOf } from './anchor.js';
import { readHead } from './blocks.js';
import { type ChainAnchor, GENESIS } from './chain.js';
import { META_KEY, STORE } from './database.js';
import { requestResult, transactionDone } from './idb.js';

/** The key pair as stored: the private key for signing, the public key as a JWK with its id. */
export interface StoredAnchorKey {
  privateKey: CryptoKey;
  key: AnchorKey;
  createdAt: number;
}

function isStoredKey(value: unknown): value is StoredAnchorKey {
  const stored = value as StoredAnchorKey | undefined;
  return (
    typeof stored === 'object' &&
    stored !== null &&
    stored.privateKey instanceof CryptoKey &&
    typeof stored.key?.keyId === 'string'
  );
}

/** The log's key pair, or undefined before the first anchor. */
export async function readAnchorKey(database: IDBDatabase): Promise<StoredAnchorKey | undefined> {
  const meta = database.transaction(STORE.meta, 'readonly').objectStore(STORE.meta);
  const stored: unknown = await requestResult(meta.get(META_KEY.anchorKey));
  return isStoredKey(stored) ? stored : undefined;
}

/**
 * The log's key pair, created on first use. Two contexts may create one at once: `add` lets only
 * the first be stored, and the other reads it back, so a log never has two keys.
 */
export async function anchorKeyFor(database: IDBDatabase, now: number): Promise<StoredAnchorKey> {
  const existing = await readAnchorKey(database);
  if (existing) return existing;
  const pair = await crypto.subtle.generateKey(ANCHOR_ALGORITHM, false, ['sign', 'verify']);
  const created: StoredAnchorKey = {
    privateKey: pair.privateKey,
    key: await anchorKeyOf(pair.publicKey),
    createdAt: now,
  };
  const transaction = database.transaction(STORE.meta, 'readwrite');
  transaction.objectStore(STORE.meta).add(created, META_KEY.anchorKey);
  try {
    await transactionDone(transaction);
    return created;
  } catch (error) {
    if (!(error instanceof DOMException && error.name === 'ConstraintError')) throw error;
    const winner = await readAnchorKey(database);
    if (!winner) throw error;
    return winner;
  }
}

function anchorsOf(value: unknown): AnchoredHead[] {
  return Array.isArray(value) ? (value as AnchoredHead[]) : [];
}

/** The anchored heads kept in the log, oldest first. */
export async function readAnchors(database: IDBDatabase): Promise<AnchoredHead[]> {
  const meta = database.transaction(STORE.meta, 'readonly').objectStore(STORE.meta);
  return anchorsOf(await requestResult(meta.get(META_KEY.anchors)));
}

/** The chain's head, its checkpoint and the newest anchored head, read together. */
export async function readHeadAndAnchor(
  database: IDBDatabase,
): Promise<{ head: ChainAnchor; checkpoint: ChainAnchor; last: AnchoredHead | undefined }> {
  const transaction = database.transaction([STORE.blocks, STORE.meta], 'readonly');
  const meta = transaction.objectStore(STORE.meta);
  const [head, checkpoint, anchors] = await Promise.all([
    readHead(transaction),
    requestResult(meta.get(META_KEY.checkpoint)),
    requestResult(meta.get(META_KEY.anchors)),
  ]);
  return {
    head,
    checkpoint: (checkpoint as ChainAnchor | undefined) ?? GENESIS,
    last: anchorsOf(anchors).at(-1),
  };
}

/**
 * Adds `head` to the kept heads (ordered by seq, the newest `keep`), in one transaction so two
 * contexts anchoring at once both land. A head already kept for that seq and hash stays as it was
 * and is returned instead (the other context signed it first).
 */
export async function storeAnchor(
  database: IDBDatabase,
  head: AnchoredHead,
  keep: number,
): Promise<AnchoredHead> {
  const transaction = database.transaction(STORE.meta, 'readwrite');
  const done = transactionDone(transaction);
  done.catch(() => undefined);
  const meta = transaction.objectStore(STORE.meta);
  const kept = anchorsOf(await requestResult(meta.get(META_KEY.anchors)));
  const same = kept.find((other) => other.seq === head.seq && other.hash === head.hash);
  if (same) {
    transaction.abort();
    return same;
  }
  const next = [...kept.filter((other) => other.seq !== head.seq), head]
    .sort((a, b) => a.seq - b.seq)
    .slice(-Math.max(1, keep));
  meta.put(next, META_KEY.anchors);
  await done;
  return head;
}

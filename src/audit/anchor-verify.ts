/**
 * The anchor part of a log's verify: after the chain verified from its checkpoint to its head, is
 * the head the host kept (or else the newest one the log kept) still in it? A chain rewritten as a
 * whole verifies on its own; only this check, against a head kept outside, catches it.
 */

import { type AnchoredHead, type AnchorReport, checkAnchoredHead, isAnchoredHead } from './anchor.js';
import { readAnchorKey, readAnchors, readHeadAndAnchor } from './anchor-store.js';
import { readEventsBySeq } from './blocks.js';
import type { ChainAnchor, Verification } from './chain.js';

export interface VerifyOptions {
  onProgress?: (checked: number, total: number) => void;
  /** A head the host kept (as onAnchor handed it): the chain must still pass through it. */
  anchor?: AnchoredHead;
  /**
   * The public key (JWK) the host kept, to check `anchor` with. Without it the log's own key is
   * used: the anchor's key id must still be that key's, so a replaced key is caught either way.
   */
  publicKey?: JsonWebKey;
}

/** What verify reports: the chain check, and whether the chain extends the anchored head. */
export type LogVerification = Verification & { anchor: AnchorReport };

/** The chain bounds verify walked. */
interface VerifiedBounds {
  checkpoint: ChainAnchor;
  head: ChainAnchor;
}

export async function anchorReport(
  database: IDBDatabase,
  bounds: VerifiedBounds,
  options: Pick<VerifyOptions, 'anchor' | 'publicKey'>,
): Promise<AnchorReport> {
  const given = options.anchor;
  if (given !== undefined && !isAnchoredHead(given))
    throw new TypeError(
      'verify({ anchor }) takes an anchored head as onAnchor handed it: { seq, hash, at, keyId, signature }.',
    );
  const head = given ?? (await newestKept(database, bounds.head.seq));
  if (!head) return { status: 'none' };
  let chainHead = bounds.head;
  // Appended (and maybe anchored) by another context since verify read its bounds: the stored hash
  // at the anchored seq is read as it is now.
  if (head.seq > chainHead.seq) chainHead = (await readHeadAndAnchor(database)).head;
  const publicKey = options.publicKey ?? (await readAnchorKey(database))?.key.jwk;
  return checkAnchoredHead(
    head,
    publicKey,
    {
      checkpoint: bounds.checkpoint,
      head: chainHead,
      hashAt: async (seq) => (await readEventsBySeq(database, [seq]))[0]?.hash,
    },
    given ? 'given' : 'log',
  );
}

/**
 * The newest head the log kept. One newer than the head verify walked to is either another
 * context's (it appended since: take the newest at or before the walked head) or a sign that the
 * chain was cut after it was anchored (the head now is still before it: check that one, and fail).
 */
async function newestKept(database: IDBDatabase, walkedSeq: number): Promise<AnchoredHead | undefined> {
  const kept = (await readAnchors(database)).filter(isAnchoredHead);
  const newest = kept.at(-1);
  if (!newest || newest.seq <= walkedSeq) return newest;
  const { head } = await readHeadAndAnchor(database);
  if (head.seq < newest.seq) return newest;
  return kept.filter((anchor) => anchor.seq <= walkedSeq).at(-1);
}

/** The chain's verification with the anchor's: a chain that no longer extends its anchor fails. */
export function withAnchorReport(verification: Verification, report: AnchorReport): LogVerification {
  if (!verification.ok || report.status !== 'broken') return { ...verification, anchor: report };
  return {
    ok: false,
    seq: report.head.seq,
    reason: `the chain does not pass through ${report.source === 'given' ? 'the anchored head given' : 'its last anchored head'} (signed ${new Date(report.head.at).toISOString()}): ${report.reason}`,
    checked: verification.count,
    anchor: report,
  };
}

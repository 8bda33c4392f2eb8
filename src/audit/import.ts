/**
 * Opening an export for viewing: parsed, verified on the way in, and folded into entries. Nothing is
 * written to the live log: an imported file is evidence to read, not history to merge.
 */

import { type AnchorReport, checkAnchoredHead, isAnchoredHead } from './anchor.js';
import { type ChainEvent, type Verification, verifyChain } from './chain.js';
import { type AuditEntry, entriesOf } from './entry.js';
import { type ExportHeader, parseExport } from './export-format.js';

export interface ImportedAudit {
  header: ExportHeader;
  events: ChainEvent[];
  /** The chain's check; it fails too when the chain does not pass through a signed head the file carries. */
  verification: Verification;
  /** Each signed head the file carries, checked against its key and the chain (empty: none). */
  anchors: AnchorReport[];
  /** Newest first, like the live log's queries. */
  entries: AuditEntry[];
}

export class AuditImportError extends Error {
  constructor(reason: string) {
    super(`This file cannot be opened as a Toolgate audit export: ${reason}.`);
    this.name = 'AuditImportError';
  }
}

export async function readAuditExport(
  file: Blob | string,
  onProgress?: (checked: number, total: number) => void,
): Promise<ImportedAudit> {
  const text = typeof file === 'string' ? file : await file.text();
  const parsed = parseExport(text);
  if ('error' in parsed) throw new AuditImportError(parsed.error);
  const { header, events } = parsed;
  const chain = await verifyChain(
    events,
    header.anchor,
    onProgress ? (checked) => onProgress(checked, events.length) : undefined,
  );
  const { reports: anchors, malformed } = chain.ok
    ? await checkAnchors(header, events, chain.head)
    : { reports: [], malformed: 0 };
  const broken = anchors.find((report) => report.status === 'broken');
  let verification: Verification = chain;
  if (chain.ok && malformed > 0)
    verification = {
      ok: false,
      seq: chain.head.seq,
      reason: `${malformed} of the signed heads in the file's header are not signed heads (seq, hash, at, keyId, signature)`,
      checked: chain.count,
    };
  else if (chain.ok && broken?.status === 'broken')
    verification = {
      ok: false,
      seq: broken.head.seq,
      reason: `the chain does not pass through a signed head the file carries: ${broken.reason}`,
      checked: chain.count,
    };
  return { header, events, verification, anchors, entries: entriesOf(events) };
}

/** Checks each signed head in the header against the header's key and the (verified) events. */
async function checkAnchors(
  header: ExportHeader,
  events: readonly ChainEvent[],
  head: { seq: number; hash: string },
): Promise<{ reports: AnchorReport[]; malformed: number }> {
  const heads: unknown[] = Array.isArray(header.anchoredHeads) ? header.anchoredHeads : [];
  const first = events[0]?.seq ?? head.seq + 1;
  const reports: AnchorReport[] = [];
  let malformed = 0;
  for (const anchored of heads) {
    if (!isAnchoredHead(anchored)) {
      malformed++;
      continue;
    }
    reports.push(
      await checkAnchoredHead(
        anchored,
        header.anchorKey?.jwk,
        { checkpoint: header.anchor, head, hashAt: (seq) => events[seq - first]?.hash },
        'log',
      ),
    );
  }
  return { reports, malformed };
}

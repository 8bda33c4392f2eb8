/**
 * Opening an export for viewing: parsed, verified on the way in, and folded into entries. Nothing is
 * written to the live log: an imported file is evidence to read, not history to merge.
 */

import { type ChainEvent, type Verification, verifyChain } from './chain.js';
import { type AuditEntry, entriesOf } from './entry.js';
import { type ExportHeader, parseExport } from './export-format.js';

export interface ImportedAudit {
  header: ExportHeader;
  events: ChainEvent[];
  verification: Verification;
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
  const verification = await verifyChain(
    events,
    header.anchor,
    onProgress ? (checked) => onProgress(checked, events.length) : undefined,
  );
  return { header, events, verification, entries: entriesOf(events) };
}

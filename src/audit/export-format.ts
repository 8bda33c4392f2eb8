/**
 * The export file: NDJSON, a header line then one chain event per line, so a third party can verify
 * it offline (scripts/verify-audit-export.mjs) without Toolgate.
 */

import type { ChainAnchor, ChainEvent } from './chain.js';

export const EXPORT_FORMAT = 'toolgate-audit-export';
export const EXPORT_VERSION = 1;

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  /** Verification starts here (the genesis, or the checkpoint left by pruning). */
  anchor: ChainAnchor;
}

/** Yields the export's lines (each ends with a newline), for streaming to a file or a Blob. */
export function* exportLines(
  anchor: ChainAnchor,
  events: Iterable<ChainEvent>,
  now = new Date(),
): Generator<string> {
  const header: ExportHeader = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    anchor,
  };
  yield `${JSON.stringify(header)}\n`;
  for (const event of events) yield `${JSON.stringify(event)}\n`;
}

/** Reads an export back: the header and the events, or a reason it is not one. */
export function parseExport(
  text: string,
): { header: ExportHeader; events: ChainEvent[] } | { error: string } {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) return { error: 'the file is empty' };
  let header: ExportHeader;
  try {
    header = JSON.parse(lines[0]!) as ExportHeader;
  } catch {
    return { error: 'the first line is not JSON: this is not a Toolgate audit export' };
  }
  if (header.format !== EXPORT_FORMAT)
    return { error: 'the first line is not a Toolgate audit export header' };
  if (header.version !== EXPORT_VERSION)
    return { error: `export version ${String(header.version)} is not supported` };
  const events: ChainEvent[] = [];
  for (let i = 1; i < lines.length; i++) {
    try {
      events.push(JSON.parse(lines[i]!) as ChainEvent);
    } catch {
      return { error: `line ${i + 1} is not JSON` };
    }
  }
  return { header, events };
}

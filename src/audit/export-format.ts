/**
 * The export file: NDJSON, a header line then one chain event per line, so a third party can verify
 * it offline (scripts/verify-audit-export.mjs) without Toolgate.
 *
 * A log that signs its head adds its public key and its anchored heads to the header (members a
 * verifier that predates them ignores, so older verifiers still check the chain): the chain must
 * pass through each of those heads, and each signature must hold under that key.
 */

import type { AnchoredHead, AnchorKey } from './anchor.js';
import type { ChainAnchor, ChainEvent } from './chain.js';

export const EXPORT_FORMAT = 'toolgate-audit-export';
export const EXPORT_VERSION = 1;

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  /** Verification starts here (the genesis, or the checkpoint left by pruning). */
  anchor: ChainAnchor;
  /** The log's public key, when it has signed heads. */
  anchorKey?: AnchorKey;
  /** Signed heads the exported chain passes through, oldest first. */
  anchoredHeads?: AnchoredHead[];
}

export type ExportFormat = 'ndjson' | 'json';

/** The log's public key and the signed heads an export carries. */
export interface ExportAnchoring {
  key: AnchorKey;
  heads: AnchoredHead[];
}

function headerOf(anchor: ChainAnchor, now: Date, anchoring?: ExportAnchoring): ExportHeader {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    anchor,
    ...(anchoring ? { anchorKey: anchoring.key, anchoredHeads: anchoring.heads } : {}),
  };
}

/**
 * Streams an export from events read lazily. NDJSON: a header line, then one event per line. JSON:
 * the header's fields plus `events: [...]`, written piece by piece so a large log never becomes one
 * string in memory. An event may come as its JSON text already (the log stores it so).
 */
export async function* exportChunks(
  anchor: ChainAnchor,
  events: AsyncIterable<ChainEvent | string> | Iterable<ChainEvent | string>,
  format: ExportFormat,
  now = new Date(),
  anchoring?: ExportAnchoring,
): AsyncGenerator<string> {
  const header = headerOf(anchor, now, anchoring);
  const json = (event: ChainEvent | string) => (typeof event === 'string' ? event : JSON.stringify(event));
  if (format === 'ndjson') {
    yield `${JSON.stringify(header)}\n`;
    for await (const event of events) yield `${json(event)}\n`;
    return;
  }
  yield `${JSON.stringify(header).slice(0, -1)},"events":[`;
  let first = true;
  for await (const event of events) {
    yield `${first ? '\n' : ',\n'}${json(event)}`;
    first = false;
  }
  yield '\n]}\n';
}

/** Yields the export's lines (each ends with a newline), for streaming to a file or a Blob. */
export function* exportLines(
  anchor: ChainAnchor,
  events: Iterable<ChainEvent>,
  now = new Date(),
  anchoring?: ExportAnchoring,
): Generator<string> {
  const header = headerOf(anchor, now, anchoring);
  yield `${JSON.stringify(header)}\n`;
  for (const event of events) yield `${JSON.stringify(event)}\n`;
}

/** Reads an export back: the header and the events, or a reason it is not one. */
export function parseExport(
  text: string,
): { header: ExportHeader; events: ChainEvent[] } | { error: string } {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) return { error: 'the file is empty' };
  if (lines.length > 1 && !lines[0]!.trimEnd().endsWith('}')) return parseJsonExport(text);
  let header: ExportHeader;
  try {
    header = JSON.parse(lines[0]!) as ExportHeader;
  } catch {
    // Not an export: say so instead of the parser's message.
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
      // Say which line is broken instead of the parser's message.
      return { error: `line ${i + 1} is not JSON` };
    }
  }
  return { header, events };
}

/** The JSON form: one object with the header's fields and an `events` array. */
function parseJsonExport(text: string): { header: ExportHeader; events: ChainEvent[] } | { error: string } {
  let document: ExportHeader & { events?: unknown };
  try {
    document = JSON.parse(text) as ExportHeader & { events?: unknown };
  } catch (error) {
    return {
      error: `the file is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (document.format !== EXPORT_FORMAT) return { error: 'this is not a Toolgate audit export' };
  if (document.version !== EXPORT_VERSION)
    return { error: `export version ${String(document.version)} is not supported` };
  if (!Array.isArray(document.events)) return { error: 'the export has no events array' };
  const { events, ...header } = document;
  return { header, events: events as ChainEvent[] };
}

/**
 * Which OTLP export, if any, runs for a log in this context, so the audit view can show its state
 * without owning it (the host, mount() or the extension's worker starts it). A tiny module of its
 * own: the view imports it, not the exporter.
 */

import type { AuditLog } from '../log.js';
import type { OtlpExport } from './exporter.js';

const exports = new WeakMap<AuditLog, OtlpExport>();
const waiting = new WeakMap<AuditLog, Set<(running: OtlpExport) => void>>();

/** Called by startOtlpExport. */
export function announceExport(log: AuditLog, running: OtlpExport): void {
  exports.set(log, running);
  for (const listener of waiting.get(log) ?? []) listener(running);
  waiting.delete(log);
}

/** Calls `listener` with the log's export: at once if it runs, else when it starts. Returns the cancel. */
export function whenExporting(log: AuditLog, listener: (running: OtlpExport) => void): () => void {
  const known = exports.get(log);
  if (known) {
    listener(known);
    return () => undefined;
  }
  const listeners = waiting.get(log) ?? new Set();
  waiting.set(log, listeners.add(listener));
  return () => listeners.delete(listener);
}

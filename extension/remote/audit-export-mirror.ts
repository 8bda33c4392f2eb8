/**
 * The worker's audit export, as the side panel sees it. The export runs in the service worker
 * (audit-export.ts), so the page's audit view, which finds "the export of this log" through
 * announceExport/whenExporting, would show nothing: the page announces this stand-in for its own
 * handle on the log instead. Its status is the one the worker sends over the port (key
 * `auditExport`), and Resume goes back over the port to the worker's export.
 */

import {
  type AuditLog,
  announceExport,
  type OtlpExport,
  type OtlpExportStatus,
} from '../../src/audit/index.js';

export interface ExportMirror {
  /** A status from the worker (null: no export runs there). */
  update(status: OtlpExportStatus | null): void;
  /** The page's log is open: the view can find the mirror through it (once a status came). */
  attach(log: AuditLog): void;
}

export function auditExportMirror(resume: () => Promise<void>): ExportMirror {
  let current: OtlpExportStatus | undefined;
  let log: AuditLog | undefined;
  let announced = false;
  const listeners = new Set<(status: OtlpExportStatus) => void>();
  const workerOnly = () => {
    throw new Error(
      'The audit export runs in Toolgate’s background worker; the side panel can only resume it.',
    );
  };
  const mirror: OtlpExport = {
    status: () =>
      current ?? { state: 'starting', acknowledgedSeq: 0, headSeq: 0, rejectedRecords: 0, skippedEvents: 0 },
    onStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    resume: () => resume(),
    flush: async () => workerOnly(),
    stop: workerOnly,
  };
  const announce = () => {
    if (announced || !log || !current) return;
    announced = true;
    announceExport(log, mirror);
  };
  return {
    update(status) {
      // A policy removed while the panel is open leaves the last line; it comes back when one starts.
      if (!status) return;
      current = status;
      announce();
      for (const listener of listeners) listener(status);
    },
    attach(opened) {
      log = opened;
      announce();
    },
  };
}

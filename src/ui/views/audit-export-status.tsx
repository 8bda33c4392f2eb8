/**
 * One line in the audit view about the log's OpenTelemetry export, when one runs in this page:
 * sending, up to date, behind by N events (and why, while the collector is unreachable), or stopped
 * with what to do and a button to resume once that is fixed. Nothing shows without an export.
 */

import { useSignal, useSignalEffect } from '@preact/signals';
import { type AuditLog, type OtlpExport, type OtlpExportStatus, whenExporting } from '../../audit/index.js';

export function AuditExportStatus({ log }: { log: AuditLog }) {
  const running = useSignal<OtlpExport | undefined>(undefined);
  const status = useSignal<OtlpExportStatus | undefined>(undefined);
  useSignalEffect(() => {
    let unsubscribe: (() => void) | undefined;
    const cancel = whenExporting(log, (started) => {
      running.value = started;
      status.value = started.status();
      unsubscribe = started.onStatus((next) => {
        status.value = next;
      });
    });
    return () => {
      cancel();
      unsubscribe?.();
    };
  });
  const current = status.value;
  if (!current) return null;
  const stopped = current.state === 'stopped';
  return (
    <p class={stopped ? 'tg-error' : 'tg-muted'} role="status" data-export-state={current.state}>
      {describeExport(current)}{' '}
      {stopped && (
        <button type="button" onClick={() => void running.value?.resume()}>
          Resume export
        </button>
      )}
    </p>
  );
}

/** The export's state for a person, in one sentence. */
export function describeExport(status: OtlpExportStatus): string {
  const behind = Math.max(0, status.headSeq - status.acknowledgedSeq);
  const lag = behind > 0 ? `behind by ${behind} event${behind === 1 ? '' : 's'}` : 'up to date';
  switch (status.state) {
    case 'starting':
      return 'Collector export: starting.';
    case 'waiting-for-lock':
      return 'Collector export: another tab of this site sends this log.';
    case 'idle':
    case 'sending':
      return `Collector export: ${behind > 0 ? `sending, ${lag}` : lag}.`;
    case 'retrying':
      return `Collector export: ${lag}; ${status.problem ?? 'the collector did not answer'}${
        status.retryAt ? ` at ${new Date(status.retryAt).toLocaleTimeString()}` : ''
      }.`;
    case 'stopped':
      return `Collector export stopped, ${lag}: ${status.problem ?? 'it was stopped by the page.'}`;
  }
}

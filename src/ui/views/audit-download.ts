/** Saves the audit log as a file (NDJSON or JSON), reporting progress as a fraction. */

import type { AuditLog } from '../../audit/index.js';

export async function downloadAuditLog(
  log: AuditLog,
  format: 'ndjson' | 'json',
  onProgress: (fraction: number) => void,
): Promise<void> {
  onProgress(0);
  const blob = await log.exportBlob(format, ({ written, total }) => {
    onProgress(total === 0 ? 1 : written / total);
  });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `toolgate-audit-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.${format}`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

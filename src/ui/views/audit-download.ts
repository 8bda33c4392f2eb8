/** Saves the audit log as a file (JSON Lines or JSON), reporting progress as a fraction. */

import type { AuditLog } from '../../audit/index.js';

/** "toolgate-audit-2026-11-28.jsonl": the day's date, so the name says when (the browser numbers repeats). */
export function auditFileName(format: 'ndjson' | 'json', at: Date = new Date()): string {
  const day = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
  return `toolgate-audit-${day}.${format === 'ndjson' ? 'jsonl' : 'json'}`;
}

export async function downloadAuditLog(
  log: AuditLog,
  format: 'ndjson' | 'json',
  onProgress: (fraction: number) => void,
  fileName: string = auditFileName(format),
): Promise<void> {
  onProgress(0);
  const blob = await log.exportBlob(format, ({ written, total }) => {
    onProgress(total === 0 ? 1 : written / total);
  });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

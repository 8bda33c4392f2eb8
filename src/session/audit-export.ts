/**
 * Starts the audit log's OpenTelemetry export for a controller: the one path the host API and the
 * widget (mount(), <toolgate-panel>) share. The exporter is a chunk of its own, fetched only when a
 * collector is configured, once the log is open (after the first paint).
 */

import type { OtlpExport, OtlpExportOptions } from '../audit/index.js';
import type { Controller } from './controller.js';

export function startAuditExport(
  controller: Controller,
  otlp: OtlpExportOptions,
  /** Where a failure to start is also said (the page reads it through otlpExport() as well). */
  warn?: (message: string) => void,
): Promise<OtlpExport> {
  const started = start(controller, otlp);
  // Read through otlpExport(); meanwhile not "unhandled", and said where asked.
  started.catch((error: unknown) =>
    warn?.(`Toolgate: the audit log export did not start: ${(error as Error).message}`),
  );
  return started;
}

async function start(controller: Controller, otlp: OtlpExportOptions): Promise<OtlpExport> {
  const { auditLog } = await controller.ready;
  if (!auditLog)
    throw new Error(
      'The OpenTelemetry export needs the IndexedDB audit log; leave `audit` at its default to export.',
    );
  const { startOtlpExport } = await import('../audit/otlp/exporter.js');
  return startOtlpExport(auditLog, {
    serverUrl: (serverId) => controller.servers.value.find((server) => server.id === serverId)?.config.url,
    ...otlp,
  });
}

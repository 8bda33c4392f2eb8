/** The audit room's front door: the IndexedDB log, its chain and anchors, import/export and OTLP. */

export {
  type AnchoredHead,
  type AnchorKey,
  type AnchorReport,
  checkAnchoredHead,
  describeAnchorReport,
  isAnchoredHead,
} from './anchor.js';
export type { AnchoringOptions } from './anchor-cadence.js';
export type { LogVerification, VerifyOptions } from './anchor-verify.js';
export { type ChainAnchor, type ChainEvent, GENESIS, type Verification, verifyChain } from './chain.js';
export type { AuditEntry, EntryOutcome } from './entry.js';
export { AuditContentionError, AuditStorageFullError, AuditWriteError } from './errors.js';
export { type ExportFormat, parseExport } from './export-format.js';
export { encodeCursor } from './filter.js';
export { AuditImportError, type ImportedAudit, readAuditExport } from './import.js';
export {
  ALL_OUTCOMES,
  type AuditChange,
  type AuditLog,
  type AuditLogOptions,
  createAuditLog,
  type ExportProgress,
} from './log.js';
export {
  type OtlpExport,
  type OtlpExportOptions,
  type OtlpExportStatus,
  startOtlpExport,
} from './otlp/exporter.js';
export { announceExport, whenExporting } from './otlp/running.js';
export type { AuditFacets, AuditPage, AuditQuery, CountQuery } from './query.js';
export type { PruneReport, RetentionPolicy } from './retention.js';

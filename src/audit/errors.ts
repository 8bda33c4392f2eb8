/** Errors the audit log raises. The gate turns a failed pending write into a refusal. */

import { ToolgateError } from '../protocol/index.js';

/** The browser refused to store more (QuotaExceededError). Nothing was dropped: the append failed. */
export class AuditStorageFullError extends ToolgateError {
  readonly kind = 'audit-storage-full';
  constructor(readonly logName: string) {
    super(
      `The audit log "${logName}" is full: the browser refused to store more (QuotaExceededError). ` +
        'Export the log and prune old entries, or free disk space for this site.',
    );
    this.name = 'AuditStorageFullError';
  }
}

/** Any other storage failure (the database was deleted, the disk failed, private mode limits). */
export class AuditWriteError extends ToolgateError {
  readonly kind = 'audit-write';
  constructor(
    readonly logName: string,
    readonly storageError: unknown,
  ) {
    super(
      `The audit log "${logName}" could not be written (${
        storageError instanceof Error ? `${storageError.name}: ${storageError.message}` : String(storageError)
      }).`,
    );
    this.name = 'AuditWriteError';
  }
}

/** Another tab kept moving the chain head faster than this one could append. */
export class AuditContentionError extends ToolgateError {
  readonly kind = 'audit-contention';
  constructor(readonly logName: string) {
    super(`The audit log "${logName}" is busy in another tab; the entry was not written. Try again.`);
    this.name = 'AuditContentionError';
  }
}

export function isQuotaError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'QuotaExceededError';
}

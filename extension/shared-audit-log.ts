/**
 * Opens the audit log the service worker writes, for the side panel's Audit log tab and the export
 * mirror. What panel-page.tsx loads with `import()`: the log's runtime (IndexedDB segments, queries,
 * retention) is not needed for the panel's first paint. A module of its own, so the bundle loads
 * one function rather than building a namespace object for the audit room.
 */

import { type AuditLog, createAuditLog } from '../src/audit/index.js';

export function openSharedAuditLog(): Promise<AuditLog> {
  return createAuditLog({ name: 'toolgate-audit' });
}

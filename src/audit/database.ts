/**
 * The audit log's own IndexedDB database: append-only chain events keyed by seq, invocation entries
 * with one index per filter a person uses (each ends in [startedAt, invocationId] so every index
 * lists newest first and pages by an exact key), and a small meta store for the chain head and the
 * pruning checkpoint.
 */

import { openDatabase } from './idb.js';

export const AUDIT_DB_VERSION = 1;

export const STORE = { events: 'events', entries: 'entries', meta: 'meta' } as const;

/** Index name → the fields before [startedAt, invocationId]. */
export const ENTRY_INDEXES = {
  time: [],
  server: ['serverId'],
  tool: ['toolName'],
  outcome: ['outcome'],
} as const satisfies Record<string, readonly string[]>;

export type EntryIndexName = keyof typeof ENTRY_INDEXES;

/** Sparse: only pending entries carry `pendingSession`, so this index lists exactly the calls in flight. */
export const PENDING_INDEX = 'pending-session';

/** Entries by the seq of their first event: retention cuts the chain below the oldest one kept. */
export const FIRST_SEQ_INDEX = 'first-seq';

export const META_KEY = { head: 'head', checkpoint: 'checkpoint', retention: 'retention' } as const;

export function openAuditDatabase(name: string, factory?: IDBFactory): Promise<IDBDatabase> {
  return openDatabase(
    name,
    AUDIT_DB_VERSION,
    (database, oldVersion) => {
      if (oldVersion < 1) {
        database.createObjectStore(STORE.events, { keyPath: 'seq' });
        const entries = database.createObjectStore(STORE.entries, { keyPath: 'invocationId' });
        for (const [index, fields] of Object.entries(ENTRY_INDEXES))
          entries.createIndex(index, [...fields, 'startedAt', 'invocationId']);
        entries.createIndex(PENDING_INDEX, 'pendingSession');
        entries.createIndex(FIRST_SEQ_INDEX, 'firstSeq');
        database.createObjectStore(STORE.meta);
      }
    },
    factory,
  );
}

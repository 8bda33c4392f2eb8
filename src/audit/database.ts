/**
 * The audit log's own IndexedDB database (version 2).
 *
 * - blocks: the chain, one record per appended batch (blocks.ts), keyed by its first seq.
 * - meta: the chain head, the pruning checkpoint, the retention setting, and the anchoring key pair
 *   (its private key a non-extractable CryptoKey: structured clone keeps it so) with the newest
 *   anchored heads (anchor-store.ts). New keys in an existing store: no version change.
 * - index: one record, the index state: how far the chain is sealed into segments, and the
 *   directory of segments (IndexState).
 * - segments, segment-words, segment-terms, segment-ids, pages: the sealed index segments
 *   (segment.ts).
 *
 * Entries not yet sealed (the newest few thousand events) are folded from the blocks in memory.
 * Version 1 (events and entries one record each, with an index per filter) is migrated in the
 * upgrade itself (migrate-v1.ts); every stored event keeps its hash, so an old log still verifies.
 */

import { openDatabase } from './idb.js';
import { migrateV1 } from './migrate-v1.js';
import type { SegmentInfo } from './segment.js';

const AUDIT_DB_VERSION = 2;

export const STORE = {
  blocks: 'blocks',
  meta: 'meta',
  index: 'index',
  segments: 'segments',
  segmentTerms: 'segment-terms',
  segmentWords: 'segment-words',
  segmentIds: 'segment-ids',
  pages: 'pages',
} as const;

/** The multi-entry index over SegmentTerms.terms. */
export const TERM_INDEX = 'term';

export const META_KEY = {
  head: 'head',
  checkpoint: 'checkpoint',
  retention: 'retention',
  anchorKey: 'anchor-key',
  anchors: 'anchors',
} as const;
export const INDEX_KEY = 'state';

export interface IndexState {
  /** Chain events up to here are folded into segments (or were pruned); later ones are folded in memory. */
  sealedThrough: number;
  /** Every segment, in the order they were sealed. */
  segments: SegmentInfo[];
  /** Bumped by every seal and every prune, so a context knows its view went stale. */
  version: number;
}

export const EMPTY_INDEX: IndexState = { sealedThrough: 0, segments: [], version: 0 };

function createStores(database: IDBDatabase): void {
  if (!database.objectStoreNames.contains(STORE.meta)) database.createObjectStore(STORE.meta);
  database.createObjectStore(STORE.blocks, { keyPath: 'from' });
  database.createObjectStore(STORE.index);
  database.createObjectStore(STORE.segments, { keyPath: 'from' });
  database
    .createObjectStore(STORE.segmentTerms, { keyPath: 'from' })
    .createIndex(TERM_INDEX, 'terms', { multiEntry: true });
  database.createObjectStore(STORE.segmentWords, { keyPath: 'from' });
  database.createObjectStore(STORE.segmentIds, { keyPath: 'from' });
  database.createObjectStore(STORE.pages, { keyPath: ['from', 'page'] });
}

export function openAuditDatabase(name: string, factory?: IDBFactory): Promise<IDBDatabase> {
  let migration: Promise<void> | undefined;
  const opened = openDatabase(
    name,
    AUDIT_DB_VERSION,
    (database, oldVersion, transaction) => {
      if (oldVersion < 2) createStores(database);
      if (oldVersion === 1) {
        migration = migrateV1(database, transaction).catch((error: unknown) => {
          transaction.abort();
          throw error;
        });
        // Awaited below; this only keeps a failure from being reported as unhandled meanwhile.
        migration.catch(() => undefined);
      }
    },
    factory,
  );
  // A failed migration aborts the upgrade (the version 1 log is left as it was) and says why.
  return opened.then(
    async (database) => {
      await migration;
      return database;
    },
    async (error: unknown) => {
      await migration;
      throw error;
    },
  );
}

/**
 * Appends events to the chain. Callers hand over drafts; the appender batches whatever queued up
 * while the previous write was committing, seals the batch on the head (one hash after another) and
 * writes it as one block record plus the new head, in one transaction whose requests are all issued
 * at once. IndexedDB costs about the same per record whatever its size, so a block of 500 events
 * costs little more than one event, and a lone pending write is one short transaction.
 *
 * The write transaction re-reads the head and aborts if another context moved it since we sealed
 * (possible only without Web Locks, or after another tab wrote while we held a cached head); the
 * batch is then re-sealed on the new head. So the chain never forks or interleaves.
 */

import type { StoredBlock } from './blocks.js';
import { type ChainAnchor, type ChainEvent, GENESIS, sealTexts } from './chain.js';
import { META_KEY, STORE } from './database.js';
import { AuditContentionError, AuditStorageFullError, AuditWriteError, isQuotaError } from './errors.js';
import { requestResult, transactionDone } from './idb.js';
import type { Exclusive } from './lock.js';

export type EventDraft = Omit<ChainEvent, 'seq' | 'prevHash' | 'hash'>;

interface Queued {
  draft: EventDraft;
  resolve: (event: ChainEvent) => void;
  reject: (error: unknown) => void;
}

export interface AppenderOptions {
  database: IDBDatabase;
  logName: string;
  exclusive: Exclusive;
  durability: IDBTransactionDurability;
  /** Told after each committed batch (the unsealed view, BroadcastChannel announcements, viewers). */
  onCommitted: (events: ChainEvent[]) => void;
  /** Upper bound on events per transaction. */
  maxBatch?: number;
}

const MAX_ATTEMPTS = 20;
const CONTENTION_MEMORY_MS = 2000;

/**
 * The head as stored. `generation` and `counts` were written by version 1 of the log and are
 * carried along untouched.
 */
export interface HeadRecord extends ChainAnchor {
  generation?: number;
}

class HeadMoved extends Error {}

export class Appender {
  private queue: Queued[] = [];
  private draining = false;
  /** The head as we last wrote or read it; verified in every write. */
  private head: HeadRecord | undefined;
  /** Until then, batches take the Web Lock first: another context was appending recently. */
  private contendedUntil = 0;

  constructor(private readonly options: AppenderOptions) {}

  append(draft: EventDraft): Promise<ChainEvent> {
    return new Promise((resolve, reject) => {
      this.queue.push({ draft, resolve, reject });
      if (!this.draining) {
        this.draining = true;
        // A microtask later, so drafts queued in the same turn share the first batch.
        queueMicrotask(() => void this.drain());
      }
    });
  }

  /** Forget the cached head (after an import or a prune changed the store underneath). */
  invalidateHead(): void {
    this.head = undefined;
  }

  /** Runs `work` while holding the append lock, with a way to append without re-locking. */
  exclusive<T>(work: (appendNow: (drafts: EventDraft[]) => Promise<ChainEvent[]>) => Promise<T>): Promise<T> {
    return this.options.exclusive(() => work((drafts) => this.writeBatch(drafts)));
  }

  private async drain(): Promise<void> {
    const maxBatch = this.options.maxBatch ?? 500;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, maxBatch);
        try {
          const drafts = batch.map((item) => item.draft);
          // Optimistic first: the transaction's head check alone keeps the chain whole, and skipping
          // the lock saves a round trip to the browser process on every call. Once another context
          // is seen appending, batches queue on the Web Lock for a while instead of retrying.
          const sealed =
            performance.now() < this.contendedUntil
              ? await this.options.exclusive(() => this.writeBatch(drafts))
              : await this.writeBatch(drafts);
          for (const [index, item] of batch.entries()) item.resolve(sealed[index]!);
        } catch (error) {
          for (const item of batch) item.reject(error);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private async writeBatch(drafts: EventDraft[]): Promise<ChainEvent[]> {
    if (drafts.length === 0) return [];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const head = this.head ?? (await this.readHead());
      const sealed = await sealTexts(head, drafts);
      const block: StoredBlock = { from: head.seq + 1, texts: sealed.texts, hashes: sealed.hashes };
      const last = sealed.events.at(-1)!;
      const next: HeadRecord = { ...head, seq: last.seq, hash: last.hash };
      try {
        await this.commit(head, block, next);
      } catch (error) {
        this.head = undefined;
        if (!(error instanceof HeadMoved)) throw this.describe(error);
        this.contendedUntil = performance.now() + CONTENTION_MEMORY_MS;
        // Another context appended first: back off a little (more each time) and re-seal.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * (attempt + 1)));
        continue;
      }
      this.head = next;
      this.options.onCommitted(sealed.events);
      return sealed.events;
    }
    throw new AuditContentionError(this.options.logName);
  }

  private async readHead(): Promise<HeadRecord> {
    const transaction = this.options.database.transaction(STORE.meta, 'readonly');
    const head = (await requestResult(transaction.objectStore(STORE.meta).get(META_KEY.head))) as
      | HeadRecord
      | undefined;
    return head ?? GENESIS;
  }

  /**
   * One transaction, every request issued at once (one round trip to the storage backend): check
   * the head, add the block, put the new head. The head check aborts the lot if another context
   * appended since this batch was sealed; adding a block at an existing seq would fail it too.
   */
  private commit(expected: HeadRecord, block: StoredBlock, next: HeadRecord): Promise<void> {
    const transaction = this.options.database.transaction([STORE.blocks, STORE.meta], 'readwrite', {
      durability: this.options.durability,
    });
    const meta = transaction.objectStore(STORE.meta);
    let moved = false;
    const headRequest = meta.get(META_KEY.head);
    headRequest.onsuccess = () => {
      const current: HeadRecord = (headRequest.result as HeadRecord | undefined) ?? GENESIS;
      if (current.seq !== expected.seq || current.hash !== expected.hash) {
        moved = true;
        transaction.abort();
      }
    };
    transaction.objectStore(STORE.blocks).add(block);
    meta.put(next, META_KEY.head);
    return transactionDone(transaction).catch((error: unknown) => {
      throw moved || (error instanceof DOMException && error.name === 'ConstraintError')
        ? new HeadMoved()
        : error;
    });
  }

  private describe(error: unknown): Error {
    if (isQuotaError(error)) return new AuditStorageFullError(this.options.logName);
    if (error instanceof AuditStorageFullError || error instanceof AuditWriteError) return error;
    return new AuditWriteError(this.options.logName, error);
  }
}

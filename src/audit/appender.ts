/**
 * Appends events to the chain. Callers hand over drafts; the appender batches whatever queued up
 * while the previous write was committing, seals the batch on the head (one hash after another) and
 * writes it as one block record, in one transaction whose requests are all issued at once. IndexedDB costs about the same per record whatever its size, so a block of 500 events
 * costs little more than one event, and a lone pending write is one short transaction.
 *
 * The write transaction checks that nothing follows the head we sealed on and aborts if another
 * context appended since (or pruned what we last saw); the batch is then re-sealed on the new head.
 * So the chain never forks or interleaves.
 */

import { readHead, type StoredBlock } from './blocks.js';
import { type ChainAnchor, type ChainEvent, sealTexts } from './chain.js';
import { STORE } from './database.js';
import { AuditContentionError, AuditStorageFullError, AuditWriteError, isQuotaError } from './errors.js';
import { transactionDone } from './idb.js';
import type { Exclusive } from './lock.js';

export type EventDraft = Omit<ChainEvent, 'seq' | 'prevHash' | 'hash'>;

interface Queued {
  draft: EventDraft;
  resolve: (event: ChainEvent) => void;
  reject: (error: unknown) => void;
}

interface AppenderOptions {
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

class HeadMoved extends Error {}

export class Appender {
  private queue: Queued[] = [];
  private draining = false;
  /** The head as we last wrote or read it; verified in every write. */
  private head: ChainAnchor | undefined;
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
      const next: ChainAnchor = { seq: last.seq, hash: last.hash };
      try {
        await this.commit(head, block);
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

  private readHead(): Promise<ChainAnchor> {
    return readHead(this.options.database.transaction([STORE.blocks, STORE.meta], 'readonly'));
  }

  /**
   * One transaction on one store, both requests issued at once (one round trip to the storage
   * backend): check that no block follows the head we sealed on, and add ours. Another context
   * that appended (or pruned the blocks we last saw) makes the check fail and the transaction
   * abort; adding a block at an existing seq would fail it too. The head is the last block, so
   * there is no head record to write.
   */
  private commit(expected: ChainAnchor, block: StoredBlock): Promise<void> {
    const transaction = this.options.database.transaction(STORE.blocks, 'readwrite', {
      durability: this.options.durability,
    });
    const blocks = transaction.objectStore(STORE.blocks);
    let moved = false;
    const later = blocks.getKey(IDBKeyRange.lowerBound(expected.seq + 1));
    later.onsuccess = () => {
      if (later.result !== undefined) {
        moved = true;
        transaction.abort();
      }
    };
    blocks.add(block);
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

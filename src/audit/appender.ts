/**
 * Appends events to the chain. Callers hand over drafts; the appender batches whatever queued up
 * while the previous write was committing (one lock, one hash run, one transaction per batch), which
 * is what makes thousands of entries per second possible while a lone pending write still takes one
 * short transaction.
 *
 * The write transaction re-reads the head and aborts if another context moved it since we sealed
 * (possible only without Web Locks, or after another tab wrote while we held a cached head); the
 * batch is then re-sealed on the new head. So the chain never forks or interleaves.
 */

import { type ChainAnchor, type ChainEvent, GENESIS, sealEvents } from './chain.js';
import { META_KEY, STORE } from './database.js';
import { type AuditEntry, applyEvent } from './entry.js';
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
  /** Told after each committed batch (for BroadcastChannel announcements and viewers). */
  onCommitted: (events: ChainEvent[], entries: AuditEntry[]) => void;
  /** Upper bound on events per transaction. */
  maxBatch?: number;
}

const MAX_ATTEMPTS = 20;

class HeadMoved extends Error {}

export class Appender {
  private queue: Queued[] = [];
  private draining = false;
  /** The head as we last wrote or read it; verified inside every write transaction. */
  private head: ChainAnchor | undefined;

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

  /** Forget the cached head (after pruning or an import changed the store underneath). */
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
          const sealed = await this.options.exclusive(() => this.writeBatch(batch.map((item) => item.draft)));
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
      const sealed = await sealEvents(head, drafts);
      try {
        const entries = await this.commit(head, sealed);
        this.head = { seq: sealed.at(-1)!.seq, hash: sealed.at(-1)!.hash };
        this.options.onCommitted(sealed, entries);
        return sealed;
      } catch (error) {
        this.head = undefined;
        if (!(error instanceof HeadMoved)) throw this.describe(error);
        // Another context appended first: back off a little (more each time) and re-seal.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * (attempt + 1)));
      }
    }
    throw new AuditContentionError(this.options.logName);
  }

  private async readHead(): Promise<ChainAnchor> {
    const transaction = this.options.database.transaction(STORE.meta, 'readonly');
    const head = await requestResult(transaction.objectStore(STORE.meta).get(META_KEY.head));
    return (head as ChainAnchor | undefined) ?? GENESIS;
  }

  /** One transaction: check the head, add the events, fold them into their entries, move the head. */
  private commit(expected: ChainAnchor, sealed: ChainEvent[]): Promise<AuditEntry[]> {
    const transaction = this.options.database.transaction(
      [STORE.events, STORE.entries, STORE.meta],
      'readwrite',
      {
        durability: this.options.durability,
      },
    );
    const events = transaction.objectStore(STORE.events);
    const entries = transaction.objectStore(STORE.entries);
    const meta = transaction.objectStore(STORE.meta);
    const updated: AuditEntry[] = [];
    let moved = false;
    const headRequest = meta.get(META_KEY.head);
    headRequest.onsuccess = () => {
      const current = (headRequest.result as ChainAnchor | undefined) ?? GENESIS;
      if (current.seq !== expected.seq || current.hash !== expected.hash) {
        moved = true;
        transaction.abort();
        return;
      }
      for (const event of sealed) events.add(event);
      const byInvocation = new Map<string, ChainEvent[]>();
      for (const event of sealed) {
        const list = byInvocation.get(event.invocationId) ?? [];
        list.push(event);
        byInvocation.set(event.invocationId, list);
      }
      for (const [invocationId, list] of byInvocation) {
        const entryRequest = entries.get(invocationId);
        entryRequest.onsuccess = () => {
          let entry = entryRequest.result as AuditEntry | undefined;
          for (const event of list) entry = applyEvent(entry, event);
          if (entry) {
            entries.put(entry);
            updated.push(entry);
          }
        };
      }
      const last = sealed.at(-1)!;
      meta.put({ seq: last.seq, hash: last.hash } satisfies ChainAnchor, META_KEY.head);
    };
    return transactionDone(transaction).then(
      () => updated,
      (error: unknown) => {
        throw moved ? new HeadMoved() : error;
      },
    );
  }

  private describe(error: unknown): Error {
    if (isQuotaError(error)) return new AuditStorageFullError(this.options.logName);
    if (error instanceof AuditStorageFullError || error instanceof AuditWriteError) return error;
    return new AuditWriteError(this.options.logName, error);
  }
}

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
import { type AuditEntry, applyEvent, type OutcomeCounts } from './entry.js';
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
const CONTENTION_MEMORY_MS = 2000;
const MAX_KNOWN = 10_000;
/** Event kinds that begin an invocation's entry (nothing to fold into). */
const STARTS_AN_ENTRY: ReadonlySet<ChainEvent['kind']> = new Set(['pending', 'refusal']);

/**
 * The head as stored, with the running counts (one record: one write per batch). Pruning bumps
 * `generation`, so a cached head goes stale after a prune too.
 */
export interface HeadRecord extends ChainAnchor {
  generation?: number;
  counts?: OutcomeCounts;
}

interface LogState {
  head: HeadRecord;
  counts: OutcomeCounts;
}

class HeadMoved extends Error {}

export class Appender {
  private queue: Queued[] = [];
  private draining = false;
  /** The head and counts as we last wrote or read them; the head is verified in every write. */
  private state: LogState | undefined;
  /** Entries this context wrote as pending, so their final event needs no read. */
  private readonly known = new Map<string, AuditEntry>();
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

  /** Forget the cached head (after pruning or an import changed the store underneath). */
  invalidateHead(): void {
    this.state = undefined;
    this.known.clear();
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
      const state = this.state ?? (await this.readState());
      const sealed = await sealEvents(state.head, drafts);
      const { entries, counts } = await this.fold(sealed, state.counts);
      try {
        await this.commit(state.head, sealed, entries, counts);
      } catch (error) {
        this.state = undefined;
        this.known.clear();
        if (!(error instanceof HeadMoved)) throw this.describe(error);
        this.contendedUntil = performance.now() + CONTENTION_MEMORY_MS;
        // Another context appended first: back off a little (more each time) and re-seal.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * (attempt + 1)));
        continue;
      }
      const last = sealed.at(-1)!;
      this.state = { head: { ...state.head, seq: last.seq, hash: last.hash, counts }, counts };
      for (const entry of entries) {
        if (entry.outcome === 'pending' && this.known.size < MAX_KNOWN)
          this.known.set(entry.invocationId, entry);
        else this.known.delete(entry.invocationId);
      }
      this.options.onCommitted(sealed, entries);
      return sealed;
    }
    throw new AuditContentionError(this.options.logName);
  }

  /** The head and the running counts, read together. */
  private async readState(): Promise<LogState> {
    const transaction = this.options.database.transaction(STORE.meta, 'readonly');
    const head = (await requestResult(transaction.objectStore(STORE.meta).get(META_KEY.head))) as
      | HeadRecord
      | undefined;
    return { head: head ?? GENESIS, counts: head?.counts ?? {} };
  }

  /**
   * The entries after this batch, and the counts. An entry this context wrote as pending is taken
   * from memory (valid: the head check proves nobody else wrote since); others are read first.
   */
  private async fold(
    sealed: ChainEvent[],
    countsBefore: OutcomeCounts,
  ): Promise<{ entries: AuditEntry[]; counts: OutcomeCounts }> {
    const byInvocation = new Map<string, ChainEvent[]>();
    for (const event of sealed) {
      const list = byInvocation.get(event.invocationId);
      if (list) list.push(event);
      else byInvocation.set(event.invocationId, [event]);
    }
    const unknown = [...byInvocation]
      .filter(([id, list]) => !this.known.has(id) && !STARTS_AN_ENTRY.has(list[0]!.kind))
      .map(([id]) => id);
    const read = new Map<string, AuditEntry>();
    if (unknown.length > 0) {
      const store = this.options.database.transaction(STORE.entries, 'readonly').objectStore(STORE.entries);
      const found = await Promise.all(unknown.map((id) => requestResult(store.get(id))));
      for (const [i, entry] of found.entries()) if (entry) read.set(unknown[i]!, entry as AuditEntry);
    }
    const counts: OutcomeCounts = { ...countsBefore };
    const entries: AuditEntry[] = [];
    for (const [id, list] of byInvocation) {
      const before = this.known.get(id) ?? read.get(id);
      let entry = STARTS_AN_ENTRY.has(list[0]!.kind) ? undefined : before;
      for (const event of list) entry = applyEvent(entry, event);
      if (!entry) continue;
      entries.push(entry);
      if (before && !STARTS_AN_ENTRY.has(list[0]!.kind))
        counts[before.outcome] = Math.max(0, (counts[before.outcome] ?? 0) - 1);
      counts[entry.outcome] = (counts[entry.outcome] ?? 0) + 1;
    }
    return { entries, counts };
  }

  /**
   * One transaction, every request issued at once (one round trip to the storage backend): check
   * the head, add the events, put the entries, counts and new head. The head check aborts the lot if
   * another context appended or pruned since this batch was sealed; adding an existing seq would
   * fail the transaction too.
   */
  private commit(
    expected: HeadRecord,
    sealed: ChainEvent[],
    entries: AuditEntry[],
    counts: OutcomeCounts,
  ): Promise<void> {
    const transaction = this.options.database.transaction(
      [STORE.events, STORE.entries, STORE.meta],
      'readwrite',
      {
        durability: this.options.durability,
      },
    );
    const meta = transaction.objectStore(STORE.meta);
    let moved = false;
    const headRequest = meta.get(META_KEY.head);
    headRequest.onsuccess = () => {
      const current: HeadRecord = (headRequest.result as HeadRecord | undefined) ?? GENESIS;
      if (
        current.seq !== expected.seq ||
        current.hash !== expected.hash ||
        (current.generation ?? 0) !== (expected.generation ?? 0)
      ) {
        moved = true;
        transaction.abort();
      }
    };
    const events = transaction.objectStore(STORE.events);
    for (const event of sealed) events.add(event);
    const store = transaction.objectStore(STORE.entries);
    for (const entry of entries) store.put(entry);
    const last = sealed.at(-1)!;
    meta.put({ ...expected, seq: last.seq, hash: last.hash, counts } satisfies HeadRecord, META_KEY.head);
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

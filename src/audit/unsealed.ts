/**
 * The newest entries, not yet sealed into a segment: folded in memory from the chain events after
 * the index state's `sealedThrough`, starting from the entries it carried (still pending then).
 * This context's own appends are folded in as they commit (no read); another context's are read
 * from the blocks when a query next looks.
 */

import { blocksCovering, eventOf, forEachEvent } from './blocks.js';
import { type ChainAnchor, type ChainEvent, GENESIS } from './chain.js';
import { EMPTY_INDEX, INDEX_KEY, type IndexState, META_KEY, STORE } from './database.js';
import { type AuditEntry, applyEvent } from './entry.js';
import { requestResult } from './idb.js';

export interface Snapshot {
  view: UnsealedEntries;
  state: IndexState;
  head: ChainAnchor;
}

export class UnsealedEntries {
  version = -1;
  sealedThrough = 0;
  /** The last event folded in. */
  through = 0;
  readonly entries = new Map<string, AuditEntry>();
  /** The events folded in since sealedThrough, so a seal can re-fold what came after it. */
  private events: ChainEvent[] = [];

  static of(state: IndexState): UnsealedEntries {
    const view = new UnsealedEntries();
    view.reset(state);
    return view;
  }

  reset(state: IndexState): void {
    this.version = state.version;
    this.sealedThrough = state.sealedThrough;
    this.through = state.sealedThrough;
    this.entries.clear();
    for (const entry of state.carried) this.entries.set(entry.invocationId, entry);
    this.events = [];
  }

  /** Folds committed events in order; false when they do not follow on (read the blocks then). */
  apply(events: readonly ChainEvent[]): boolean {
    for (const event of events) {
      if (event.seq <= this.through) continue;
      if (event.seq !== this.through + 1) return false;
      this.entries.set(event.invocationId, applyEvent(this.entries.get(event.invocationId), event));
      this.events.push(event);
      this.through = event.seq;
    }
    return true;
  }

  /** After this context sealed through `through`: start from the new state, keep what came later. */
  sealed(state: IndexState, through: number, previousVersion: number): void {
    if (this.version !== previousVersion) return;
    const later = this.events.filter((event) => event.seq > through);
    this.reset(state);
    this.apply(later);
  }

  /**
   * The unsealed entries as of `transaction` (which must cover meta, index and blocks), with the
   * index state and head read in it. This view catches up in place; if the transaction sees an
   * older index than this view already has, a private view of that moment is built instead, so
   * segments and unsealed entries always come from the same moment.
   */
  async at(transaction: IDBTransaction): Promise<Snapshot> {
    const index = transaction.objectStore(STORE.index);
    const meta = transaction.objectStore(STORE.meta);
    const [stored, storedHead] = await Promise.all([
      requestResult(index.get(INDEX_KEY)),
      requestResult(meta.get(META_KEY.head)),
    ]);
    const state = (stored as IndexState | undefined) ?? EMPTY_INDEX;
    const head = (storedHead as ChainAnchor | undefined) ?? GENESIS;
    if (state.version > this.version) this.reset(state);
    const view = state.version === this.version ? this : UnsealedEntries.of(state);
    if (head.seq > view.through) {
      const from = view.through;
      const blocks = await blocksCovering(transaction.objectStore(STORE.blocks), from, head.seq);
      const events: ChainEvent[] = [];
      forEachEvent(blocks, from, head.seq, (block, i) => events.push(eventOf(block, i)));
      view.apply(events);
    }
    return { view, state, head };
  }
}

/**
 * The newest part of the log, not yet sealed into a segment: folded in memory from the chain
 * events after the index state's `sealedThrough`. This context's own appends are folded in as they
 * commit (no read); another context's are read from the blocks when a query next looks.
 *
 * An event for an entry that is already in a segment (a call still pending when it was sealed,
 * finishing now) cannot be folded without that entry: it waits in `unresolved` until the next
 * snapshot reads the entry from its segment. The folded entry then shadows the segment's copy
 * (queries skip the copy) until the next seal patches the segment.
 */

import { blocksCovering, eventOf, forEachEvent } from './blocks.js';
import type { ChainEvent } from './chain.js';
import { EMPTY_INDEX, INDEX_KEY, type IndexState, STORE } from './database.js';
import { type AuditEntry, applyEvent, type EntryOutcome } from './entry.js';
import { requestResult } from './idb.js';
import { pendingIn, readEntriesAt, readSummary, type SealedPlace, slotOf } from './segment.js';

interface Snapshot {
  view: UnsealedEntries;
  state: IndexState;
}

/** A segment's entry that later events changed: where it lives and what the segment still says. */
interface Shadow {
  segment: number;
  stale: EntryOutcome;
}

/** Event kinds that begin an invocation's entry (nothing to fold into). */
const STARTS_AN_ENTRY: ReadonlySet<ChainEvent['kind']> = new Set(['pending', 'refusal']);

export class UnsealedEntries {
  version = -1;
  sealedThrough = 0;
  /** The last event folded in (or waiting in `unresolved`). */
  through = 0;
  /** Entries begun after sealedThrough, and shadows of segment entries changed since. */
  readonly entries = new Map<string, AuditEntry>();
  readonly shadows = new Map<string, Shadow>();
  /** Events whose entry is not in memory yet, in order. */
  unresolved: ChainEvent[] = [];
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
    this.shadows.clear();
    this.unresolved = [];
    this.events = [];
  }

  /** Folds committed events in order; false when they do not follow on (read the blocks then). */
  apply(events: readonly ChainEvent[]): boolean {
    for (const event of events) {
      if (event.seq <= this.through) continue;
      if (event.seq !== this.through + 1) return false;
      const entry = this.entries.get(event.invocationId);
      if (entry || STARTS_AN_ENTRY.has(event.kind))
        this.entries.set(event.invocationId, applyEvent(entry, event));
      else this.unresolved.push(event);
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
   * The unsealed entries as of `transaction` (which must cover every store queries read), with the
   * index state read in it. This view catches up in place; if the transaction sees an
   * older index than this view already has, a private view of that moment is built instead, so
   * segments and unsealed entries always come from the same moment.
   */
  async at(transaction: IDBTransaction): Promise<Snapshot> {
    const stored = (await requestResult(transaction.objectStore(STORE.index).get(INDEX_KEY))) as
      | IndexState
      | undefined;
    const state = stored ?? EMPTY_INDEX;
    if (state.version > this.version) this.reset(state);
    const view = state.version === this.version ? this : UnsealedEntries.of(state);
    const from = view.through;
    const blocks = await blocksCovering(
      transaction.objectStore(STORE.blocks),
      from,
      Number.POSITIVE_INFINITY,
    );
    if (blocks.length > 0) {
      const events: ChainEvent[] = [];
      forEachEvent(blocks, from, Number.POSITIVE_INFINITY, (block, i) => events.push(eventOf(block, i)));
      view.apply(events);
    }
    if (view.unresolved.length > 0) await view.resolve(transaction, state);
    return { view, state };
  }

  /**
   * Reads the segment entries that unresolved events belong to, and folds the events into them.
   * Only a pending entry gets later events, so only segments holding pending entries are read.
   */
  private async resolve(transaction: IDBTransaction, state: IndexState): Promise<void> {
    const version = this.version;
    const ids = new Set(this.unresolved.map((event) => event.invocationId));
    const summaries = transaction.objectStore(STORE.segments);
    const holding = state.segments.filter((info) => (info.counts.pending ?? 0) > 0);
    const read = await Promise.all(holding.map((info) => readSummary(summaries, info.from)));
    const places = new Map<string, SealedPlace>();
    for (const summary of read) {
      if (!summary) continue;
      for (const { invocationId } of pendingIn(summary)) {
        if (!ids.has(invocationId)) continue;
        places.set(invocationId, {
          segment: summary.from,
          ...slotOf(summary, summary.ids.indexOf(invocationId)),
        });
      }
    }
    const wanted = [...places];
    const entries = await readEntriesAt(
      transaction.objectStore(STORE.pages),
      wanted.map(([, place]) => place),
    );
    const found = new Map<string, { entry: AuditEntry; segment: number } | undefined>(
      [...ids].map((id) => [id, undefined]),
    );
    for (const [i, [id, place]] of wanted.entries()) {
      const entry = entries[i];
      if (entry) found.set(id, { entry, segment: place.segment });
    }
    // Another snapshot resolved them meanwhile, or a seal reset this view: nothing to do here.
    if (this.version !== version) return;
    const waiting = this.unresolved;
    this.unresolved = [];
    for (const event of waiting) {
      const id = event.invocationId;
      const current = this.entries.get(id);
      if (current) {
        this.entries.set(id, applyEvent(current, event));
        continue;
      }
      const stored = found.get(id);
      if (stored === undefined && !found.has(id)) {
        // Arrived during the reads: the next snapshot resolves it.
        this.unresolved.push(event);
        continue;
      }
      // No segment holds it (its first events were pruned): kept as what is known, like an import.
      this.entries.set(id, applyEvent(stored?.entry, event));
      if (stored) this.shadows.set(id, { segment: stored.segment, stale: stored.entry.outcome });
    }
  }
}

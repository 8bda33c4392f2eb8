/**
 * When the log signs its head: when the host asks (anchor()), and on its own after appends, off
 * the append path. An append only compares two numbers and, at most once per interval, sets a
 * timer; the signing, the key's first creation and the write happen later in a task of their own,
 * so a call never waits for them. A head is signed once `everyEvents` events have been appended
 * since the last anchored head, or `everyMs` after an append, whichever comes first: a busy log is
 * anchored every few thousand events, a quiet one shortly after each call.
 */

import { type AnchoredHead, signHead } from './anchor.js';
import {
  anchorKeyFor,
  readAnchors,
  readHeadAndAnchor,
  type StoredAnchorKey,
  storeAnchor,
} from './anchor-store.js';
import type { ChainAnchor } from './chain.js';

export interface AnchoringOptions {
  /** Sign the head once this many events were appended since the last anchored head. Default 1000. */
  everyEvents?: number;
  /** Sign the head this long after an append that is not anchored yet. Default 10 s. */
  everyMs?: number;
  /** Anchored heads kept in the log (and in its exports). Default 64. */
  keep?: number;
}

export const DEFAULT_ANCHORING: Required<AnchoringOptions> = { everyEvents: 1000, everyMs: 10_000, keep: 64 };

interface AnchorerOptions extends Required<AnchoringOptions> {
  database: IDBDatabase;
  logName: string;
  now: () => number;
  /** The host's callback: ship the head somewhere it trusts. */
  onAnchor: ((head: AnchoredHead) => unknown) | undefined;
  /** false: only explicit anchor() calls sign. */
  automatic: boolean;
}

export class Anchorer {
  /** The newest seq known to be anchored; undefined until read (then only the timer schedules). */
  private anchoredSeq: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerSoon = false;
  /** Anchors run one after another, so two in one context never sign the same head twice. */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** The last event this context appended: what the next automatic anchor signs. */
  private latest: ChainAnchor | undefined;
  /** Read once: a key swapped in storage later does not change what this context signs with. */
  private key: StoredAnchorKey | undefined;

  constructor(private readonly options: AnchorerOptions) {
    if (options.automatic)
      void readAnchors(options.database).then(
        (anchors) => {
          this.anchoredSeq = Math.max(this.anchoredSeq ?? 0, anchors.at(-1)?.seq ?? 0);
        },
        () => undefined,
      );
  }

  /**
   * Told after every committed batch, with its last event: must stay a few comparisons. That event
   * is what the automatic anchor signs, so it reads nothing from the chain's store (an append
   * never waits behind it); another context's later events are anchored by that context.
   */
  appended(last: ChainAnchor): void {
    if (this.closed || !this.options.automatic) return;
    this.latest = last;
    const due = this.anchoredSeq !== undefined && last.seq - this.anchoredSeq >= this.options.everyEvents;
    if (due && !this.timerSoon) this.schedule(0);
    else if (!this.timer) this.schedule(this.options.everyMs);
  }

  /** Signs the head as it is now (or returns the kept head when it is already anchored). */
  anchor(): Promise<AnchoredHead | undefined> {
    return this.enqueue(() => this.anchorOnce());
  }

  private enqueue(work: () => Promise<AnchoredHead | undefined>): Promise<AnchoredHead | undefined> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerSoon = delay === 0;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerSoon = false;
      const latest = this.latest;
      if (!latest || (this.anchoredSeq ?? 0) >= latest.seq) return;
      // A failure (storage full, the database closed) is retried after the next append: the
      // head stays unanchored meanwhile, which is what verify reports.
      this.enqueue(() => this.sign(latest)).catch(() => undefined);
    }, delay);
  }

  private async anchorOnce(): Promise<AnchoredHead | undefined> {
    const { head, last } = await readHeadAndAnchor(this.options.database);
    if (head.seq === 0) return undefined;
    if (last && last.seq === head.seq && last.hash === head.hash) {
      this.anchoredSeq = Math.max(this.anchoredSeq ?? 0, head.seq);
      return last;
    }
    return this.sign(head);
  }

  /** Signs `head`, keeps it, and ships it unless another context kept it first. */
  private async sign(head: ChainAnchor): Promise<AnchoredHead> {
    const { database, keep, now } = this.options;
    this.key ??= await anchorKeyFor(database, now());
    const key = this.key;
    const signed = await signHead(key.privateKey, key.key.keyId, head, now());
    const stored = await storeAnchor(database, signed, keep);
    this.anchoredSeq = Math.max(this.anchoredSeq ?? 0, stored.seq);
    if (stored === signed) this.ship(stored);
    return stored;
  }

  /** Hands a new head to the host. Its failure must not fail the log: the head stays kept. */
  private ship(head: AnchoredHead): void {
    const { onAnchor, logName } = this.options;
    if (!onAnchor) return;
    const warn = (error: unknown) =>
      console.warn(
        `Toolgate audit log "${logName}": onAnchor failed for the head at event ${head.seq} ` +
          `(${error instanceof Error ? error.message : String(error)}); it stays in log.anchors() to be shipped again.`,
      );
    try {
      void Promise.resolve(onAnchor(head)).catch(warn);
    } catch (error) {
      warn(error);
    }
  }
}

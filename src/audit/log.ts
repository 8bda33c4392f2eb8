/**
 * The audit log: an AuditSink for the gate, backed by its own IndexedDB database, and everything a
 * viewer needs (query, counts, verify, export, import, retention, live updates across contexts).
 *
 * Every record becomes one chain event; a pending event is committed before the gate sends the call.
 * Each log instance is a "session" that holds a Web Lock while it lives: a pending entry whose
 * session lock is gone was interrupted (reload, tab closed, worker stopped) and is marked so.
 */

import type {
  AuditSink,
  FinalRecord,
  PendingRecord,
  RefusalRecord,
  ResendRecord,
  TaskRecord,
} from '../gate/index.js';
import { type JsonObject, redactSecrets, redactSecretsInStrings } from '../protocol/index.js';
import type { AnchoredHead, AnchorKey } from './anchor.js';
import { Anchorer, type AnchoringOptions, DEFAULT_ANCHORING } from './anchor-cadence.js';
import { anchorKeyFor, readAnchorKey, readAnchors } from './anchor-store.js';
import { anchorReport, type LogVerification, type VerifyOptions, withAnchorReport } from './anchor-verify.js';
import { Appender, type EventDraft } from './appender.js';
import { eventOf, forEachEvent, readEventsBySeq, walkBlocks } from './blocks.js';
import type { ChainAnchor, ChainEvent, Verification } from './chain.js';
import { META_KEY, openAuditDatabase, STORE } from './database.js';
import type {
  AuditEntry,
  EntryOutcome,
  FinalBody,
  InterruptedBody,
  PendingBody,
  RefusalBody,
} from './entry.js';
import { readBounds, readEventJson } from './events-reader.js';
import { type ExportAnchoring, type ExportFormat, exportChunks } from './export-format.js';
import { requestResult, transactionDone } from './idb.js';
import { createExclusive, heldLockNames, holdSessionLock, whenReleased } from './lock.js';
import {
  type AuditFacets,
  type AuditPage,
  type AuditQuery,
  type CountQuery,
  countEntries,
  countMatching,
  facetsOf,
  getEntry,
  pendingCalls,
  queryEntries,
  READ_STORES,
} from './query.js';
import {
  DEFAULT_RETENTION,
  type PruneReport,
  parseRetention,
  pruneLog,
  type RetentionPolicy,
} from './retention.js';
import { sealUnsealed } from './seal.js';
import { DEFAULT_MAX_RECORDED_BYTES, truncateForAudit } from './truncation.js';
import { UnsealedEntries } from './unsealed.js';
import { verifyBlocks } from './verify-blocks.js';

export interface AuditLogOptions {
  /** The database name; one log per name per origin. Default 'toolgate-audit'. */
  name?: string;
  /**
   * More names whose values are redacted before storage, besides the built-in rule (secret-like
   * names and values, see protocol/redaction.ts), which always applies.
   */
  secretKeys?: readonly RegExp[];
  /** Results larger than this (canonical JSON, UTF-8 bytes) are stored truncated. Default 64 KiB. */
  maxRecordedBytes?: number;
  /**
   * IndexedDB durability of each write. 'strict' flushes to disk before the pending write resolves
   * (survives a power cut, costs milliseconds); the default survives tab and browser crashes.
   */
  durability?: IDBTransactionDurability;
  /**
   * Without Web Locks, a pending call from another session counts as interrupted after this long
   * (with them, liveness is known exactly). Default 15 minutes (beyond the gate's 10-minute cap).
   */
  staleAfterMs?: number;
  /**
   * What to keep, applied after appends at most once a minute: the default until the person picks
   * another setting in the audit view (stored with the log). Default DEFAULT_RETENTION (the newest
   * 20,000 entries); `false` keeps everything.
   */
  retention?: RetentionPolicy | false;
  /**
   * Chain events per index segment: once this many are not yet indexed, the finished entries among
   * them are sealed into a segment (searchable by word, tool and server without scanning). Default
   * 2048; smaller segments cost more records, larger ones a longer in-memory part.
   */
  segmentEvents?: number;
  /**
   * When the log signs its head on its own (besides anchor()): DEFAULT_ANCHORING, i.e. every 1,000
   * events or 10 s after an append; `false` signs only when anchor() is called.
   */
  anchoring?: AnchoringOptions | false;
  /**
   * Told each newly signed head: ship it somewhere this browser cannot rewrite (your server), and
   * later hand it to verify({ anchor }). What it returns (`fetch(...)`'s promise) is awaited and
   * its errors caught; the head stays in anchors().
   */
  onAnchor?: (head: AnchoredHead) => unknown;
  indexedDB?: IDBFactory;
  now?: () => number;
}

/** What viewers hear, from this context or another one. */
export type AuditChange =
  | { type: 'appended'; invocationIds: string[]; headSeq: number }
  | { type: 'pruned'; checkpointSeq: number }
  | { type: 'retention'; retention: RetentionPolicy | false }
  | { type: 'storage-full'; message: string }
  /** A head was signed and kept (the OTLP export ships it to the collector). */
  | { type: 'anchored'; seq: number };

/** A page of the chain for a follower (see AuditLog.eventsAfter). */
export interface EventsAfter {
  events: ChainEvent[];
  headSeq: number;
  prunedThrough: number;
}

export interface ExportProgress {
  written: number;
  total: number;
}

export interface AuditLog extends AuditSink {
  readonly name: string;
  readonly sessionId: string;
  query(query?: AuditQuery): Promise<AuditPage>;
  get(invocationId: string): Promise<AuditEntry | undefined>;
  /** The chain events of one invocation: the evidence behind an entry. */
  eventsOf(invocationId: string): Promise<ChainEvent[]>;
  /**
   * Entries per outcome: all of them, those started within a time range, or those a query finds
   * (server, tool, text too: each outcome's count among the entries the other filters leave).
   */
  countByOutcome(query?: CountQuery): Promise<Record<EntryOutcome, number>>;
  count(): Promise<number>;
  /** The chain events the log holds (what an export writes): an entry is one call, made of several. */
  countEvents(): Promise<number>;
  /** Every server id and tool name that has an entry in the log (for pickers), sorted. */
  facets(): Promise<AuditFacets>;
  /**
   * Chain events after `afterSeq`, oldest first, at most `limit`: for exporters that follow the log
   * (the log is their queue). `prunedThrough` is the checkpoint: events up to it are gone.
   */
  eventsAfter(afterSeq: number, limit: number): Promise<EventsAfter>;
  /**
   * Walks the whole chain from the checkpoint; reports the first break, and whether the chain
   * still passes through the anchored head (the one given, else the newest the log kept).
   */
  verify(options?: VerifyOptions | ((checked: number, total: number) => void)): Promise<LogVerification>;
  /** Signs the chain head now (undefined while the log is empty) and hands it to onAnchor. */
  anchor(): Promise<AnchoredHead | undefined>;
  /** The public key that verifies this log's anchored heads (created with the first anchor). */
  anchorKey(): Promise<AnchorKey>;
  /** The signed heads the log keeps, oldest first. */
  anchors(): Promise<AnchoredHead[]>;
  /** The export, streamed (NDJSON or JSON). */
  exportStream(
    format?: ExportFormat,
    onProgress?: (progress: ExportProgress) => void,
  ): AsyncGenerator<string>;
  /** The export as a Blob for a download link. */
  exportBlob(format?: ExportFormat, onProgress?: (progress: ExportProgress) => void): Promise<Blob>;
  /** Marks calls whose sending session is gone as interrupted; returns how many. */
  markInterrupted(): Promise<number>;
  prune(policy: RetentionPolicy): Promise<PruneReport>;
  /** Why the log cannot store more right now (the browser refused), or undefined. */
  storageProblem(): string | undefined;
  /** What is kept: the person's stored choice, else the host's option, else DEFAULT_RETENTION. */
  retention(): Promise<RetentionPolicy | false>;
  /** Stores the person's choice (false: keep everything) and applies it at once. */
  setRetention(retention: RetentionPolicy | false): Promise<PruneReport | undefined>;
  subscribe(listener: (change: AuditChange) => void): () => void;
  /**
   * Resolves once background indexing has caught up (entries are sealed into searchable segments a
   * few thousand events at a time, after the appends that made them). Queries never need it: they
   * see unsealed entries too. For tests and measurements.
   */
  settled(): Promise<void>;
  close(): void;
}

export const ALL_OUTCOMES: readonly EntryOutcome[] = [
  'pending',
  'success',
  'tool-error',
  'protocol-error',
  'denied',
  'cancelled',
  'timed-out',
  'invalid-arguments',
  'invalid-output',
  'interrupted',
];

const DEFAULT_STALE_MS = 15 * 60_000;
const DEFAULT_SEGMENT_EVENTS = 2048;

export async function createAuditLog(options: AuditLogOptions = {}): Promise<AuditLog> {
  const name = options.name ?? 'toolgate-audit';
  const extraSecretNames = options.secretKeys ?? [];
  const maxBytes = options.maxRecordedBytes ?? DEFAULT_MAX_RECORDED_BYTES;
  const now = options.now ?? Date.now;
  const database = await openAuditDatabase(name, options.indexedDB);
  const sessionId = crypto.randomUUID();
  const sessionLockPrefix = `toolgate-audit-session:${name}:`;
  const session = holdSessionLock(`${sessionLockPrefix}${sessionId}`);
  await session.granted;

  const listeners = new Set<(change: AuditChange) => void>();
  const channel =
    typeof BroadcastChannel === 'function' ? new BroadcastChannel(`toolgate-audit:${name}`) : undefined;
  /** The last storage-full message, until an append succeeds or a prune makes room (any context). */
  let storageProblem: string | undefined;
  /** Changes for other contexts, posted once the current task is done (never delaying a call). */
  let outgoing: AuditChange[] = [];
  const flush = () => {
    const changes = outgoing;
    outgoing = [];
    try {
      for (const change of coalesced(changes)) channel?.postMessage(change);
    } catch {
      // Closed meanwhile: nobody is listening through it any more.
    }
  };
  const tell = (change: AuditChange, broadcast = true) => {
    if (change.type === 'storage-full') storageProblem = change.message;
    if (change.type === 'appended' || change.type === 'pruned') storageProblem = undefined;
    for (const listener of listeners) {
      try {
        listener(change);
      } catch {
        // A viewer's error must not break logging.
      }
    }
    if (!broadcast || !channel) return;
    outgoing.push(change);
    if (outgoing.length === 1) setTimeout(flush, 0);
  };
  if (channel) channel.onmessage = (event: MessageEvent<AuditChange>) => tell(event.data, false);

  /** The entries not yet sealed into a segment, kept in step with this context's appends. */
  const unsealed = new UnsealedEntries();
  /** Set when another context appended between two of ours: the view reads the blocks before sealing. */
  let behind = true;
  let sealing = false;
  let sealRun: Promise<void> = Promise.resolve();
  const segmentEvents = Math.max(16, options.segmentEvents ?? DEFAULT_SEGMENT_EVENTS);
  const catchUp = () => unsealed.at(database.transaction(READ_STORES, 'readonly'));
  /** Seals in the background once enough events are unsealed; appends never wait for it. */
  const maybeSeal = () => {
    if (sealing || (!behind && unsealed.through - unsealed.sealedThrough < segmentEvents)) return;
    sealing = true;
    sealRun = (async () => {
      let lost = 0;
      try {
        for (;;) {
          // Another context's events, or calls finishing whose entries are sealed: read them first.
          if (behind || unsealed.unresolved.length > 0) {
            behind = false;
            await catchUp();
          }
          if (unsealed.through - unsealed.sealedThrough < segmentEvents) return;
          // Another context sealed or pruned first: catch up and look again (a few times at most).
          if (!(await sealUnsealed(database, unsealed))) {
            behind = true;
            if (++lost >= 5) return;
          }
        }
      } catch {
        // The next append tries again (a full disk refuses appends too, and says so there).
      } finally {
        sealing = false;
      }
    })();
  };
  const settled = async () => {
    maybeSeal();
    while (sealing) await sealRun;
  };

  const anchoring = options.anchoring === false ? undefined : { ...DEFAULT_ANCHORING, ...options.anchoring };
  const anchorer = new Anchorer({
    ...(anchoring ?? DEFAULT_ANCHORING),
    database,
    logName: name,
    now,
    // Followers (the OTLP export, any tab) hear of a new head; the host's callback still ships it.
    onAnchor: (head) => {
      tell({ type: 'anchored', seq: head.seq });
      return options.onAnchor?.(head);
    },
    automatic: anchoring !== undefined,
  });

  const appender = new Appender({
    database,
    logName: name,
    exclusive: createExclusive(`toolgate-audit-append:${name}`),
    durability: options.durability ?? 'default',
    onCommitted: (events) => {
      if (!unsealed.apply(events)) behind = true;
      tell({
        type: 'appended',
        invocationIds: [...new Set(events.map((event) => event.invocationId))],
        headSeq: events.at(-1)!.seq,
      });
      maybeSeal();
      anchorer.appended(events.at(-1)!);
    },
  });

  /**
   * Appends a record. Server ids, caller labels and error messages may quote a server URL or a
   * token: every string is redacted by its shape. Members listed in `redacted` went through
   * redactSecrets already, which does that too, so they are not walked again.
   */
  const append = async (draft: EventDraft, redacted: readonly string[] = []): Promise<void> => {
    try {
      await appender.append({ ...draft, body: withoutSecretsInStrings(draft.body, redacted) });
    } catch (error) {
      if (error instanceof Error && error.name === 'AuditStorageFullError')
        tell({ type: 'storage-full', message: error.message });
      throw error;
    }
    scheduleRetention();
  };

  const defaultRetention = options.retention === undefined ? DEFAULT_RETENTION : options.retention;
  const retention = async (): Promise<RetentionPolicy | false> => {
    const transaction = database.transaction(STORE.meta, 'readonly');
    const stored = parseRetention(
      await requestResult(transaction.objectStore(STORE.meta).get(META_KEY.retention)),
    );
    return stored ?? defaultRetention;
  };
  let lastRetention = 0;
  const scheduleRetention = () => {
    if (now() - lastRetention < 60_000) return;
    lastRetention = now();
    void retention()
      .then((policy) => (policy ? prune(policy) : undefined))
      .catch(() => undefined);
  };

  const redact = <T>(value: T) => redactSecrets(value, { extraSecretNames });

  const sink: AuditSink = {
    async pending(record: PendingRecord) {
      // Usually nobody edited the arguments: redact once.
      const edited =
        record.proposedArguments !== record.arguments &&
        JSON.stringify(record.proposedArguments) !== JSON.stringify(record.arguments);
      const sent = redact(record.arguments);
      const proposed = edited ? redact(record.proposedArguments) : sent;
      const { proposedArguments: _proposed, ...rest } = record;
      const body: PendingBody = {
        ...rest,
        ...(edited ? { proposedArguments: proposed.value } : {}),
        arguments: sent.value,
        sessionId,
        redactedPaths: [...new Set([...proposed.paths, ...sent.paths])],
      };
      await append({ invocationId: record.invocationId, kind: 'pending', at: now(), body: asJson(body) }, [
        'arguments',
        'proposedArguments',
      ]);
    },
    async resent(record: ResendRecord) {
      await append({ invocationId: record.invocationId, kind: 'resent', at: now(), body: asJson(record) });
    },
    async task(record: TaskRecord) {
      // The status message is the server's text: a secret in it is redacted like one in a result.
      const { value } = redact(record);
      await append({ invocationId: record.invocationId, kind: 'task', at: now(), body: asJson(value) });
    },
    async final(record: FinalRecord) {
      const { result, ...rest } = record;
      const redacted = result ? redact(result) : undefined;
      const stored = redacted
        ? ((await truncateForAudit(redacted.value, maxBytes)) as FinalBody['result'])
        : undefined;
      const body: FinalBody = {
        ...rest,
        ...(stored ? { result: stored } : {}),
        redactedPaths: redacted?.paths ?? [],
      };
      await append({ invocationId: record.invocationId, kind: 'final', at: now(), body: asJson(body) }, [
        'result',
      ]);
    },
    async refusal(record: RefusalRecord) {
      const proposed = redact(record.proposedArguments);
      const edited = record.arguments ? redact(record.arguments) : undefined;
      const body: RefusalBody = {
        ...record,
        proposedArguments: proposed.value,
        ...(edited ? { arguments: edited.value } : {}),
        redactedPaths: [...new Set([...proposed.paths, ...(edited?.paths ?? [])])],
      };
      await append({ invocationId: record.invocationId, kind: 'refusal', at: now(), body: asJson(body) }, [
        'proposedArguments',
        'arguments',
      ]);
    },
  };

  // Sessions seen alive with calls pending: each is watched, and its calls marked when it ends.
  const watched = new Set<string>();
  const closing = new AbortController();
  function watchUntilGone(session: string): void {
    if (watched.has(session)) return;
    watched.add(session);
    whenReleased(`${sessionLockPrefix}${session}`, closing.signal).then(
      () => {
        watched.delete(session);
        void markInterrupted().catch(() => undefined);
      },
      () => watched.delete(session),
    );
  }

  async function markInterrupted(): Promise<number> {
    return appender.exclusive(async (appendNow) => {
      const pending = await pendingCalls(database, unsealed);
      const held = await heldLockNames();
      const gone = pending.filter((call) => {
        if (call.session === sessionId || call.session === undefined) return false;
        if (!held) return now() - call.sentAt > (options.staleAfterMs ?? DEFAULT_STALE_MS);
        if (!held.has(`${sessionLockPrefix}${call.session}`)) return true;
        watchUntilGone(call.session);
        return false;
      });
      if (gone.length === 0) return 0;
      const detectedAt = now();
      await appendNow(
        gone.map((call) => {
          const body: InterruptedBody = {
            invocationId: call.invocationId,
            reason: 'The page or worker that sent this call closed before its result was recorded.',
            detectedAt,
          };
          return {
            invocationId: call.invocationId,
            kind: 'interrupted',
            at: detectedAt,
            body: asJson(body),
          };
        }),
      );
      return gone.length;
    });
  }

  async function setRetention(choice: RetentionPolicy | false): Promise<PruneReport | undefined> {
    const checked = parseRetention(choice);
    if (checked === undefined)
      throw new RangeError('Retention needs a whole number of entries or milliseconds above zero, or false.');
    const transaction = database.transaction(STORE.meta, 'readwrite');
    transaction.objectStore(STORE.meta).put(checked, META_KEY.retention);
    await transactionDone(transaction);
    tell({ type: 'retention', retention: checked });
    return checked ? prune(checked) : undefined;
  }

  async function prune(policy: RetentionPolicy): Promise<PruneReport> {
    const report = await appender.exclusive(() => pruneLog(database, unsealed, policy, now()));
    if (report.removedEntries > 0) tell({ type: 'pruned', checkpointSeq: report.checkpoint.seq });
    return report;
  }

  async function* exportStream(
    format: ExportFormat = 'ndjson',
    onProgress?: (progress: ExportProgress) => void,
  ): AsyncGenerator<string> {
    // Every export ends on a signed head where it can (a full disk may refuse the signature: the
    // export, the way out of a full disk, goes on with the heads already kept).
    await anchorer.anchor().catch(() => undefined);
    const { anchor, head } = await readBounds(database);
    const total = head.seq - anchor.seq;
    const anchoring = await exportAnchoring(anchor.seq, head.seq);
    let written = 0;
    async function* counted(): AsyncGenerator<string> {
      for await (const event of readEventJson(database, anchor.seq, head.seq)) {
        yield event;
        written++;
        if (onProgress && (written % 500 === 0 || written === total)) onProgress({ written, total });
      }
    }
    if (total === 0) onProgress?.({ written: 0, total: 0 });
    yield* exportChunks(anchor, counted(), format, new Date(now()), anchoring);
  }

  /** The key and the kept heads the exported events can show, if the log ever signed one. */
  async function exportAnchoring(fromSeq: number, throughSeq: number): Promise<ExportAnchoring | undefined> {
    const [key, heads] = await Promise.all([readAnchorKey(database), readAnchors(database)]);
    if (!key) return undefined;
    return { key: key.key, heads: heads.filter((head) => head.seq >= fromSeq && head.seq <= throughSeq) };
  }

  const log: AuditLog = {
    ...sink,
    name,
    sessionId,
    query: (query = {}) => queryEntries(database, unsealed, query),
    get: (invocationId) => getEntry(database, unsealed, invocationId),
    eventsOf: async (invocationId) => {
      const entry = await log.get(invocationId);
      return entry ? readEventsBySeq(database, entry.seqs) : [];
    },
    eventsAfter: async (afterSeq, limit) => {
      const { anchor, head } = await readBounds(database);
      const from = Math.max(afterSeq, anchor.seq);
      const through = Math.min(head.seq, from + Math.max(1, limit));
      const events: ChainEvent[] = [];
      for await (const block of walkBlocks(database, from, through))
        forEachEvent([block], from, through, (stored, i) => events.push(eventOf(stored, i)));
      return { events, headSeq: head.seq, prunedThrough: anchor.seq };
    },
    countByOutcome: async (query = {}) => {
      const { serverId, toolName, text, from, to } = query;
      // Time alone is answered by the directory's counts; anything else by the segments' columns.
      if (serverId === undefined && toolName === undefined && !text?.trim())
        return (
          await countEntries(database, unsealed, ALL_OUTCOMES, {
            ...(from !== undefined ? { from } : {}),
            ...(to !== undefined ? { to } : {}),
          })
        ).counts;
      return countMatching(database, unsealed, ALL_OUTCOMES, query);
    },
    count: async () => (await countEntries(database, unsealed, ALL_OUTCOMES)).total,
    countEvents: async () => {
      const { anchor, head } = await readBounds(database);
      return head.seq - anchor.seq;
    },
    facets: () => facetsOf(database, unsealed),
    verify: async (given) => {
      const { onProgress, ...against } = typeof given === 'function' ? { onProgress: given } : (given ?? {});
      const { anchor, head, sealedThrough } = await readBounds(database);
      const total = head.seq - anchor.seq;
      const verification = await verifyBlocks(
        walkBlocks(database, anchor.seq, head.seq),
        anchor,
        head.seq,
        onProgress ? (checked) => onProgress(checked, total) : undefined,
      );
      const chain = verification.ok ? endCheck(verification, head, sealedThrough) : verification;
      return withAnchorReport(chain, await anchorReport(database, { checkpoint: anchor, head }, against));
    },
    anchor: () => anchorer.anchor(),
    anchorKey: async () => (await anchorKeyFor(database, now())).key,
    anchors: () => readAnchors(database),
    exportStream,
    exportBlob: async (format = 'ndjson', onProgress) => {
      const parts: string[] = [];
      for await (const chunk of exportStream(format, onProgress)) parts.push(chunk);
      return new Blob(parts, { type: format === 'ndjson' ? 'application/x-ndjson' : 'application/json' });
    },
    markInterrupted,
    prune,
    retention,
    setRetention,
    storageProblem: () => storageProblem,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    settled,
    close: () => {
      closing.abort();
      anchorer.close();
      session.release();
      flush();
      channel?.close();
      database.close();
      listeners.clear();
    },
  };

  // Calls left pending by a closed page are settled as soon as any log opens.
  await markInterrupted();
  // A long unsealed part (left by a context that closed before sealing) is sealed in the background.
  maybeSeal();
  return log;
}

/**
 * A chain that verifies but ends before the head, or before events the index already holds, lost
 * its newest events. (Someone who can run script on the origin can also rewrite the whole chain;
 * only a head kept somewhere else catches that.)
 */
function endCheck(
  verification: Extract<Verification, { ok: true }>,
  head: ChainAnchor,
  sealedThrough: number,
): Verification {
  const end = Math.max(head.seq, sealedThrough);
  if (verification.head.seq === end && (end !== head.seq || verification.head.hash === head.hash))
    return verification;
  return {
    ok: false,
    seq: verification.head.seq + 1,
    reason: `the chain ends at event ${verification.head.seq} but the log's head is event ${end}: newer events were removed`,
    checked: verification.count,
  };
}

/** A record with secrets hidden in every string, members in `redacted` taken as they are. */
function withoutSecretsInStrings(body: JsonObject, redacted: readonly string[]): JsonObject {
  if (redacted.length === 0) return redactSecretsInStrings(body);
  const rest: JsonObject = { ...body };
  for (const key of redacted) delete rest[key];
  const cleaned = redactSecretsInStrings(rest);
  for (const key of redacted) if (body[key] !== undefined) cleaned[key] = body[key]!;
  return cleaned;
}

/** Runs of 'appended' merged into one (a burst of appends is one message to each other context). */
function coalesced(changes: readonly AuditChange[]): AuditChange[] {
  const merged: AuditChange[] = [];
  for (const change of changes) {
    const last = merged.at(-1);
    if (change.type === 'appended' && last?.type === 'appended')
      merged[merged.length - 1] = {
        type: 'appended',
        invocationIds: [...new Set([...last.invocationIds, ...change.invocationIds])],
        headSeq: Math.max(last.headSeq, change.headSeq),
      };
    else merged.push(change);
  }
  return merged;
}

/**
 * Records are JSON already (the gate builds them from JSON). No copy: an undefined member is left out
 * by canonical JSON and by the export alike, so hashes agree before and after.
 */
function asJson(value: object): JsonObject {
  return value as JsonObject;
}

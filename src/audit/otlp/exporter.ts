/**
 * Streams the audit log to an OpenTelemetry collector as OTLP/HTTP log records (JSON). The log is
 * the queue: the exporter reads the chain after the last acknowledged sequence number, posts a
 * batch, and moves its cursor (kept in IndexedDB) only when the collector accepted it. So nothing
 * is lost across outages or reloads, and a record is sent again only when its acknowledgement was
 * lost (at least once; each record carries its stable id, log.record.uid and toolgate.audit.seq).
 * The queue is bounded by the log's retention: events pruned before they were exported are reported
 * as a gap, not waited for.
 *
 * One exporter per log and collector runs at a time across tabs (a Web Lock); the others wait and
 * take over when its page closes. Loaded lazily, only when a collector is configured.
 */

import { redactSecretsInText, redactUrlsInText } from '../../protocol/index.js';
import type { AnchoredHead, AnchorKey } from '../anchor.js';
import type { ChainEvent } from '../chain.js';
import type { AuditLog } from '../log.js';
import { cursorKey, type ExportCursor, loadCursor, saveCursor } from './cursor.js';
import {
  anchorRecordOf,
  type CallContext,
  contextOf,
  type ExportResource,
  logRecordOf,
  requestJson,
} from './encode.js';
import { backoffMs, postLogs } from './post.js';
import { announceExport } from './running.js';

export interface OtlpExportOptions {
  /**
   * The collector's OTLP/HTTP base URL (`https://collector.example.com:4318`): records are posted to
   * `<url>/v1/logs`, or to the URL itself when it already ends in `/v1/logs`. http or https only.
   */
  url: string;
  /** Headers for every request (e.g. the collector's API key). Never logged or shown. */
  headers?: Record<string, string>;
  /** The resource's service.name. Default 'toolgate'. */
  serviceName?: string;
  /** More resource attributes (service.instance.id, deployment.environment.name, …). */
  resourceAttributes?: Record<string, string | number | boolean>;
  /** Records per request at most. Default 256. */
  maxBatchRecords?: number;
  /** Request body size to aim under (a single larger record still goes alone). Default 512 KiB. */
  maxBatchBytes?: number;
  /** How long new records wait for others to fill a batch. Default 1 s. */
  batchDelayMs?: number;
  /** First wait after a failed request; doubles per failure up to maxRetryDelayMs. Default 1 s. */
  initialRetryDelayMs?: number;
  /** Default 60 s. */
  maxRetryDelayMs?: number;
  /** Where a log without a saved cursor starts: its oldest kept event (default) or its current head. */
  startAt?: 'oldest' | 'now';
  /**
   * Ship the log's signed heads too, as records of their own (event.name toolgate.audit.anchor, with
   * the public key): the collector keeps a copy the browser cannot rewrite. Default true.
   */
  anchors?: boolean;
  /** A server's URL by its id, for server.address and server.port (ids are not always URLs). */
  serverUrl?: (serverId: string) => string | undefined;
  /** Hears progress and problems (never a header or a secret). */
  onStatus?: (status: OtlpExportStatus) => void;
  fetch?: typeof fetch;
}

export interface OtlpExportStatus {
  state: 'starting' | 'waiting-for-lock' | 'idle' | 'sending' | 'retrying' | 'stopped';
  /** The last sequence number the collector acknowledged. */
  acknowledgedSeq: number;
  /** The log's newest sequence number, as last read. */
  headSeq: number;
  /** What went wrong last, for a person: names the collector (its URL without secrets) and what to do. */
  problem?: string;
  /** When the next attempt is due (epoch ms), while retrying. */
  retryAt?: number;
  /** Records the collector refused for good (partial success, 400), and events pruned before export. */
  rejectedRecords: number;
  skippedEvents: number;
}

export interface OtlpExport {
  /** Resolves once every event appended before the call is acknowledged; rejects if the export stops. */
  flush(): Promise<void>;
  status(): OtlpExportStatus;
  /** Stops after the current request; the cursor stays where the collector acknowledged. */
  stop(): void;
  /**
   * Starts again after it stopped (a 401, 403 or 404 fixed at the collector, or stop() called),
   * from the last acknowledged record; `headers` replace the old ones (a new API key). Does nothing
   * while it runs.
   */
  resume(changes?: { headers?: Record<string, string> }): Promise<void>;
  /** Hears every status change (besides options.onStatus); returns the unsubscribe. */
  onStatus(listener: (status: OtlpExportStatus) => void): () => void;
}

const DEFAULTS = {
  maxBatchRecords: 256,
  maxBatchBytes: 512 * 1024,
  batchDelayMs: 1000,
  initialRetryDelayMs: 1000,
  maxRetryDelayMs: 60_000,
};
/** How often a tab whose exporter waits for another tab's reads the shared cursor, during a flush. */
const FOLLOW_MS = 250;
/** Calls remembered for their later events (final, resent, interrupted), newest kept. */
const CONTEXTS_KEPT = 4096;

/** The endpoint records are posted to; throws for a URL that is not http(s). */
export function logsEndpoint(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Say which setting is wrong and what it should look like, without the URL's secrets.
    throw new TypeError(
      `The OpenTelemetry collector URL "${redactUrlsInText(url)}" is not a URL. Give its OTLP/HTTP address, e.g. https://collector.example.com:4318.`,
    );
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new TypeError(
      `The OpenTelemetry collector URL must be http or https, not ${parsed.protocol}; nothing is exported.`,
    );
  if (parsed.pathname.endsWith('/v1/logs')) return parsed.href;
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/v1/logs`;
  return parsed.href;
}

/** Starts exporting `log` to the collector; returns at once (the work runs in the background). */
export function startOtlpExport(log: AuditLog, options: OtlpExportOptions): OtlpExport {
  const endpoint = logsEndpoint(options.url);
  const settings = { ...DEFAULTS, ...definedOnly(options) };
  const maxRecords = Math.max(1, Math.floor(settings.maxBatchRecords));
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const key = cursorKey(log.name, redactUrlsInText(endpoint));
  const resource: ExportResource = {
    serviceName: options.serviceName ?? 'toolgate',
    logName: log.name,
    ...(options.resourceAttributes ? { attributes: options.resourceAttributes } : {}),
  };
  let headers = options.headers ?? {};
  let stopping = new AbortController();
  const statusListeners = new Set<(status: OtlpExportStatus) => void>();
  const status: OtlpExportStatus = {
    state: 'starting',
    acknowledgedSeq: 0,
    headSeq: 0,
    rejectedRecords: 0,
    skippedEvents: 0,
  };
  const report = (change: Partial<OtlpExportStatus>) => {
    Object.assign(status, change);
    if (change.state && change.state !== 'retrying') delete status.retryAt;
    for (const listener of [options.onStatus, ...statusListeners])
      try {
        listener?.({ ...status });
      } catch {
        // A broken listener must not stop the export.
      }
  };

  /** Wakes the idle loop: new events, a flush, or stop. */
  let wake: (() => void) | undefined;
  /** Ends the wait for a batch to fill: a flush, or stop (new events do not: that is the point). */
  let hurry: (() => void) | undefined;
  const wakeUp = (urgently = false) => {
    for (const resolve of urgently ? [wake, hurry] : [wake]) resolve?.();
    wake = undefined;
    if (urgently) hurry = undefined;
  };
  /** Set by every append: an append between reading the log and going idle is not missed. */
  let dirty = false;
  let urgent = false;
  /** Follows the log until stop(): a stopped export still counts how far behind it falls. */
  let unfollow: (() => void) | undefined;
  const follow = () => {
    unfollow ??= log.subscribe((change) => {
      if (change.type === 'appended') {
        status.headSeq = Math.max(status.headSeq, change.headSeq);
        if (status.state === 'stopped') report({});
      } else if (change.type !== 'anchored') return;
      dirty = true;
      wakeUp();
    });
  };

  /** Flush waiters: resolved once the acknowledged seq reaches theirs. */
  const waiters: { seq: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  const settleWaiters = () => {
    for (const waiter of [...waiters])
      if (status.acknowledgedSeq >= waiter.seq) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    urgent = waiters.length > 0;
  };
  const failWaiters = (error: Error) => {
    for (const waiter of waiters.splice(0)) waiter.reject(error);
  };

  const contexts = new Map<string, CallContext>();
  const remember = (event: ChainEvent) => {
    const context = contextOf(event);
    if (!context) return;
    contexts.set(event.invocationId, context);
    if (contexts.size > CONTEXTS_KEPT) contexts.delete(contexts.keys().next().value!);
  };
  /** The call a later event belongs to: remembered, or read from the log's entry (after a reload). */
  const contextFor = async (event: ChainEvent): Promise<CallContext | undefined> => {
    const known = contextOf(event) ?? contexts.get(event.invocationId);
    if (known) return known;
    const entry = await log.get(event.invocationId);
    if (!entry) return undefined;
    const context: CallContext = {
      serverId: entry.serverId,
      toolName: entry.toolName,
      caller: entry.caller,
      ...(entry.trace ? { trace: entry.trace } : {}),
    };
    contexts.set(event.invocationId, context);
    return context;
  };

  /** Waits `ms`; a flush or stop ends it early when `hurried` (retry waits are not shortened, only stopped). */
  const sleep = (ms: number, hurried: boolean) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        stopping.signal.removeEventListener('abort', done);
        if (hurry === done) hurry = undefined;
        resolve();
      }
      if (stopping.signal.aborted) return done();
      stopping.signal.addEventListener('abort', done, { once: true });
      if (hurried) hurry = done;
    });
  const idle = () =>
    new Promise<void>((resolve) => {
      if (dirty || urgent || stopping.signal.aborted) return resolve();
      wake = resolve;
    });

  /** Where to start: the saved cursor, checked against the log (it may have been deleted and restarted). */
  async function startingCursor(): Promise<ExportCursor> {
    const saved = await loadCursor(key);
    const { headSeq, prunedThrough } = await log.eventsAfter(Number.MAX_SAFE_INTEGER, 1);
    if (!saved) return options.startAt === 'now' ? { seq: headSeq, anchorSeq: headSeq } : { seq: 0 };
    if (saved.seq > headSeq) return { seq: 0 };
    if (saved.hash && saved.seq > prunedThrough) {
      const [event] = (await log.eventsAfter(saved.seq - 1, 1)).events;
      if (event && event.hash !== saved.hash) return { seq: 0 };
    }
    return saved;
  }

  async function run(): Promise<void> {
    let cursor = await startingCursor();
    report({ state: 'idle', acknowledgedSeq: cursor.seq });
    settleWaiters();
    let attempt = 0;
    /** Halved after each 413, and kept there: a collector's size limit does not change often. */
    let batchLimit = maxRecords;
    /** Events lost to retention stay lost: this outlasts the outage that caused it. */
    let gap: string | undefined;
    while (!stopping.signal.aborted) {
      dirty = false;
      const page = await log.eventsAfter(cursor.seq, batchLimit);
      status.headSeq = Math.max(status.headSeq, page.headSeq);
      if (page.prunedThrough > cursor.seq) {
        // Retention removed events the collector never got: say so, and go on from what is kept.
        const skippedEvents = status.skippedEvents + (page.prunedThrough - cursor.seq);
        gap = `${skippedEvents} audit events were pruned by retention before they could be exported; keep more entries or make sure the collector is reachable.`;
        report({ skippedEvents, problem: gap });
        cursor = { seq: page.prunedThrough, ...anchoredOf(cursor) };
        await saveCursor(key, cursor);
      }
      const anchors = await pendingAnchors(cursor.anchorSeq ?? 0);
      if (page.events.length === 0 && anchors.length === 0) {
        status.acknowledgedSeq = cursor.seq;
        settleWaiters();
        report({ state: 'idle' });
        await idle();
        // A few appends in a row become one request, unless a flush is waiting or the batch is full.
        if (!urgent && status.headSeq - cursor.seq < batchLimit) await sleep(settings.batchDelayMs, true);
        continue;
      }

      const { events, body } = await batchOf(page.events, anchors);
      report({ state: 'sending' });
      const outcome = await postLogs(endpoint, body, headers, fetchImpl, stopping.signal).catch(
        (error: unknown) => {
          if (stopping.signal.aborted) return undefined;
          throw error;
        },
      );
      if (!outcome) return;
      if (outcome.kind === 'accepted' || outcome.kind === 'rejected') {
        if (outcome.kind === 'rejected' && outcome.status !== 400) {
          // 401, 403, 404…: the configuration is wrong, not the records. Keep them; stop and say so.
          throw new Error(
            `${outcome.reason}. The audit log export stopped; check the collector URL and its headers, then resume the export (or reload).`,
          );
        }
        const rejected =
          outcome.kind === 'rejected' ? events.length : outcome.rejected > 0 ? outcome.rejected : 0;
        cursor = advanced(cursor, events, anchors);
        await saveCursor(key, cursor);
        // The collector is back: the outage's message no longer describes anything (a gap still does).
        if (attempt > 0 && rejected === 0) {
          if (gap) status.problem = gap;
          else delete status.problem;
        }
        attempt = 0;
        report({
          state: 'sending',
          acknowledgedSeq: cursor.seq,
          rejectedRecords: status.rejectedRecords + rejected,
          ...(rejected > 0
            ? {
                problem:
                  outcome.kind === 'rejected'
                    ? `${outcome.reason}; ${rejected} records were refused and will not be sent again.`
                    : `the collector refused ${rejected} of ${events.length} records${outcome.message ? `: ${outcome.message}` : ''}.`,
              }
            : {}),
        });
        settleWaiters();
      } else if (outcome.kind === 'too-large' && events.length > 1) {
        batchLimit = Math.max(1, Math.floor(events.length / 2));
        continue;
      } else if (outcome.kind === 'too-large') {
        // One record alone is too large for this collector: send it without its body, so its
        // attributes (what, who, outcome, trace) still arrive; the full record stays in the local log.
        const placeholder = await batchOf(events, anchors, true);
        const retried = await postLogs(endpoint, placeholder.body, headers, fetchImpl, stopping.signal);
        if (retried.kind === 'accepted') {
          cursor = advanced(cursor, events, anchors);
          await saveCursor(key, cursor);
          report({ acknowledgedSeq: cursor.seq });
          settleWaiters();
        } else {
          attempt++;
          await wait(retried.kind === 'retry' ? retried.afterMs : undefined, retried.reason);
        }
      } else {
        attempt++;
        await wait(outcome.afterMs, outcome.reason);
      }
      // Bounded work per turn: one request, then the page gets the thread back.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }

    async function wait(afterMs: number | undefined, reason: string): Promise<void> {
      const delay = afterMs ?? backoffMs(attempt, settings.initialRetryDelayMs, settings.maxRetryDelayMs);
      report({ state: 'retrying', problem: `${reason}; retrying`, retryAt: Date.now() + delay });
      status.retryAt = Date.now() + delay;
      await sleep(delay, false);
    }
  }

  /** Signed heads the collector has not acknowledged yet, oldest first. */
  let anchorKey: AnchorKey | undefined;
  async function pendingAnchors(afterSeq: number): Promise<AnchoredHead[]> {
    if (options.anchors === false) return [];
    const heads = (await log.anchors()).filter((head) => head.seq > afterSeq);
    // Read once there is a head to ship (asking earlier would create the key).
    if (heads.length > 0 && anchorKey?.keyId !== heads.at(-1)!.keyId) anchorKey = await log.anchorKey();
    return heads;
  }

  /** The request for a page of events (cut to the byte budget, at least one record) and the heads. */
  async function batchOf(
    page: readonly ChainEvent[],
    anchors: readonly AnchoredHead[],
    withoutBody = false,
  ): Promise<{ events: ChainEvent[]; body: string }> {
    const records = anchors.map((head) => JSON.stringify(anchorRecordOf(head, anchorKey)));
    const events: ChainEvent[] = [];
    let bytes = records.reduce((sum, record) => sum + record.length + 1, 0);
    for (const event of page) {
      const context = await contextFor(event);
      const record = logRecordOf(event, context, context && options.serverUrl?.(context.serverId));
      if (withoutBody)
        record.body = { stringValue: 'too large for the collector; kept in the local audit log' };
      const json = JSON.stringify(record);
      if (events.length > 0 && bytes + json.length > settings.maxBatchBytes) break;
      remember(event);
      records.push(json);
      events.push(event);
      bytes += json.length + 1;
    }
    return { events, body: requestJson(resource, records) };
  }

  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  const guarded = (): Promise<void> => {
    if (!locks) return run();
    report({ state: 'waiting-for-lock' });
    return locks
      .request(`toolgate-otlp:${key}`, { signal: stopping.signal }, () => run())
      .then(() => undefined);
  };
  /** The export's current run; a resume after it stopped starts another. */
  let running: Promise<void> = Promise.resolve();
  const launch = () => {
    const controller = new AbortController();
    stopping = controller;
    controller.signal.addEventListener('abort', () => wakeUp(true));
    follow();
    dirty = true;
    running = guarded()
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const problem = error instanceof Error ? error.message : String(error);
        report({ state: 'stopped', problem: redactSecretsInText(problem) });
        failWaiters(new Error(status.problem));
      })
      .finally(() => {
        // Abort this run's lock request and timers (a failed run is not aborted otherwise).
        controller.abort();
        if (status.state !== 'stopped') report({ state: 'stopped' });
        failWaiters(new Error('The audit log export was stopped before the flush finished.'));
      });
  };
  launch();

  const handle: OtlpExport = {
    async flush() {
      if (status.state === 'stopped') throw new Error(status.problem ?? 'The audit log export is stopped.');
      const { headSeq } = await log.eventsAfter(Number.MAX_SAFE_INTEGER, 1);
      if (status.acknowledgedSeq >= headSeq && status.state !== 'starting') return;
      // Another tab exports this log meanwhile: its acknowledgements reach the shared cursor.
      while (status.state === 'waiting-for-lock') {
        if (((await loadCursor(key))?.seq ?? 0) >= headSeq) return;
        await sleep(FOLLOW_MS, true);
      }
      // The loop above may end because this tab's export stopped (TypeScript cannot see that).
      if ((status.state as OtlpExportStatus['state']) === 'stopped')
        throw new Error(status.problem ?? 'The audit log export is stopped.');
      await new Promise<void>((resolve, reject) => {
        waiters.push({ seq: headSeq, resolve, reject });
        urgent = true;
        wakeUp(true);
      });
    },
    status: () => ({ ...status }),
    stop() {
      stopping.abort();
      unfollow?.();
      unfollow = undefined;
    },
    async resume(changes = {}) {
      if (!stopping.signal.aborted && status.state !== 'stopped') return;
      stopping.abort();
      await running;
      if (!stopping.signal.aborted) return; // another resume() started it meanwhile
      if (changes.headers) headers = changes.headers;
      delete status.problem;
      report({ state: 'starting' });
      launch();
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
  };
  announceExport(log, handle);
  return handle;
}

/** The cursor after the collector acknowledged `events` and `anchors` (either may be empty). */
function advanced(
  cursor: ExportCursor,
  events: readonly ChainEvent[],
  anchors: readonly AnchoredHead[],
): ExportCursor {
  const last = events.at(-1);
  const anchorSeq = anchors.at(-1)?.seq ?? cursor.anchorSeq;
  return {
    ...(last
      ? { seq: last.seq, hash: last.hash }
      : { seq: cursor.seq, ...(cursor.hash ? { hash: cursor.hash } : {}) }),
    ...(anchorSeq !== undefined ? { anchorSeq } : {}),
  };
}

function anchoredOf(cursor: ExportCursor): Pick<ExportCursor, 'anchorSeq'> {
  return cursor.anchorSeq !== undefined ? { anchorSeq: cursor.anchorSeq } : {};
}

function definedOnly(options: OtlpExportOptions): Partial<typeof DEFAULTS> {
  const picked: Partial<typeof DEFAULTS> = {};
  for (const name of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[])
    if (typeof options[name] === 'number' && Number.isFinite(options[name])) picked[name] = options[name];
  return picked;
}

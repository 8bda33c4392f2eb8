/**
 * Audit log figures in Chromium, each against a floor measured in the same page and run (the
 * machine is shared, so absolute numbers drift; ratios much less). Runs in a persistent (on-disk)
 * profile: see bench/audit.mjs.
 *
 * - Appends: pending records (about 1.2 KB each) in bursts of 1,000 through the log, against
 *   idb-keyval's setMany of the same records in the same bursts into a plain store (one record per
 *   entry, no index, no hashing: the floor). The two alternate in rounds, and each audit round
 *   includes waiting for the log's background indexing to catch up, so deferred work is counted.
 * - Pending write: one pending record at a time (what the gate waits for before sending a call),
 *   alternating with one idb-keyval set.
 * - Queries and verify at the log's full size; the floor for a query is reading the newest 50
 *   records of the plain store, for verify reading as many event texts and hashing each.
 */
import { createStore, promisifyRequest, set, setMany } from 'idb-keyval';
import { type AuditLog, createAuditLog } from '../../src/audit/log.js';
import { filler, median, pendingRecord, uniqueInvocationId } from './audit-records.js';

const TOOLS = 100;
const BURST = 1000;
const ARGUMENT_TEXT = filler(960);

const record = (i: number, at: number) =>
  pendingRecord(i, at, { invocationId: uniqueInvocationId(i), tools: TOOLS, text: ARGUMENT_TEXT });

async function timeMedian(runs: number, work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** Background indexing (sealing) done; the log before issue 20 had none. */
function settled(log: AuditLog): Promise<void> {
  return (log as Partial<Pick<AuditLog, 'settled'>>).settled?.() ?? Promise.resolve();
}

interface RecordsSource {
  getAllRecords(options: { count?: number; direction?: IDBCursorDirection }): IDBRequest<unknown[]>;
}

/** Appends `total` pending records through the log and through setMany, alternating in rounds. */
async function appendRates(log: AuditLog, total: number, rounds: number) {
  const floor = createStore('bench-floor-append', 'entries');
  const base = Date.now() - total;
  let floorMs = 0;
  let auditMs = 0;
  let next = 0;
  const perRound = Math.ceil(total / rounds);
  const floorRound = async (from: number, to: number) => {
    const start = performance.now();
    for (let i = from; i < to; i += BURST) {
      const batch: [IDBValidKey, unknown][] = [];
      for (let j = i; j < Math.min(i + BURST, to); j++) batch.push([j, record(j, base + j)]);
      await setMany(batch, floor);
    }
    floorMs += performance.now() - start;
  };
  const auditRound = async (from: number, to: number) => {
    const start = performance.now();
    for (let i = from; i < to; i += BURST) {
      const burst: Promise<void>[] = [];
      for (let j = i; j < Math.min(i + BURST, to); j++) burst.push(log.pending(record(j, base + j)));
      await Promise.all(burst);
    }
    await settled(log);
    auditMs += performance.now() - start;
  };
  for (let round = 0; round < rounds; round++) {
    const from = next;
    const to = Math.min(total, from + perRound);
    // Alternate which goes first, so neither always meets the other's leftovers (compaction).
    if (round % 2 === 0) {
      await floorRound(from, to);
      await auditRound(from, to);
    } else {
      await auditRound(from, to);
      await floorRound(from, to);
    }
    next = to;
  }
  return {
    floorPerSecond: total / (floorMs / 1000),
    auditPerSecond: total / (auditMs / 1000),
  };
}

/** Calls as the gate makes them: a pending record, then its final one, one call at a time. */
async function pendingLatency(log: AuditLog, runs: number, first: number) {
  const floor = createStore('bench-floor-set', 'entries');
  const floorTimes: number[] = [];
  const auditTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const value = record(first + i, Date.now());
    let start = performance.now();
    await set(i, value, floor);
    floorTimes.push(performance.now() - start);
    start = performance.now();
    await log.pending(value);
    auditTimes.push(performance.now() - start);
    await log.final({
      invocationId: value.invocationId,
      outcome: 'success',
      finishedAt: Date.now(),
      durationMs: 1,
      result: { content: [{ type: 'text', text: 'ok' }] },
    });
  }
  return { floorMs: median(floorTimes), auditMs: median(auditTimes) };
}

async function queries(log: AuditLog) {
  const floor = createStore('bench-floor-append', 'entries');
  const count = async (query: Parameters<AuditLog['query']>[0]) => (await log.query(query)).entries.length;
  return {
    floorNewest50Ms: await timeMedian(20, () =>
      floor('readonly', (store) =>
        promisifyRequest((store as unknown as RecordsSource).getAllRecords({ count: 50, direction: 'prev' })),
      ),
    ),
    newest50Ms: await timeMedian(20, () => log.query({ limit: 50 })),
    toolMs: await timeMedian(20, () => log.query({ toolName: 'tool_42', limit: 50 })),
    serverToolMs: await timeMedian(20, () =>
      log.query({ serverId: 'server-0', toolName: 'tool_42', limit: 50 }),
    ),
    // A word of every entry: the newest 50 answer it.
    textCommonMs: await timeMedian(20, () => log.query({ text: 'lorem', limit: 50 })),
    textCommonFound: await count({ text: 'lorem', limit: 50 }),
    // One argument value: a handful of entries among all of them.
    textRareMs: await timeMedian(20, () => log.query({ text: '"i":4242', limit: 50 })),
    textRareFound: await count({ text: '"i":4242', limit: 50 }),
    // Nothing matches: the log before issue 20 read every entry to say so.
    textNoneMs: await timeMedian(5, () => log.query({ text: 'zzzz', limit: 50 })),
    textNoneFound: await count({ text: 'zzzz', limit: 50 }),
    countsMs: await timeMedian(20, () => log.countByOutcome()),
  };
}

async function verify(log: AuditLog) {
  let progressCalls = 0;
  const start = performance.now();
  const verification = await log.verify(() => progressCalls++);
  const ms = performance.now() - start;
  const events = verification.ok ? verification.count : 0;
  return { ok: verification.ok, events, eventsPerSecond: events / (ms / 1000), progressCalls };
}

/**
 * What any verify must do at least: read the same number of event texts of the same size (stored
 * 500 to a record, as appended in bursts) and SHA-256 each one with WebCrypto, 64 in flight.
 */
async function verifyFloor(events: number) {
  const store = createStore('bench-floor-verify', 'blocks');
  const text = (i: number) =>
    JSON.stringify({ ...record(i, Date.now()), prevHash: `sha256:${'0'.repeat(64)}` });
  for (let from = 0; from < events; from += 50_000) {
    const batch: [IDBValidKey, unknown][] = [];
    for (let block = from; block < Math.min(from + 50_000, events); block += 500)
      batch.push([block, Array.from({ length: Math.min(500, events - block) }, (_, i) => text(block + i))]);
    await setMany(batch, store);
  }
  const encoder = new TextEncoder();
  const start = performance.now();
  let hashed = 0;
  for (let from = 0; from < events; from += 4000) {
    const blocks = (await store('readonly', (s) =>
      promisifyRequest(s.getAll(IDBKeyRange.bound(from, from + 4000, false, true))),
    )) as string[][];
    for (const texts of blocks)
      for (let i = 0; i < texts.length; i += 64) {
        await Promise.all(
          texts.slice(i, i + 64).map((t) => crypto.subtle.digest('SHA-256', encoder.encode(t))),
        );
        hashed += Math.min(64, texts.length - i);
      }
  }
  return { eventsPerSecond: hashed / ((performance.now() - start) / 1000) };
}

Object.assign(window, {
  runAuditBench: async (total: number, rounds: number) => {
    // Retention off: the bench measures the log itself, not a prune that the default would run.
    const log = await createAuditLog({ name: 'bench-audit', retention: false });
    const append = await appendRates(log, total, rounds);
    const pending = await pendingLatency(log, 200, total);
    const query = await queries(log);
    const verified = await verify(log);
    log.close();
    const verifyFloorFigures = await verifyFloor(verified.events);
    return {
      append,
      pending,
      query,
      verify: { ...verified, floorPerSecond: verifyFloorFigures.eventsPerSecond },
      storage: await navigator.storage.estimate(),
    };
  },
});
document.body.dataset.ready = 'yes';

/**
 * Audit log storage in Chromium: idb-keyval's plain store (time-ordered keys, no indexes) against
 * the log's own database with indexes (src/audit). Same record shape (about 1 KiB of arguments),
 * same entry counts, same run. Runs in a persistent (on-disk) profile: see bench/audit.mjs.
 */
import { createStore, promisifyRequest, set, setMany } from 'idb-keyval';
import { createAuditLog } from '../../src/audit/log.js';
import type { PendingRecord } from '../../src/gate/types.js';

const TOOLS = 100;
const filler = 'lorem ipsum dolor sit amet '.repeat(36).slice(0, 960);

function record(i: number, at: number): PendingRecord {
  return {
    invocationId: `inv-${i.toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    serverId: `server-${i % 3}`,
    toolName: `tool_${i % TOOLS}`,
    definitionHash: 'sha256:0123456789abcdef',
    caller: { kind: 'host', label: 'bench' },
    proposedArguments: { i, text: filler },
    arguments: { i, text: filler },
    decision: { verdict: 'allow', source: { kind: 'rule', ruleId: 'r' }, reason: 'bench rule' },
    timestamps: { requested: at, decided: at, sent: at },
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function timeMedian(runs: number, work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return median(times);
}

interface RecordsSource {
  getAllRecords(options: {
    query?: IDBKeyRange | null;
    count?: number;
    direction?: IDBCursorDirection;
  }): IDBRequest<{ key: IDBValidKey; value: unknown }[]>;
}

/** idb-keyval: one plain store; keys sort by time; filters scan. A second store as a tool index. */
async function keyvalPath(total: number) {
  const entries = createStore('bench-kv-entries', 'entries');
  const byTool = createStore('bench-kv-by-tool', 'keys');
  const key = (at: number, i: number) =>
    `${at.toString(36).padStart(9, '0')}-${i.toString(36).padStart(6, '0')}`;

  const base = Date.now() - total;
  let start = performance.now();
  for (let i = 0; i < total; i += 100) {
    const batch: [IDBValidKey, unknown][] = [];
    const index: [IDBValidKey, unknown][] = [];
    for (let j = i; j < Math.min(i + 100, total); j++) {
      const k = key(base + j, j);
      batch.push([k, record(j, base + j)]);
      index.push([`tool_${j % TOOLS}|${k}`, k]);
    }
    await setMany(batch, entries);
    await setMany(index, byTool);
  }
  const appendPerSecond = total / ((performance.now() - start) / 1000);

  const pendingMs = await timeMedian(200, () =>
    set(key(Date.now(), total + Math.random() * 1e6), record(0, Date.now()), entries),
  );

  const newest50Ms = await timeMedian(30, () =>
    entries('readonly', (store) =>
      promisifyRequest((store as unknown as RecordsSource).getAllRecords({ count: 50, direction: 'prev' })),
    ),
  );
  const filteredScanMs = await timeMedian(10, () =>
    entries('readonly', (store) => {
      const found: unknown[] = [];
      return new Promise((resolve) => {
        const request = store.openCursor(null, 'prev');
        request.onsuccess = () => {
          const cursor = request.result;
          if (!cursor) return resolve(found);
          if ((cursor.value as PendingRecord).toolName === 'tool_42') found.push(cursor.value);
          if (found.length >= 50) return resolve(found);
          cursor.continue();
        };
      });
    }),
  );
  const filteredSecondaryMs = await timeMedian(30, async () => {
    const keys = (await byTool('readonly', (store) =>
      promisifyRequest(
        (store as unknown as RecordsSource).getAllRecords({
          query: IDBKeyRange.bound('tool_42|', 'tool_42|\uffff'),
          count: 50,
          direction: 'prev',
        }),
      ),
    )) as { value: unknown }[];
    return entries('readonly', (store) =>
      Promise.all(keys.map((k) => promisifyRequest(store.get(k.value as IDBValidKey)))),
    );
  });
  start = performance.now();
  return { appendPerSecond, pendingMs, newest50Ms, filteredScanMs, filteredSecondaryMs };
}

/** The audit log itself: batched chain appends, indexed entries. */
async function auditPath(total: number) {
  // Retention off: the bench measures the log itself, not a prune that the default would run.
  const log = await createAuditLog({ name: 'bench-audit', retention: false });
  const base = Date.now() - total;
  let start = performance.now();
  // Bursts of 1,000 calls at once: the appender batches what queues up while a batch commits.
  for (let i = 0; i < total; i += 1000) {
    const burst: Promise<void>[] = [];
    for (let j = i; j < Math.min(i + 1000, total); j++) burst.push(log.pending(record(j, base + j)));
    await Promise.all(burst);
  }
  const appendPerSecond = total / ((performance.now() - start) / 1000);

  const pendingMs = await timeMedian(200, () => log.pending(record(total + 1, Date.now())));
  const newest50Ms = await timeMedian(30, () => log.query({ limit: 50 }));
  const filteredMs = await timeMedian(30, () => log.query({ toolName: 'tool_42', limit: 50 }));
  const filteredServerToolMs = await timeMedian(30, () =>
    log.query({ serverId: 'server-0', toolName: 'tool_42', limit: 50 }),
  );
  const textSearchMs = await timeMedian(5, () => log.query({ text: '"i":4242', limit: 50 }));
  const countsMs = await timeMedian(10, () => log.countByOutcome());
  start = performance.now();
  const verification = await log.verify();
  const verifyMs = performance.now() - start;
  const events = verification.ok ? verification.count : 0;
  log.close();
  return {
    appendPerSecond,
    pendingMs,
    newest50Ms,
    filteredMs,
    filteredServerToolMs,
    textSearchMs,
    countsMs,
    verifyPer10kMs: (verifyMs / events) * 10_000,
    verified: verification.ok,
  };
}

/** The floor: one put per transaction, and a plain idb-keyval set, measured alongside. */
async function floors() {
  const store = createStore('bench-floor', 'entries');
  const oneSetMs = await timeMedian(200, () => set(Math.random(), record(0, Date.now()), store));
  return { oneSetMs };
}

Object.assign(window, {
  runAuditBench: async (total: number) => ({
    floor: await floors(),
    keyval: await keyvalPath(total),
    audit: await auditPath(total),
    storage: await navigator.storage.estimate(),
  }),
});
document.body.dataset.ready = 'yes';

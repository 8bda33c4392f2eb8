/**
 * OTLP export throughput in Chromium: the exporter draining a log of pending and final events to a
 * sink that accepts everything, against the floor of posting the very same request bodies with bare
 * fetch, one after another, in the same page and run. The difference is what the exporter adds:
 * reading the log, encoding records, saving the cursor after each batch. Rounds alternate.
 */
import { createAuditLog } from '../../src/audit/log.js';
import { startOtlpExport } from '../../src/audit/otlp/exporter.js';
import type { PendingRecord } from '../../src/gate/types.js';

const filler = 'lorem ipsum dolor sit amet '.repeat(12).slice(0, 300);

function pending(i: number, at: number): PendingRecord {
  return {
    invocationId: `inv-${i}`,
    serverId: `server-${i % 3}`,
    toolName: `tool_${i % 50}`,
    definitionHash: 'sha256:0123456789abcdef',
    caller: { kind: 'host', label: 'bench' },
    proposedArguments: { i, text: filler },
    arguments: { i, text: filler },
    decision: { verdict: 'allow', source: { kind: 'rule', ruleId: 'r' }, reason: 'bench rule' },
    timestamps: { requested: at, decided: at, sent: at },
    trace: { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: '00f067aa0ba902b7', sampled: true },
  };
}

Object.assign(window, {
  runOtlpBench: async (sink: string, calls: number, rounds: number, batch: number) => {
    const log = await createAuditLog({ name: 'otlp-bench', retention: false });
    const at = Date.now();
    for (let i = 0; i < calls; i++) {
      await log.pending(pending(i, at + i));
      await log.final({
        invocationId: `inv-${i}`,
        outcome: 'success',
        finishedAt: at + i + 5,
        durationMs: 5,
        result: { content: [{ type: 'text', text: `result ${i}` }] },
      });
    }
    const events = (await log.eventsAfter(Number.MAX_SAFE_INTEGER, 1)).headSeq;
    const exporterMs: number[] = [];
    const floorMs: number[] = [];
    let requests = 0;
    for (let round = 0; round < rounds; round++) {
      // A new endpoint path per round: a fresh cursor, so each round exports the whole log.
      const bodies: string[] = [];
      const recording: typeof fetch = (input, init) => {
        bodies.push(init?.body as string);
        return fetch(input, init);
      };
      const started = performance.now();
      const exporter = startOtlpExport(log, {
        url: `${sink}/round-${round}-${at}`,
        maxBatchRecords: batch,
        maxBatchBytes: 4 * 1024 * 1024,
        batchDelayMs: 0,
        fetch: recording,
      });
      await exporter.flush();
      exporterMs.push(performance.now() - started);
      exporter.stop();
      requests = bodies.length;

      const floorStarted = performance.now();
      for (const body of bodies)
        await fetch(`${sink}/floor/v1/logs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          credentials: 'omit',
        }).then((response) => response.text());
      floorMs.push(performance.now() - floorStarted);
    }
    log.close();
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    return {
      events,
      requests,
      exporterPerSecond: events / (median(exporterMs) / 1000),
      floorPerSecond: events / (median(floorMs) / 1000),
      exporterMs,
      floorMs,
    };
  },
});
document.body.dataset.ready = 'yes';

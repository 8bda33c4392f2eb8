/**
 * OTLP export throughput in Chromium: the exporter draining a log of pending and final events to a
 * sink that accepts everything, against the floor of posting the very same request bodies with bare
 * fetch, one after another, in the same page and run. The difference is what the exporter adds:
 * reading the log, encoding records, saving the cursor after each batch. Rounds alternate.
 */
import { createAuditLog } from '../../src/audit/log.js';
import { startOtlpExport } from '../../src/audit/otlp/exporter.js';
import type { PendingRecord } from '../../src/gate/types.js';
import { filler, median, pendingRecord } from './audit-records.js';

const ARGUMENT_TEXT = filler(300);

const pending = (i: number, at: number): PendingRecord => ({
  ...pendingRecord(i, at, { invocationId: `inv-${i}`, tools: 50, text: ARGUMENT_TEXT }),
  trace: { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: '00f067aa0ba902b7', sampled: true },
});

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

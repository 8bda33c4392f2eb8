#!/usr/bin/env node
/**
 * OTLP export throughput (bench/pages/otlp-bench.ts) in headless Chromium with an on-disk profile:
 * records/s the exporter delivers to a sink that accepts everything, against posting the same
 * request bodies with bare fetch in the same page and run. Prints JSON; `--write` replaces the
 * figures in BENCHMARKS.md between their markers.
 *   node bench/otlp.mjs [--write] [--calls 2000] [--rounds 3] [--batch 256]
 */
import { createServer } from 'node:http';
import { bundle } from '../e2e/support/bundle.ts';
import { argument, openBenchPage, replaceInBenchmarks, stamp } from './support/bench-page.mjs';

const ORIGIN = 'https://otlp-bench.test';
const calls = Number(argument('--calls') ?? 2000);
const rounds = Number(argument('--rounds') ?? 3);
const batch = Number(argument('--batch') ?? 256);

// The sink: reads each body whole and answers 200 {} (a collector's cost is not what is measured).
const sink = createServer((request, response) => {
  response.setHeader('access-control-allow-origin', ORIGIN);
  response.setHeader('access-control-allow-headers', 'content-type');
  response.setHeader('access-control-max-age', '600');
  if (request.method === 'OPTIONS') return response.writeHead(204).end();
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
const sinkUrl = `http://127.0.0.1:${sink.address().port}`;

let opened;
try {
  opened = await openBenchPage({
    origin: ORIGIN,
    script: await bundle('bench/pages/otlp-bench.ts'),
    launch: { permissions: ['local-network-access'] },
  });
  const { page } = opened;
  const result = await page.evaluate(
    ([url, n, r, b]) => window.runOtlpBench(url, n, r, b),
    [sinkUrl, calls, rounds, batch],
  );
  const figures = {
    calls,
    rounds,
    batch,
    ...result,
    ...stamp(),
  };
  console.log(JSON.stringify(figures, null, 2));
  if (process.argv.includes('--write')) await write(figures);
} finally {
  await opened?.close();
  sink.close();
}

async function write(f) {
  const rate = (v) => Math.round(v).toLocaleString('en');
  const start = '<!-- otlp-figures:start (bench/otlp.mjs --write rewrites this part) -->';
  const end = '<!-- otlp-figures:end -->';
  const section = `${start}
Measured ${f.date}, load average ${f.load} on 2 shared cores, on-disk profile: ${rate(f.events)} audit events
(${rate(f.calls)} calls, a pending and a final event each, ~0.6 KB of arguments) exported in batches of ${f.batch}
(${f.requests} requests) to a local sink that answers 200, median of ${f.rounds} rounds alternating with the floor.

| | exporter | floor (same page, same run) | ratio |
| --- | ---: | ---: | ---: |
| export throughput, records/s | ${rate(f.exporterPerSecond)} | ${rate(f.floorPerSecond)} (the same request bodies posted with bare fetch, one after another) | ${(f.exporterPerSecond / f.floorPerSecond).toFixed(2)}x |
${end}`;
  await replaceInBenchmarks(start, end, section);
}

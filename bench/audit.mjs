#!/usr/bin/env node
/**
 * Audit log figures (bench/pages/audit-bench.ts) in headless Chromium with an on-disk profile:
 * Playwright's default contexts keep IndexedDB in memory and flatter every figure. Each figure is
 * measured against a floor in the same page and run. Prints JSON; `--write` replaces the figures in
 * BENCHMARKS.md between its markers.
 *   node bench/audit.mjs [--write] [--entries 100000] [--rounds 10]
 *   --entries  pending records appended (and the log's size for the queries and verify)
 *   --rounds   how many times appends alternate between the log and the setMany floor
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { bundle } from '../e2e/support/bundle.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/support/chromium.ts';

const ORIGIN = 'https://audit-bench.test';
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const total = option('--entries', 100_000);
const rounds = option('--rounds', 10);
const script = await bundle('bench/pages/audit-bench.ts');
const profile = await mkdtemp(join(tmpdir(), 'toolgate-audit-bench-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  args: CHROMIUM_ARGS,
  headless: true,
});
try {
  // Cross-origin isolated, so performance.now() has 5 µs resolution rather than 100 µs.
  await context.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/bench.js'
      ? route.fulfill({
          contentType: 'application/javascript',
          headers: { 'Cross-Origin-Resource-Policy': 'same-origin' },
          body: script,
        })
      : route.fulfill({
          contentType: 'text/html',
          headers: {
            'Cross-Origin-Opener-Policy': 'same-origin',
            'Cross-Origin-Embedder-Policy': 'require-corp',
          },
          body: '<!doctype html><script type="module" src="/bench.js"></script>',
        }),
  );
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => console.error('page:', m.text()));
  await page.goto(`${ORIGIN}/`);
  await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' });
  if (!(await page.evaluate(() => crossOriginIsolated)))
    throw new Error('the bench page is not cross-origin isolated');
  const result = await page.evaluate(([n, r]) => window.runAuditBench(n, r), [total, rounds]);
  const figures = {
    total,
    rounds,
    ...result,
    load: loadavg()[0].toFixed(2),
    date: new Date().toISOString().slice(0, 10),
  };
  console.log(JSON.stringify(figures, null, 2));
  if (process.argv.includes('--write')) await write(figures);
} finally {
  await context.close();
  await rm(profile, { recursive: true, force: true });
}

async function write(f) {
  const ms = (v) => v.toFixed(1);
  const rate = (v) => Math.round(v).toLocaleString('en');
  const ratio = (v) => `${v.toFixed(2)}x`;
  const start = '<!-- audit-figures:start (bench/audit.mjs --write rewrites this part) -->';
  const end = '<!-- audit-figures:end -->';
  const q = f.query;
  const section = `${start}
Measured ${f.date}, load average ${f.load} on 2 shared cores, on-disk profile, ${rate(f.total)} pending records of
~1.2 KB (100 tools, 3 servers), appended in bursts of 1,000 in ${f.rounds} rounds alternating with the floor.

| | audit log | floor (same page, same run) | ratio | target |
| --- | ---: | ---: | ---: | ---: |
| sustained append, entries/s (indexing included) | ${rate(f.append.auditPerSecond)} | ${rate(f.append.floorPerSecond)} (idb-keyval setMany, same records and bursts) | ${ratio(f.append.auditPerSecond / f.append.floorPerSecond)} | >= 0.8x |
| one pending write, ms (median of 200) | ${ms(f.pending.auditMs)} | ${ms(f.pending.floorMs)} (one idb-keyval set) | +${ms(f.pending.auditMs - f.pending.floorMs)} ms | <= 1 ms |
| newest 50, ms | ${ms(q.newest50Ms)} | ${ms(q.floorNewest50Ms)} (newest 50 of the plain store) | ${ratio(q.newest50Ms / q.floorNewest50Ms)} | |
| one tool among 100, first 50, ms | ${ms(q.toolMs)} | | | |
| server + tool, first 50, ms | ${ms(q.serverToolMs)} | | | |
| search, a word of every entry (${q.textCommonFound} shown), ms | ${ms(q.textCommonMs)} | | | <= 50 |
| search, one argument value (${q.textRareFound} found), ms | ${ms(q.textRareMs)} | | | <= 50 |
| search, nothing matches (${q.textNoneFound} found), ms | ${ms(q.textNoneMs)} | | | <= 50 |
| counts by outcome, ms | ${ms(q.countsMs)} | | | |
| verify, events/s (${rate(f.verify.events)} events, ${f.verify.progressCalls} progress reports) | ${rate(f.verify.eventsPerSecond)} | | | >= 50,000 |
${end}`;
  const doc = await readFile('BENCHMARKS.md', 'utf8');
  if (!doc.includes(start)) throw new Error('BENCHMARKS.md has no audit-figures markers');
  const next = doc.slice(0, doc.indexOf(start)) + section + doc.slice(doc.indexOf(end) + end.length);
  await writeFile('BENCHMARKS.md', next);
}

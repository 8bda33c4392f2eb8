#!/usr/bin/env node
/**
 * Audit log storage figures (bench/pages/audit-bench.ts) in headless Chromium with an on-disk
 * profile: Playwright's default contexts keep IndexedDB in memory and flatter every figure.
 * Prints JSON; `--write` replaces the "Audit log" figures in BENCHMARKS.md between its markers.
 *   node bench/audit.mjs [--write] [--entries 100000]
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { bundle } from '../e2e/support/bundle.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/support/chromium.ts';

const ORIGIN = 'https://audit-bench.test';
const flag = process.argv.indexOf('--entries');
const total = flag > 0 ? Number(process.argv[flag + 1]) : 100_000;
const script = await bundle('bench/pages/audit-bench.ts');
const profile = await mkdtemp(join(tmpdir(), 'toolgate-audit-bench-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  args: CHROMIUM_ARGS,
  headless: true,
});
try {
  await context.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/bench.js'
      ? route.fulfill({ contentType: 'application/javascript', body: script })
      : route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><script type="module" src="/bench.js"></script>',
        }),
  );
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => console.error('page:', m.text()));
  await page.goto(`${ORIGIN}/`);
  await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' });
  const result = await page.evaluate((n) => window.runAuditBench(n), total);
  const figures = {
    total,
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
  const ms = (v) => v.toFixed(2);
  const rate = (v) => Math.round(v).toLocaleString('en');
  const start = '<!-- audit-figures:start (bench/audit.mjs --write rewrites this part) -->';
  const end = '<!-- audit-figures:end -->';
  const section = `${start}
Measured ${f.date}, load average ${f.load} on 2 shared cores, on-disk profile, ${rate(f.total)} entries of ~1 KiB, 100 tools.
Medians; the floor is one idb-keyval \`set\` (one put, one transaction) measured in the same run.

| | idb-keyval plain store | audit log (own DB, indexes, hash chain) | target |
| --- | ---: | ---: | ---: |
| sustained append, entries/s | ${rate(f.keyval.appendPerSecond)} (setMany of 100) | ${rate(f.audit.appendPerSecond)} (batched, hashed, indexed) | >= 5,000 |
| one pending write, ms | ${ms(f.keyval.pendingMs)} | ${ms(f.audit.pendingMs)} (${(f.audit.pendingMs / f.floor.oneSetMs).toFixed(2)}x the floor of ${ms(f.floor.oneSetMs)}) | <= 1 |
| newest 50, ms | ${ms(f.keyval.newest50Ms)} (getAllRecords 'prev') | ${ms(f.audit.newest50Ms)} | <= 5 |
| one tool among 100, first 50, ms | ${ms(f.keyval.filteredScanMs)} (scan) / ${ms(f.keyval.filteredSecondaryMs)} (second key store + gets) | ${ms(f.audit.filteredMs)} (tool index) | <= 20 |
| server + tool, first 50, ms | | ${ms(f.audit.filteredServerToolMs)} | |
| free text (arguments), first 50, ms | | ${ms(f.audit.textSearchMs)} (scan) | |
| counts by outcome, ms | | ${ms(f.audit.countsMs)} | |
| verify, ms per 10,000 events | | ${ms(f.audit.verifyPer10kMs)} | |
${end}`;
  const doc = await readFile('BENCHMARKS.md', 'utf8');
  const next = doc.includes(start)
    ? doc.slice(0, doc.indexOf(start)) + section + doc.slice(doc.indexOf(end) + end.length)
    : `${doc.trimEnd()}\n\n## Audit log\n\nThe IndexedDB audit log against idb-keyval's plain store, which the issue asked us to weigh (DESIGN.md says\nwhy the log has its own database). Reproduce with \`node bench/audit.mjs --write\` (npm scripts run Node 22).\n\n${section}\n`;
  await writeFile('BENCHMARKS.md', next);
}

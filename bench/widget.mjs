#!/usr/bin/env node
/**
 * Widget figures: the gzip size of its first load (the built entry and its static imports, as
 * dist/widget ships them), mount-to-interactive, time to show 10,000 tools, and time to open the
 * approval dialog, in headless Chromium against our SDK 1.x server. Each time comes with a
 * baseline measured in the same run (see bench/pages/widget-bench.js): the machine is shared.
 *   node bench/widget.mjs [--write] [--runs N]
 * --write replaces the "Widget" figures in BENCHMARKS.md between its markers.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { extname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/support/chromium.ts';
import { startPeer } from '../e2e/support/peers.ts';
import { buildWidget } from './support/widget-build.mjs';

export const FIRST_LOAD_TARGET_KB = 30;
const ORIGIN = 'https://widget-bench.test';
const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 15;

const widget = await buildWidget('toolgate-widget-bench-');
const files = widget.files;
files.set('bench.js', await readFile('bench/pages/widget-bench.js'));

const gz = (name) => gzipSync(files.get(name), { level: 9 }).length;
/** A chunk and everything it imports statically (dynamic import() calls are not followed). */
function staticGraph(entry, seen = new Set()) {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const source = files.get(entry).toString('utf8');
  for (const match of source.matchAll(
    /(?:^|[;}\s])(?:import|export)\s*(?:[\w*{},\s$]*?from\s*)?["']\.\/([^"']+)["']/g,
  ))
    staticGraph(match[1], seen);
  return seen;
}
const bytesOf = (names) => [...names].reduce((sum, name) => sum + gz(name), 0);
const firstLoad = staticGraph('toolgate-widget.js');
const connectEntry = [...files.keys()].find((name) => name.startsWith('connect-'));
const withConnect = new Set([...firstLoad, ...staticGraph(connectEntry)]);
const allJs = [...files.keys()].filter((name) => name.endsWith('.js') && name !== 'bench.js');
const size = {
  firstLoad: bytesOf(firstLoad),
  firstLoadFiles: firstLoad.size,
  toFirstToolList: bytesOf(withConnect),
  everything: bytesOf(allJs),
  chunks: allJs.length,
};

const peer = await startPeer('sdk1-stateless-json');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function openPage(query) {
  const context = await browser.newContext({ permissions: ['local-network-access'] });
  await context.route(`${ORIGIN}/**`, (route) => {
    const name = new URL(route.request().url()).pathname.slice(1);
    if (files.has(name))
      return route.fulfill({
        contentType: extname(name) === '.js' ? 'application/javascript' : 'text/plain',
        body: files.get(name),
      });
    return route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html lang="en"><title>Widget bench</title><script type="module" src="/bench.js"></script></html>',
    });
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('page:', error.message));
  await page.goto(`${ORIGIN}/${query}`);
  await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' });
  return { page, context };
}

const mount = { widget: [], baseline: [] };
const tools = { tenThousand: [], twenty: [], reference: [] };
const confirm = { first: 0, later: [], reference: [] };
try {
  // Cold loads, interleaved with the baseline so both see the same machine.
  for (let run = 0; run < RUNS; run++) {
    for (const mode of ['widget', 'baseline']) {
      const { page, context } = await openPage(mode === 'baseline' ? '?mode=baseline' : '?');
      mount[mode].push(await page.evaluate(() => window.mountMs));
      await context.close();
    }
  }
  const { page, context } = await openPage(`?server=${encodeURIComponent(peer.url)}`);
  if ((await page.evaluate(() => window.connected())) !== 'connected')
    throw new Error('the bench server did not connect');
  await page.evaluate(() => window.benchTools(10)); // warm the Tools view once
  for (let run = 0; run < RUNS; run++) {
    tools.tenThousand.push(await page.evaluate(() => window.benchTools(10_000)));
    tools.twenty.push(await page.evaluate(() => window.benchTools(20)));
    tools.reference.push(await page.evaluate(() => window.benchReference()));
  }
  // The first dialog: its chunk was prefetched while the page was idle, as in real use.
  confirm.first = await page.evaluate(() => window.benchConfirm());
  for (let run = 0; run < RUNS; run++) {
    confirm.later.push(await page.evaluate(() => window.benchConfirm()));
    confirm.reference.push(await page.evaluate(() => window.benchReference()));
  }
  await context.close();
} finally {
  await browser.close();
  await peer.stop();
  await widget.dispose();
}

const round = (value) => Math.round(value * 100) / 100;
const figures = {
  date: new Date().toISOString().slice(0, 10),
  load: loadavg()[0].toFixed(2),
  runs: RUNS,
  size,
  mountMs: round(median(mount.widget)),
  mountBaselineMs: round(median(mount.baseline)),
  tools10kMs: round(median(tools.tenThousand)),
  tools20Ms: round(median(tools.twenty)),
  referenceMs: round(median([...tools.reference, ...confirm.reference])),
  confirmFirstMs: round(confirm.first),
  confirmMs: round(median(confirm.later)),
};
console.log(JSON.stringify(figures, null, 2));
if (process.argv.includes('--write')) await write(figures);

async function write(f) {
  const kb = (bytes) => (bytes / 1024).toFixed(1);
  const ms = (value) => value.toFixed(1);
  const ratio = (a, b) => `${(a / b).toFixed(1)}x`;
  const start = '<!-- widget-figures:start (bench/widget.mjs --write rewrites this part) -->';
  const end = '<!-- widget-figures:end -->';
  const section = `${start}
Measured ${f.date}, load average ${f.load} on 2 shared cores, headless Chromium, medians of ${f.runs} runs.

| | figure | same-run baseline | ratio | target |
| --- | ---: | ---: | ---: | ---: |
| first load, gzip KB (entry + static imports, ${f.size.firstLoadFiles} files) | ${kb(f.size.firstLoad)} | | | <= ${FIRST_LOAD_TARGET_KB} |
| to the first tool list, gzip KB (+ the connection chunk, fetched at mount) | ${kb(f.size.toFirstToolList)} | | | |
| everything, gzip KB (${f.size.chunks} chunks: gate, Ajv and cfworker, audit log, rarer views) | ${kb(f.size.everything)} | | | |
| mount to interactive, ms from navigation start | ${ms(f.mountMs)} | ${ms(f.mountBaselineMs)} (empty page) | ${ratio(f.mountMs, f.mountBaselineMs)} | |
| show 10,000 tools, ms | ${ms(f.tools10kMs)} | ${ms(f.tools20Ms)} (20 tools) | ${ratio(f.tools10kMs, f.tools20Ms)} | <= 150 |
| open the approval dialog, ms (first, chunk prefetched at idle) | ${ms(f.confirmFirstMs)} | ${ms(f.referenceMs)} (20 plain DOM rows) | ${ratio(f.confirmFirstMs, f.referenceMs)} | |
| open the approval dialog, ms (later) | ${ms(f.confirmMs)} | ${ms(f.referenceMs)} (20 plain DOM rows) | ${ratio(f.confirmMs, f.referenceMs)} | |
${end}`;
  const doc = await readFile('BENCHMARKS.md', 'utf8');
  const next = doc.includes(start)
    ? doc.slice(0, doc.indexOf(start)) + section + doc.slice(doc.indexOf(end) + end.length)
    : `${doc.trimEnd()}\n\n## Widget\n\nReproduce with \`node bench/widget.mjs --write\` (npm scripts run Node 22).\n\n${section}\n`;
  await writeFile('BENCHMARKS.md', next);
}

#!/usr/bin/env node
/**
 * Gate pipeline overhead per call without a person (bench/pages/gate-bench.ts), in headless Chromium.
 * Prints JSON; `--write` replaces the "Gate pipeline" figures in BENCHMARKS.md between its markers.
 *   node bench/gate.mjs [--write]
 */
import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { chromium } from '@playwright/test';
import { bundle } from '../e2e/support/bundle.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/support/chromium.ts';

const ORIGIN = 'https://gate-bench.test';
const script = await bundle('bench/pages/gate-bench.ts');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
const page = await browser.newPage();
await page.route(`${ORIGIN}/**`, (route) =>
  new URL(route.request().url()).pathname === '/bench.js'
    ? route.fulfill({ contentType: 'application/javascript', body: script })
    : route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><script type="module" src="/bench.js"></script>',
      }),
);
await page.goto(`${ORIGIN}/`);
await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' });
const result = await page.evaluate(() => window.runGateBench(2_000, 9));
await browser.close();
const figures = { ...result, load: loadavg()[0].toFixed(2), date: new Date().toISOString().slice(0, 10) };
console.log(JSON.stringify(figures, null, 2));

if (process.argv.includes('--write')) {
  const start = '<!-- gate-figures:start (bench/gate.mjs --write rewrites this part) -->';
  const end = '<!-- gate-figures:end -->';
  const section = `${start}
Measured ${figures.date}, load average ${figures.load} on 2 shared cores; median of 9 alternating rounds of 2,000 calls.

| per call, instant in-page server | µs |
| --- | ---: |
| McpClient.callTool directly (baseline) | ${figures.directUs.toFixed(1)} |
| the same call through the gate (allow rule, memory audit sink) | ${figures.gatedUs.toFixed(1)} |
| **gate overhead** (target <= 100 µs plus the audit write) | **${figures.overheadUs.toFixed(1)}** |
${end}`;
  const doc = await readFile('BENCHMARKS.md', 'utf8');
  const next = doc.includes(start)
    ? doc.slice(0, doc.indexOf(start)) + section + doc.slice(doc.indexOf(end) + end.length)
    : `${doc.trimEnd()}\n\n## Gate pipeline\n\nWhat the gate adds to one call when no person is asked: resolve (catalog lookup, pin), validate the\narguments, decide (rules, grants, trust), record pending and final (in memory here; the IndexedDB audit\nlog's own cost is measured with the audit log), send, and check structured output. Reproduce with\n\`node bench/gate.mjs --write\` (npm scripts run Node 22).\n\n${section}\n`;
  await writeFile('BENCHMARKS.md', next);
}

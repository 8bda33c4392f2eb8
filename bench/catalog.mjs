#!/usr/bin/env node
/**
 * Connect-to-tool-list time for hostile catalogs (e2e/peers/hostile.mjs) against a plain 20-tool
 * server in the same run, in headless Chromium: 10,000 tools, a 100,000-value enum, a 10,000-link
 * $ref chain. Also the first argument check against each first tool's schema (what the gate does
 * before asking the person), which is where a huge schema would cost if it were compiled eagerly.
 *   node bench/catalog.mjs [--runs N]
 */
import { loadavg } from 'node:os';
import { chromium } from '@playwright/test';
import { bundle } from '../e2e/support/bundle.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/support/chromium.ts';
import { startPeer } from '../e2e/support/peers.ts';

const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 9;
const ORIGIN = 'https://catalog-bench.test';
const CASES = ['plain', 'tools-10000', 'enum-100000', 'ref-chain-10000'];

const script = await bundle('bench/pages/catalog-bench.ts');
const peer = await startPeer('hostile');
const endpoint = (name) => peer.url.replace(/\/plain$/, `/${name}`);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
const times = Object.fromEntries(CASES.map((name) => [name, []]));
const validation = {};
const toolCounts = {};
try {
  const context = await browser.newContext({ permissions: ['local-network-access'] });
  await context.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/bench.js'
      ? route.fulfill({ contentType: 'application/javascript', body: script })
      : route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><html lang="en"><title>Catalog bench</title><script type="module" src="/bench.js"></script></html>',
        }),
  );
  const page = await context.newPage();
  await page.goto(`${ORIGIN}/`);
  await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' });
  for (const name of CASES) await page.evaluate((url) => window.connectAndList(url), endpoint(name)); // warm
  // Interleaved, so every case sees the same machine.
  for (let run = 0; run < RUNS; run++)
    for (const name of CASES) {
      const { ms, tools } = await page.evaluate((url) => window.connectAndList(url), endpoint(name));
      times[name].push(ms);
      toolCounts[name] = tools;
    }
  for (const name of CASES)
    validation[name] = await page.evaluate((url) => window.firstValidation(url), endpoint(name));
  await context.close();
} finally {
  await browser.close();
  await peer.stop();
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value) => Math.round(value * 10) / 10;
const plain = median(times.plain);
const figures = {
  date: new Date().toISOString().slice(0, 10),
  load: loadavg()[0].toFixed(2),
  runs: RUNS,
  cases: Object.fromEntries(
    CASES.map((name) => [
      name,
      {
        tools: toolCounts[name],
        connectToListMs: round(median(times[name])),
        ratioToPlain: round(median(times[name]) / plain),
        firstValidationMs: round(validation[name].ms),
        firstValidation: validation[name].status,
      },
    ]),
  ),
};
console.log(JSON.stringify(figures, null, 2));

#!/usr/bin/env node
/**
 * What anchoring the audit log's head costs (bench/pages/audit-anchor-bench.ts), in headless
 * Chromium with an on-disk profile, each figure against its baseline in the same page and run.
 * Prints JSON.   node bench/audit-anchor.mjs [--entries 20000] [--rounds 6] [--same]
 * --same: both logs without anchoring, to see how far two identical logs differ in this run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { bundle } from '../e2e/support/bundle.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/support/chromium.ts';

const ORIGIN = 'https://anchor-bench.test';
const argument = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const total = Number(argument('--entries') ?? 20_000);
const rounds = Number(argument('--rounds') ?? 6);
const same = process.argv.includes('--same');

const script = await bundle('bench/pages/audit-anchor-bench.ts');
const profile = await mkdtemp(join(tmpdir(), 'toolgate-anchor-bench-'));
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
  const result = await page.evaluate(([n, r, s]) => window.runAnchorBench(n, r, s), [total, rounds, same]);
  console.log(
    JSON.stringify(
      {
        total,
        rounds,
        ...(same ? { same } : {}),
        ...result,
        load: loadavg()[0].toFixed(2),
        date: new Date().toISOString().slice(0, 10),
      },
      null,
      2,
    ),
  );
} finally {
  await context.close();
  await rm(profile, { recursive: true, force: true });
}

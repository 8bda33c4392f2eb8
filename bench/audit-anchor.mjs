#!/usr/bin/env node
/**
 * What anchoring the audit log's head costs (bench/pages/audit-anchor-bench.ts), in headless
 * Chromium with an on-disk profile, each figure against its baseline in the same page and run.
 * Prints JSON.   node bench/audit-anchor.mjs [--entries 20000] [--rounds 6] [--same]
 * --same: both logs without anchoring, to see how far two identical logs differ in this run.
 */
import { bundle } from '../e2e/support/bundle.ts';
import { argument, openBenchPage, stamp } from './support/bench-page.mjs';

const ORIGIN = 'https://anchor-bench.test';
const total = Number(argument('--entries') ?? 20_000);
const rounds = Number(argument('--rounds') ?? 6);
const same = process.argv.includes('--same');

const opened = await openBenchPage({
  origin: ORIGIN,
  script: await bundle('bench/pages/audit-anchor-bench.ts'),
  isolated: true,
});
try {
  const { page } = opened;
  const result = await page.evaluate(([n, r, s]) => window.runAnchorBench(n, r, s), [total, rounds, same]);
  console.log(
    JSON.stringify(
      {
        total,
        rounds,
        ...(same ? { same } : {}),
        ...result,
        ...stamp(),
      },
      null,
      2,
    ),
  );
} finally {
  await opened.close();
}

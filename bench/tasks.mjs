#!/usr/bin/env node
/**
 * Tasks on screen: how long after a task ends at the server its result shows in the widget's
 * Activity view, in headless Chromium, against e2e/peers/tasks-modern.mjs (2026-07-28, polled). The
 * wait splits in two, each measured in the same run: the polling wait (the task's end at the server
 * -> the `tasks/get` that finds it, which the server's pollIntervalMs decides: the baseline) and
 * Toolgate's own part (that poll's arrival at the server -> the result on screen: the round trip,
 * the follower, the gate's audit records and the render).
 *   node bench/tasks.mjs [--write] [--runs N]
 * --write replaces the figures between the tasks-screen markers of BENCHMARKS.md. Run with the
 * repository's Node 22 (npm scripts put it first on PATH): `npx node bench/tasks.mjs`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { bundle } from '../e2e/support/bundle.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/support/chromium.ts';
import { startPeer } from '../e2e/support/peers.ts';
import { argument, stamp } from './support/bench-page.mjs';

const RUNS = Number(argument('--runs') ?? 5);
const INTERVALS = [250, 1_000, 2_000];
const ORIGIN = 'https://tasks-bench.test';

const peer = await startPeer('tasks-modern');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const range = (values) => `${Math.min(...values)}-${Math.max(...values)}`;

try {
  const context = await browser.newContext({ permissions: ['local-network-access'] });
  const page = await context.newPage();
  // The widget's e2e test page (as e2e/support/fixture-page.ts serves it, which Node cannot import).
  const script = await bundle('e2e/fixtures/widget/page.ts');
  await page.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/page.js'
      ? route.fulfill({ contentType: 'application/javascript', body: script })
      : route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><html lang="en"><title>Tasks bench</title><main><script type="module" src="/page.js"></script></main></html>',
        }),
  );
  await page.goto(`${ORIGIN}/?server=${encodeURIComponent(peer.url)}&id=tasks&label=`);
  await page.locator('body[data-ready="yes"]').waitFor();
  await page
    .locator('[data-server="tasks"] .tg-badge', { hasText: 'connected' })
    .waitFor({ timeout: 30_000 });
  await page.getByRole('tab', { name: 'Activity' }).click();
  // Watches the panel for a finished call with `marker`, stamping the wall clock (ms) when it shows.
  await page.evaluate(() => {
    const root = document.querySelector('toolgate-panel')?.shadowRoot;
    const seen = new Map();
    new MutationObserver(() => {
      for (const row of root.querySelectorAll('.tg-finished-call')) {
        const text = row.textContent ?? '';
        const marker = /done after ([\d.]+)s/.exec(text)?.[1];
        if (marker && !seen.has(marker)) seen.set(marker, performance.timeOrigin + performance.now());
      }
    }).observe(root, { subtree: true, childList: true, characterData: true });
    Object.assign(window, { shownAt: (marker) => seen.get(marker) });
  });

  const rows = [];
  /** Tasks of earlier runs, by id. */
  const counted = new Set();
  let n = 0;
  for (const pollIntervalMs of INTERVALS) {
    const polling = [];
    const own = [];
    const total = [];
    for (let run = 0; run < RUNS; run++) {
      // A unique duration per run names its row on screen.
      const seconds = Number((1.5 + ++n / 1000).toFixed(3));
      const marker = String(seconds);
      await page.evaluate(
        (args) =>
          void window.toolgate
            .call({ serverId: 'tasks', toolName: 'long_job', arguments: args })
            .catch(() => undefined),
        { seconds, pollIntervalMs },
      );
      await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
      await page.waitForFunction((marker) => window.shownAt(marker) !== undefined, marker, {
        timeout: 60_000,
        polling: 50,
      });
      const shown = await page.evaluate((marker) => window.shownAt(marker), marker);
      const { tasks } = await peer.events();
      const [id, task] = Object.entries(tasks)
        .filter(([id, t]) => t.tool === 'long_job' && t.endedAt !== undefined && !counted.has(id))
        .sort(([, a], [, b]) => b.endedAt - a.endedAt)[0];
      counted.add(id);
      const found = task.polls.find((at) => at >= task.endedAt);
      polling.push(found - task.endedAt);
      own.push(Math.round(shown - found));
      total.push(Math.round(shown - task.endedAt));
    }
    rows.push({ pollIntervalMs, polling, own, total });
  }

  const { load, date } = stamp();
  const table = [
    `Measured ${date}, load average ${load} on 2 shared cores, ${RUNS} runs per interval, headless`,
    'Chromium, widget test page, `long_job` of 1.5 s; median (min-max), ms.',
    '',
    '| `pollIntervalMs` | end at the server -> the poll that finds it (baseline: polling) | that poll -> result on screen (Toolgate) | end at the server -> on screen |',
    '| ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.pollIntervalMs} | ${median(r.polling)} (${range(r.polling)}) | ${median(r.own)} (${range(r.own)}) | ${median(r.total)} (${range(r.total)}) |`,
    ),
  ].join('\n');
  console.log(table);
  if (process.argv.includes('--write')) {
    const doc = await readFile('BENCHMARKS.md', 'utf8');
    const start = '<!-- tasks-screen-figures:start (bench/tasks.mjs --write rewrites this part) -->';
    const end = '<!-- tasks-screen-figures:end -->';
    const from = doc.indexOf(start);
    const to = doc.indexOf(end);
    if (from < 0 || to < 0) throw new Error('BENCHMARKS.md has no tasks-screen markers');
    await writeFile('BENCHMARKS.md', `${doc.slice(0, from + start.length)}\n${table}\n${doc.slice(to)}`);
  }
} finally {
  await browser.close();
  await peer.stop();
}

#!/usr/bin/env node
/**
 * What a visitor downloads before the panel's first screen: the drop-in build (dist/widget as
 * `npm run build` makes it) embedded in a bare page exactly as the README shows, with one server
 * configured, in headless Chromium. Counts every JavaScript file whose request started before the
 * first screen (the tab list and the server list) was painted, as gzip bytes, and everything fetched
 * until the page is idle after that. This is the figure a person meets; the "first load" of
 * bench/widget.mjs counts only the entry's static imports.
 *   node bench/first-screen.mjs [--runs N] [--json]
 */
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumForThisMachine } from '../scripts/chromium.mjs';
import { buildWidget } from './support/widget-build.mjs';

export const FIRST_SCREEN_TARGET_KB = 30;
const ORIGIN = 'https://first-screen.test';
const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 5;

const widget = await buildWidget('toolgate-first-screen-');
const files = widget.files;
const gz = (name) => gzipSync(files.get(name), { level: 9 }).length;

// A server the panel connects to at mount; it only has to answer, so the demo's own endpoint would do,
// but a plain SDK server keeps this bench independent of the demo.
const { startPeer } = await import('../e2e/support/peers.ts');
const peer = await startPeer('sdk1-stateless-json');

// The README's embedding, nothing else on the page.
const page = (serverUrl) => `<!doctype html><html lang="en"><title>Bare page</title>
<toolgate-panel servers="${serverUrl}"></toolgate-panel>
<script type="module">import { defineToolgatePanel } from './toolgate-widget.js'; defineToolgatePanel();</script>
</html>`;

/**
 * Notes when the tab list and the server list are first in the panel's shadow root (checked at the
 * start of each frame, before that frame paints them).
 */
function watchFirstScreen() {
  const look = () => {
    const root = document.querySelector('toolgate-panel')?.shadowRoot;
    if (root?.querySelector('[role="tablist"]') && root.querySelector('[data-server]')) {
      window.shownAt = performance.now();
      return;
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

const browser = await chromium.launch({
  executablePath: chromiumForThisMachine(chromium).path,
  args: CHROMIUM_ARGS,
  headless: true,
});
const runs = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ permissions: ['local-network-access'] });
    await context.addInitScript(watchFirstScreen);
    await context.route(`${ORIGIN}/**`, (route) => {
      const name = new URL(route.request().url()).pathname.slice(1);
      if (files.has(name))
        return route.fulfill({ contentType: 'application/javascript', body: files.get(name) });
      return route.fulfill({ contentType: 'text/html', body: page(peer.url) });
    });
    const tab = await context.newPage();
    await tab.goto(`${ORIGIN}/`);
    await tab.waitForFunction(() => typeof window.shownAt === 'number', null, { timeout: 20_000 });
    // Idle: the server connected and nothing has been fetched for a while.
    await tab.waitForLoadState('networkidle');
    await tab.waitForTimeout(1500);
    // The first screen is the first contentful paint (the bare page has nothing else to paint),
    // provided the panel was complete by then; otherwise the frame that showed it.
    const { firstScreenAt, resources } = await tab.evaluate(() => ({
      firstScreenAt: Math.max(
        performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
        window.shownAt,
      ),
      resources: performance
        .getEntriesByType('resource')
        .map((entry) => ({ name: new URL(entry.name).pathname.slice(1), startTime: entry.startTime })),
    }));
    const js = resources.filter((entry) => files.has(entry.name));
    if (process.env.DEBUG_FIRST_SCREEN)
      console.error(
        await tab.evaluate(() => ({
          shownAt: window.shownAt,
          paints: performance.getEntriesByType('paint').map((p) => [p.name, p.startTime]),
        })),
        js.map((entry) => [entry.name, Math.round(entry.startTime)]),
      );
    const before = js.filter((entry) => entry.startTime < firstScreenAt).map((entry) => entry.name);
    runs.push({
      firstScreenMs: firstScreenAt,
      beforeFirstScreen: before.reduce((sum, name) => sum + gz(name), 0),
      beforeFiles: before,
      afterIdle: js.reduce((sum, entry) => sum + gz(entry.name), 0),
      afterIdleFiles: js.length,
    });
    await context.close();
  }
} finally {
  await browser.close();
  await peer.stop();
  await widget.dispose();
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;
const figures = {
  date: new Date().toISOString().slice(0, 10),
  load: loadavg()[0].toFixed(2),
  runs: RUNS,
  firstScreenKb: kb(median(runs.map((run) => run.beforeFirstScreen))),
  firstScreenFiles: runs.at(-1).beforeFiles,
  firstScreenMs: Math.round(median(runs.map((run) => run.firstScreenMs))),
  afterIdleKb: kb(median(runs.map((run) => run.afterIdle))),
  afterIdleFiles: runs.at(-1).afterIdleFiles,
  targetKb: FIRST_SCREEN_TARGET_KB,
};
console.log(JSON.stringify(figures, null, 2));

#!/usr/bin/env node
/**
 * Where a client spends its time per call: CPU-profiles the instant-fetch contenders (no network,
 * no server work in the page) in Chromium and prints the functions with the most self time. For
 * finding causes, not for figures: it attaches DevTools (Playwright), which bench/run.mjs avoids.
 *
 *   node bench/profile.mjs [contender ...]   (default: toolgate-json toolgate-sse sdk-json floor)
 *   LINES=send,dispatch node bench/profile.mjs toolgate-json   (also the hot lines of those functions)
 */

import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { chromiumForThisMachine } from '../scripts/chromium.mjs';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const pages = join(root, '.bench-out/profile');
const names = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['toolgate-json', 'toolgate-sse', 'sdk-json', 'floor'];
const CALLS = 20_000;

// Unminified, so that the profile names functions.
await build({
  configFile: false,
  logLevel: 'warn',
  mode: 'production',
  define: { 'process.env.NODE_ENV': '"production"' },
  build: {
    outDir: pages,
    emptyOutDir: true,
    copyPublicDir: false,
    target: 'es2022',
    minify: false,
    lib: { entry: join(root, 'bench/pages/profile.ts'), formats: ['es'], fileName: () => 'profile.js' },
    rolldownOptions: { output: { codeSplitting: false } },
  },
});
const { writeFile } = await import('node:fs/promises');
await writeFile(
  join(pages, 'profile.html'),
  '<!doctype html><script type="module" src="./profile.js"></script>\n',
);

const server = spawn(process.execPath, [join(root, 'bench/echo-server.mjs'), '--static', pages], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const origin = await new Promise((ready) =>
  createInterface({ input: server.stdout }).on('line', (line) => {
    if (line.startsWith('READY ')) ready(line.slice(6).trim());
  }),
);
const browser = await chromium.launch({
  executablePath: chromiumForThisMachine(chromium).path,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  await page.goto(`${origin}/bench/profile.html`);
  await page.waitForFunction(() => globalThis.bench?.ready);
  await page.evaluate(() => globalThis.bench.ready);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  for (const name of names) {
    await page.evaluate(([n]) => globalThis.bench.run(n, 2000), [name]);
    await cdp.send('Profiler.start');
    const perCall = await page.evaluate(([n, calls]) => globalThis.bench.run(n, calls), [name, CALLS]);
    const { profile } = await cdp.send('Profiler.stop');
    console.log(`\n${name}: ${perCall.toFixed(1)} us per call`);
    printTop(profile, 25);
    if (process.env.LINES) printLines(profile, process.env.LINES.split(','));
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
}

/** Self time per function (name and place), as a share of the busy (non-idle) samples. */
function printTop(profile, count) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    const frame = node.callFrame;
    if (frame.functionName === '(idle)') return;
    const dt = profile.timeDeltas[index] ?? 0;
    busy += dt;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  for (const [key, time] of [...self].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`${((time / busy) * 100).toFixed(1).padStart(5)}%  ${key}`);
}

/** Hot lines (from positionTicks) of the named functions, for LINES=send,dispatch. */
function printLines(profile, functions) {
  const ticks = new Map();
  for (const node of profile.nodes) {
    const name = node.callFrame.functionName;
    if (!functions.includes(name)) continue;
    for (const { line, ticks: count } of node.positionTicks ?? []) {
      const key = `${name}:${line}`;
      ticks.set(key, (ticks.get(key) ?? 0) + count);
    }
  }
  for (const [key, count] of [...ticks].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`   ${String(count).padStart(6)}  ${key}`);
}

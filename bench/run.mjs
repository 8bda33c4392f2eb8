#!/usr/bin/env node
/**
 * The spine's benchmark, in one run: builds the pages, starts the SDK echo server in its own
 * process, launches Chromium directly (no DevTools client attached, so no network instrumentation
 * slows the measured traffic), collects what the pages report, and prints ratios against baselines
 * measured in the same run.
 *
 *   node bench/run.mjs [--write] [--quick] [--nav-runs N] [--fresh-per-request] [--timeout-s S]
 *
 * --write rewrites the figures section of BENCHMARKS.md; --quick shrinks every count (a smoke run,
 * not for publishing). Results go to .bench-out/results.json.
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { CHROMIUM, CHROMIUM_ARGS as E2E_CHROMIUM_ARGS } from '../e2e/support/chromium.ts';
import { entryBuildOptions, gzipSize } from '../scripts/bundle-size.mjs';
import { formatFigures, summarize } from './summary.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, '.bench-out');
const pages = join(out, 'pages');

const { values: flags } = parseArgs({
  options: {
    write: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    'nav-runs': { type: 'string' },
    'fresh-per-request': { type: 'boolean', default: false },
    // A machine shared with other work runs the same steps slower: give it longer than 5 minutes.
    'timeout-s': { type: 'string' },
  },
  strict: true,
});

/** The e2e suite's browser and flags (e2e/support/chromium.ts), plus what benchmarks need. */
const CHROMIUM_ARGS = [
  ...E2E_CHROMIUM_ARGS,
  '--headless=new',
  // A headless window is never "visible": keep its timers and renderer at full speed anyway.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

const COUNTS = flags.quick
  ? { warmup: 30, rounds: 4, seq: 10, burst: 32, inflight: 16, navRuns: 3 }
  : { warmup: 200, rounds: 40, seq: 25, burst: 100, inflight: 16, navRuns: 10 };
const navRuns = Number(flags['nav-runs'] ?? COUNTS.navRuns);
/** The first navigation of each client warms the browser (process, sockets) and is not counted. */
const NAV_WARMUP = 1;
const TIMEOUT_MS = Number(flags['timeout-s'] ?? 300) * 1000;

const children = [];

async function main() {
  const loadBefore = loadavg();
  console.log(`load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} on ${cpus().length} cores`);
  await mkdir(pages, { recursive: true });

  console.log('building pages (vite, production, minified)');
  const sizes = {};
  for (const name of ['toolgate-first', 'sdk-first']) sizes[name] = await bundle(name);
  for (const name of ['rtt', 'pm-frame']) await bundle(name);
  await writePages();

  const plan = planSteps();
  const server = await startServer(plan);
  console.log(`echo server ${server.origin} (pid ${server.child.pid}); Chromium ${CHROMIUM}`);
  const reports = await runBrowser(server, plan);
  const loadAfter = loadavg();

  const results = summarize({
    date: new Date().toISOString(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', loadBefore, loadAfter },
    node: process.version,
    counts: { ...COUNTS, navRuns, navWarmup: NAV_WARMUP },
    serverMode: flags['fresh-per-request'] ? 'fresh McpServer per request' : 'pooled McpServers',
    sizes,
    reports,
  });
  writeFileSync(join(out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const figures = formatFigures(results);
  console.log(`\n${figures}`);
  console.log(`load average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
  if (flags.write) {
    if (flags.quick) throw new Error('--quick figures are too coarse to publish; run without --quick');
    rewriteFigures(figures);
    console.log('BENCHMARKS.md figures updated');
  }
}

/** One production bundle of bench/pages/<name>.ts; returns its raw and gzip-9 sizes. */
async function bundle(name) {
  // One file per entry: the size figure is everything the entry pulls in, lazy parts included
  // (the eager part alone is what scripts/check-size.mjs budgets).
  await build(entryBuildOptions(root, `bench/pages/${name}.ts`, { split: false, outDir: pages }));
  const code = readFileSync(join(pages, `${name}.js`));
  return { bytes: code.length, gzipBytes: gzipSize(code) };
}

/** The HTML shells. Navigation pages inline their reporting so that only the client bundle loads. */
async function writePages() {
  const shell = (title, body) =>
    `<!doctype html>\n<html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>\n`;
  await writeFile(
    join(pages, 'rtt.html'),
    shell(
      'toolgate bench: round trips',
      '<p id="status">loading</p><script type="module" src="./rtt.js"></script>',
    ),
  );
  await writeFile(
    join(pages, 'pm-frame.html'),
    shell('echo frame', '<script type="module" src="./pm-frame.js"></script>'),
  );
  for (const client of ['toolgate', 'sdk']) {
    const script = `
import { firstResult } from './${client}-first.js';
// Static imports run first: this is when the bundle has been fetched, compiled and evaluated.
const loaded = performance.now();
const step = Number(new URL(location.href).searchParams.get('step'));
const send = (kind, data) => fetch('/bench/report', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ step, kind, data }) }).then((r) => r.json());
try {
  const result = await firstResult(new URL('/json', location.href).href, 'first');
  const ms = performance.now();
  const ok = result?.content?.[0]?.text === 'first';
  const { next } = await send('nav', { client: '${client}', ms, loadedMs: loaded, ok });
  if (next) location.replace(next);
} catch (error) {
  await send('error', { message: String(error && error.stack || error) });
}`;
    await writeFile(
      join(pages, `nav-${client}.html`),
      shell(`first result: ${client}`, `<script type="module">${script}</script>`),
    );
  }
}

/** Every page the browser visits, in order; each page reports and then moves to the next. */
function planSteps() {
  const { warmup, rounds, seq, burst, inflight } = COUNTS;
  const steps = [
    `/bench/rtt.html?warmup=${warmup}&rounds=${rounds}&seq=${seq}&burst=${burst}&inflight=${inflight}`,
  ];
  // Alternate the clients, so drift over the run touches both alike.
  for (let run = 0; run < navRuns + NAV_WARMUP; run++) {
    const pair = run % 2 === 0 ? ['toolgate', 'sdk'] : ['sdk', 'toolgate'];
    for (const client of pair) steps.push(`/bench/nav-${client}.html?run=${run}`);
  }
  return steps.map((path, step) => `${path}${path.includes('?') ? '&' : '?'}step=${step}`);
}

function startServer(plan) {
  const child = spawn(
    process.execPath,
    [
      join(root, 'bench/echo-server.mjs'),
      '--static',
      pages,
      '--plan',
      JSON.stringify(plan),
      ...(flags['fresh-per-request'] ? ['--fresh-per-request'] : []),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  const reports = [];
  const waiters = [];
  const lines = createInterface({ input: child.stdout });
  return new Promise((resolveReady, rejectReady) => {
    child.once('exit', (code) => rejectReady(new Error(`the echo server exited early (code ${code})`)));
    lines.on('line', (line) => {
      if (line.startsWith('READY ')) {
        resolveReady({
          child,
          origin: line.slice('READY '.length).trim(),
          nextReport: () =>
            reports.length > 0 ? Promise.resolve(reports.shift()) : new Promise((r) => waiters.push(r)),
        });
      } else if (line.startsWith('REPORT ')) {
        const report = JSON.parse(line.slice('REPORT '.length));
        const waiter = waiters.shift();
        if (waiter) waiter(report);
        else reports.push(report);
      }
    });
  });
}

/** Launches Chromium at the first page and collects one report per step. */
async function runBrowser(server, plan) {
  const profile = mkdtempSync(join(tmpdir(), 'toolgate-bench-'));
  const url = `${server.origin}${plan[0]}`;
  // Its own process group, so that stopping it also stops the renderers and helpers it started.
  const browser = spawn(CHROMIUM, [...CHROMIUM_ARGS, `--user-data-dir=${profile}`, url], {
    detached: true,
    stdio: 'ignore',
  });
  children.push(browser);
  // A browser that cannot start or dies mid-run must fail the run now, not at the deadline.
  const gone = new Promise((_, reject) => {
    browser.once('error', (error) => reject(new Error(`could not start ${CHROMIUM}: ${error.message}`)));
    browser.once('exit', (code, signal) =>
      reject(new Error(`Chromium exited before the run finished (${signal ?? `code ${code}`})`)),
    );
  });
  gone.catch(() => undefined);
  const deadline = setTimeout(() => {
    console.error(`timed out after ${TIMEOUT_MS / 1000} s`);
    cleanUp();
    process.exit(1);
  }, TIMEOUT_MS);
  try {
    const reports = [];
    while (reports.length < plan.length) {
      const report = await Promise.race([server.nextReport(), gone]);
      if (report.kind === 'error') throw new Error(`page step ${report.step} failed: ${report.data.message}`);
      reports.push(report);
      process.stdout.write(report.kind === 'nav' ? '.' : `step ${report.step} (${report.kind}) done\n`);
    }
    process.stdout.write('\n');
    return reports;
  } finally {
    clearTimeout(deadline);
    const exited = new Promise((done) => {
      if (browser.exitCode !== null || browser.signalCode !== null) done();
      else browser.once('exit', done);
    });
    cleanUp();
    // Chromium writes its profile until it has exited; removing it earlier races with that.
    await Promise.race([exited, new Promise((done) => setTimeout(done, 5_000))]);
    rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

function cleanUp() {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    try {
      // Chromium runs in its own group (detached): signal the group; the server is a plain child.
      if (child.spawnargs[0] === CHROMIUM) process.kill(-child.pid, 'SIGTERM');
      else child.kill('SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

const FIGURES_START = '<!-- figures:start (bench/run.mjs --write rewrites this section) -->';
const FIGURES_END = '<!-- figures:end -->';

function rewriteFigures(figures) {
  const path = join(root, 'BENCHMARKS.md');
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(FIGURES_START);
  const end = text.indexOf(FIGURES_END);
  if (start < 0 || end < start) throw new Error('BENCHMARKS.md has no figures markers');
  writeFileSync(path, `${text.slice(0, start + FIGURES_START.length)}\n\n${figures}\n\n${text.slice(end)}`);
}

process.on('SIGINT', () => {
  cleanUp();
  process.exit(130);
});

main().catch((error) => {
  cleanUp();
  console.error(error);
  process.exitCode = 1;
});

#!/usr/bin/env node
/**
 * Schema validation benchmark: builds bench/pages/schema-bench.ts for production (minified, Ajv in
 * its own lazily loaded chunks, as an app would ship it), serves it from a fake origin through
 * Playwright routes, and runs each step in headless Chromium. Everything is timed in the page with
 * performance.now(); first-use figures come from fresh pages (new contexts), one per run.
 *
 *   node bench/schema.mjs [--write] [--quick] [--runs N]
 *
 * --write replaces the "Schema validation" figures in BENCHMARKS.md (between this script's own
 * markers, appending the section if absent); --quick shrinks every count (a smoke run, not for
 * publishing). Results go to .bench-out/schema/results.json.
 */

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { CHROMIUM, CHROMIUM_ARGS as E2E_CHROMIUM_ARGS } from '../e2e/support/chromium.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, '.bench-out', 'schema');
const ORIGIN = 'https://schema-bench.test';

const { values: flags } = parseArgs({
  options: {
    write: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    runs: { type: 'string' },
  },
  strict: true,
});

const COUNTS = flags.quick
  ? { runs: 2, firstCall: 20, warmCalls: 20_000, warmRounds: 5, catalog: 10_000, hybrid: 200 }
  : { runs: 5, firstCall: 150, warmCalls: 100_000, warmRounds: 9, catalog: 10_000, hybrid: 400 };
const runs = Number(flags.runs ?? COUNTS.runs);

/** The e2e suite's browser and flags (e2e/support/chromium.ts), plus what benchmarks need. */
const CHROMIUM_ARGS = [
  ...E2E_CHROMIUM_ARGS,
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

const TYPES = { '.js': 'application/javascript', '.html': 'text/html' };

async function bundle() {
  await build({
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir: out,
      emptyOutDir: true,
      copyPublicDir: false,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      lib: {
        entry: join(root, 'bench/pages/schema-bench.ts'),
        formats: ['es'],
        fileName: () => 'schema-bench.js',
      },
    },
  });
  await writeFile(
    join(out, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>loading</title><script type="module" src="/schema-bench.js"></script>\n',
  );
  const sizes = {};
  for (const name of await readdir(out)) {
    if (!name.endsWith('.js')) continue;
    const code = await readFile(join(out, name));
    sizes[name] = { bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
  }
  return sizes;
}

async function freshPage(browser) {
  const context = await browser.newContext();
  const fetched = [];
  await context.route(`${ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    fetched.push(path.slice(1));
    const file = join(out, path === '/' ? 'index.html' : path.slice(1));
    try {
      const body = await readFile(file);
      await route.fulfill({ body, contentType: TYPES[extname(file)] ?? 'application/octet-stream' });
    } catch {
      await route.fulfill({ status: 404, body: '' });
    }
  });
  const page = await context.newPage();
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => document.title === 'schema bench ready');
  const fetchedSince = (from) => fetched.slice(from);
  return { page, close: () => context.close(), fetchedCount: () => fetched.length, fetchedSince };
}

/** Runs one bench step on a fresh page; adds the gzip size of the chunks the step itself fetched. */
async function step(browser, name, ...args) {
  const { page, close, fetchedCount, fetchedSince } = await freshPage(browser);
  try {
    const before = fetchedCount();
    const result = await page.evaluate(([n, a]) => window.schemaBench[n](...a), [name, args]);
    let chunkGzipBytes = 0;
    for (const file of fetchedSince(before)) chunkGzipBytes += sizes[file]?.gzipBytes ?? 0;
    return { ...result, chunkGzipBytes };
  } finally {
    await close();
  }
}

let sizes = {};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Median of each numeric field over runs. */
function medians(results) {
  const keys = Object.keys(results[0]);
  return Object.fromEntries(
    keys.map((key) => [
      key,
      typeof results[0][key] === 'number' ? median(results.map((r) => r[key])) : results[0][key],
    ]),
  );
}

async function main() {
  const loadBefore = loadavg();
  console.log(`load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} on ${cpus().length} cores`);
  console.log('building the bench page (vite, production, minified, Ajv split out)');
  sizes = await bundle();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const version = browser.version();
  const collected = {
    firstAjv: [],
    firstReadmeAjv: [],
    firstAuto: [],
    firstCall: [],
    warm: [],
    warmSmall: [],
    catalog: [],
    hybrid: [],
  };
  try {
    for (let run = 0; run < runs; run++) {
      process.stdout.write(`run ${run + 1}/${runs}: `);
      // Alternate which first-use page goes first, so drift touches both alike.
      const firsts =
        run % 2 ? ['firstReadmeAjv', 'firstAjv', 'firstAuto'] : ['firstAuto', 'firstAjv', 'firstReadmeAjv'];
      for (const name of firsts) collected[name].push(await step(browser, name));
      collected.firstCall.push(await step(browser, 'firstCall', COUNTS.firstCall));
      collected.warm.push(await step(browser, 'warm', COUNTS.warmCalls, COUNTS.warmRounds, false));
      collected.warmSmall.push(await step(browser, 'warm', COUNTS.warmCalls * 2, COUNTS.warmRounds, true));
      collected.catalog.push(await step(browser, 'catalog', COUNTS.catalog));
      collected.hybrid.push(await step(browser, 'hybrid', COUNTS.hybrid));
      process.stdout.write('done\n');
    }
  } finally {
    await browser.close();
  }
  const loadAfter = loadavg();
  const summary = Object.fromEntries(Object.entries(collected).map(([key, list]) => [key, medians(list)]));
  const results = {
    date: new Date().toISOString(),
    chromium: version,
    machine: { cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', loadBefore, loadAfter },
    counts: { ...COUNTS, runs },
    sizes,
    summary,
    raw: collected,
  };
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const figures = format(results);
  console.log(`\n${figures}`);
  if (flags.write) {
    if (flags.quick) throw new Error('--quick figures are too coarse to publish; run without --quick');
    await writeSection(figures);
    console.log('BENCHMARKS.md "Schema validation" figures updated');
  }
}

const ms = (value) => (value >= 10 ? value.toFixed(0) : value >= 1 ? value.toFixed(1) : value.toFixed(2));
const us = (value) => (value >= 10 ? value.toFixed(1) : value.toFixed(2));
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

function format({ summary: s, counts, chromium: version, machine, date }) {
  const w = s.warm;
  const f = s.firstCall;
  const c = s.catalog;
  const entry = sizes['schema-bench.js'];
  const breakEven = (f.ajvFirstCallMs * 1000) / (w.cfworkerFacadeValidUs - w.ajvFacadeValidUs);
  const small = s.warmSmall;
  return [
    `Measured ${date.slice(0, 10)} in headless Chromium ${version}, ${machine.cores} cores (${machine.cpu}), load ${machine.loadBefore[0].toFixed(2)} before / ${machine.loadAfter[0].toFixed(2)} after; medians of ${counts.runs} runs, each step on a fresh page. "Tool schema": 12 properties with formats (email, date-time, uri), an enum, a pattern, uniqueItems, a nested object and an array of objects (bench/pages/schema-tools.ts); "small schema": the 3-property weather tool.`,
    '',
    '| What | Figure | Target / baseline (same run) |',
    '| --- | --- | --- |',
    `| Warm validation, valid args, small schema: Ajv via the facade | ${us(small.ajvFacadeValidUs)} µs/call | target <= 2 µs; raw Ajv function ${us(small.ajvRawValidUs)} µs |`,
    `| Warm validation, valid args, tool schema: Ajv via the facade | ${us(w.ajvFacadeValidUs)} µs/call | target <= 2 µs; raw Ajv function ${us(w.ajvRawValidUs)} µs (formats dominate) |`,
    `| Warm validation, valid args, small / tool schema: cfworker via the facade | ${us(small.cfworkerFacadeValidUs)} / ${us(w.cfworkerFacadeValidUs)} µs/call | raw cfworker ${us(small.cfworkerRawValidUs)} / ${us(w.cfworkerRawValidUs)} µs; ${(w.cfworkerFacadeValidUs / w.ajvFacadeValidUs).toFixed(0)}x Ajv on the tool schema |`,
    `| Warm validation, invalid args, tool schema (6 issues): Ajv / cfworker | ${us(w.ajvFacadeInvalidUs)} / ${us(w.cfworkerFacadeInvalidUs)} µs/call | includes mapping issues to readable paths |`,
    `| First Ajv use on a page: chunk load + instance | ${ms(s.firstAjv.loadMs)} ms | lazy chunks fetched: ${kb(s.firstAjv.chunkGzipBytes)} gzip |`,
    `| First Ajv compile on a page (first schema) | ${ms(s.firstAjv.firstCompileMs)} ms | Ajv as its README sets it up (meta-schema validated): ${ms(s.firstReadmeAjv.firstCompileMs)} ms |`,
    `| Next schema, Ajv: first call (register + compile + validate) | ${ms(f.ajvFirstCallMs)} ms | README-style Ajv, compile + first call: ${ms(f.readmeAjvFirstCallMs)} ms |`,
    `| Next schema, cfworker: first call (register + build + validate) | ${ms(f.cfworkerFirstCallMs)} ms | ${(f.ajvFirstCallMs / f.cfworkerFirstCallMs).toFixed(0)}x cheaper than Ajv |`,
    `| First validation on a page, auto mode (cfworker; no Ajv chunk) | ${ms(s.firstAuto.firstMs)} ms | forced Ajv: ${ms(s.firstAjv.loadMs + s.firstAjv.firstCompileMs)} ms (load + first compile) |`,
    `| Catalog of ${c.count.toLocaleString('en')} distinct tools made ready (prepare each inputSchema) | ${ms(c.listMs)} ms | target <= 150 ms; ${c.compilesAtListing} compiles, ${c.hashedAtListing} hashed |`,
    `| Same catalog prepared again (same objects) | ${ms(c.sameObjectsMs)} ms | identity cache |`,
    `| Deferred to a schema's first use: guards + canonical JSON + hash | ${us(c.resolvePerSchemaUs)} µs/schema | (${ms((c.resolvePerSchemaUs * c.count) / 1000)} ms if all ${c.count.toLocaleString('en')} were used) |`,
    `| Hybrid: ${s.hybrid.calls} validations of one tool schema in auto mode | ${s.hybrid.onCfworker} on cfworker, then ${s.hybrid.onAjv} on Ajv | one Ajv compile repays itself after ~${Math.round(breakEven)} validations |`,
    '',
    `Entry chunk of the bench page (facade + cfworker + the page): ${kb(entry.gzipBytes)} gzip; Ajv and ajv-formats load only when a schema gets hot (or with engine: 'ajv').`,
  ].join('\n');
}

const START = '<!-- schema-figures:start (bench/schema.mjs --write rewrites this part) -->';
const END = '<!-- schema-figures:end -->';

async function writeSection(figures) {
  const path = join(root, 'BENCHMARKS.md');
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch {
    // The file is someone else's to create; the section below stands on its own meanwhile.
  }
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start >= 0 && end > start) {
    text = `${text.slice(0, start + START.length)}\n\n${figures}\n\n${text.slice(end)}`;
  } else {
    const section = [
      '## Schema validation',
      '',
      'Reproduce: `node bench/schema.mjs` (add `--write` to refresh the figures below; about two',
      'minutes). What the gate pays to check arguments and results against tool schemas, in Chromium.',
      '',
      START,
      '',
      figures,
      '',
      END,
      '',
    ].join('\n');
    text = `${text.trimEnd()}${text ? '\n\n' : ''}${section}`;
  }
  await writeFile(path, text);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

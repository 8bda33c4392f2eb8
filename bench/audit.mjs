#!/usr/bin/env node
/**
 * Audit log figures (bench/pages/audit-bench.ts) in headless Chromium with an on-disk profile:
 * Playwright's default contexts keep IndexedDB in memory and flatter every figure. Each figure is
 * measured against a floor in the same page and run. Prints JSON; `--write` replaces the figures in
 * BENCHMARKS.md between their markers.
 *   node bench/audit.mjs [--write] [--entries 100000] [--rounds 10] [--against <git ref>]
 *   --entries  pending records appended (and the log's size for the queries and verify)
 *   --rounds   how many times appends alternate between the log and the setMany floor
 *   --against  measure the audit log as it was at that commit instead (the same bench page over
 *              that commit's src/, taken with git archive); with --write it fills the "before" table
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundle } from '../e2e/support/bundle.ts';
import { argument, openBenchPage, replaceInBenchmarks, stamp } from './support/bench-page.mjs';

const ORIGIN = 'https://audit-bench.test';
const PAGE = 'bench/pages/audit-bench.ts';
// What the page imports from beside it, taken along to the other commit's tree.
const PAGE_SHARED = 'bench/pages/audit-records.ts';
const total = Number(argument('--entries') ?? 100_000);
const rounds = Number(argument('--rounds') ?? 10);
const against = argument('--against');

/** The bench page over another commit's src/ (its audit log), in a temporary tree. */
async function pageAgainst(ref) {
  const tree = await mkdtemp(join(tmpdir(), 'toolgate-audit-before-'));
  const archive = execFileSync('git', ['archive', '--format=tar', ref, 'src'], { maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', tree], { input: archive });
  await mkdir(join(tree, 'bench/pages'), { recursive: true });
  await cp(PAGE, join(tree, PAGE));
  await cp(PAGE_SHARED, join(tree, PAGE_SHARED));
  await symlink(resolve('node_modules'), join(tree, 'node_modules'));
  return { entry: join(tree, PAGE), tree };
}

const source = against ? await pageAgainst(against) : { entry: PAGE };
const opened = await openBenchPage({ origin: ORIGIN, script: await bundle(source.entry), isolated: true });
try {
  const { page } = opened;
  const result = await page.evaluate(([n, r]) => window.runAuditBench(n, r), [total, rounds]);
  const figures = {
    total,
    rounds,
    ...(against ? { against } : {}),
    ...result,
    ...stamp(),
  };
  console.log(JSON.stringify(figures, null, 2));
  if (process.argv.includes('--write')) await write(figures);
} finally {
  await opened.close();
  if (source.tree) await rm(source.tree, { recursive: true, force: true });
}

async function write(f) {
  const ms = (v) => v.toFixed(1);
  const rate = (v) => Math.round(v).toLocaleString('en');
  const ratio = (v) => `${v.toFixed(2)}x`;
  const name = f.against ? 'audit-before' : 'audit-figures';
  const start = `<!-- ${name}:start (bench/audit.mjs --write${f.against ? ' --against <ref>' : ''} rewrites this part) -->`;
  const end = `<!-- ${name}:end -->`;
  const q = f.query;
  const section = `${start}
${f.against ? `The audit log at ${f.against}, m` : 'M'}easured ${f.date}, load average ${f.load} on 2 shared cores, on-disk profile,
${rate(f.total)} pending records of ~1.2 KB (100 tools, 3 servers), appended in bursts of 1,000 in ${f.rounds} rounds alternating
with the floor.

| | audit log | floor (same page, same run) | ratio | target |
| --- | ---: | ---: | ---: | ---: |
| sustained append, entries/s (indexing included) | ${rate(f.append.auditPerSecond)} | ${rate(f.append.floorPerSecond)} (idb-keyval setMany, same records and bursts) | ${ratio(f.append.auditPerSecond / f.append.floorPerSecond)} | >= 0.8x |
| one pending write, ms (median of 200) | ${ms(f.pending.auditMs)} | ${ms(f.pending.floorMs)} (one idb-keyval set) | +${ms(f.pending.auditMs - f.pending.floorMs)} ms | <= 1 ms |
| newest 50, ms | ${ms(q.newest50Ms)} | ${ms(q.floorNewest50Ms)} (newest 50 of the plain store) | ${ratio(q.newest50Ms / q.floorNewest50Ms)} | |
| one tool among 100, first 50, ms | ${ms(q.toolMs)} | | | |
| server + tool, first 50, ms | ${ms(q.serverToolMs)} | | | |
| search, a word of every entry (${q.textCommonFound} shown), ms | ${ms(q.textCommonMs)} | | | <= 50 |
| search, one argument value (${q.textRareFound} found), ms | ${ms(q.textRareMs)} | | | <= 50 |
| search, nothing matches (${q.textNoneFound} found), ms | ${ms(q.textNoneMs)} | | | <= 50 |
| counts by outcome, ms | ${ms(q.countsMs)} | | | |
| verify, events/s (${rate(f.verify.events)} events, ${f.verify.progressCalls} progress reports) | ${rate(f.verify.eventsPerSecond)} | ${rate(f.verify.floorPerSecond)} (read as many texts, SHA-256 each) | ${ratio(f.verify.eventsPerSecond / f.verify.floorPerSecond)} | >= 50,000 |
${end}`;
  await replaceInBenchmarks(start, end, section);
}

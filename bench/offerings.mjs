#!/usr/bin/env node
/**
 * Resources and completion in headless Chromium (bench/pages/offerings-bench.ts) against an SDK 1.x
 * server in this process (bench/offerings-server.mjs): the widget's Resources tab listing 10,000
 * resources (time to the first row and to every row, JS heap it added), and completion round trips
 * through Toolgate against a plain fetch() of the same request to the same server, both measured in
 * the same run (alternating rounds). Prints JSON; `--write` replaces the "Resources and completion"
 * figures in BENCHMARKS.md between its markers.
 *   node bench/offerings.mjs [--runs N] [--write]
 */
import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { chromium } from '@playwright/test';
import { bundle } from '../e2e/support/bundle.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/support/chromium.ts';
import { RESOURCE_COUNT, startOfferingsServer } from './offerings-server.mjs';

const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 5;
const COMPLETIONS = { calls: 50, rounds: 21 };

const server = await startOfferingsServer(await bundle('bench/pages/offerings-bench.ts'));
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  // A forced GC before and after each heap reading, and the heap to the byte.
  args: [...CHROMIUM_ARGS, '--js-flags=--expose-gc', '--enable-precise-memory-info'],
  headless: true,
});
const listings = [];
let completion;
try {
  const context = await browser.newContext({ permissions: ['local-network-access'] });
  const open = async () => {
    const page = await context.newPage();
    await page.goto(`${server.origin}/`);
    await page.waitForSelector('body[data-ready="yes"]', { state: 'attached', timeout: 60_000 });
    return page;
  };
  // A fresh page per listing: each starts from the panel's first screen, nothing listed yet.
  for (let run = 0; run < RUNS + 1; run++) {
    const page = await open();
    const result = await page.evaluate(() => window.listResourcesBench());
    if (run > 0) listings.push(result); // the first warms the browser
    await page.close();
  }
  const page = await open();
  completion = await page.evaluate(({ calls, rounds }) => window.completeBench(calls, rounds), COMPLETIONS);
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const figures = {
  date: new Date().toISOString().slice(0, 10),
  load: loadavg()[0].toFixed(2),
  runs: RUNS,
  resources: RESOURCE_COUNT,
  rows: median(listings.map((run) => run.rows)),
  firstRowMs: round(median(listings.map((run) => run.firstRowMs))),
  firstRows: median(listings.map((run) => run.firstRows)),
  allRowsMs: round(median(listings.map((run) => run.allRowsMs))),
  searchOneMs: round(median(listings.map((run) => run.searchOneMs))),
  searchNoneMs: round(median(listings.map((run) => run.searchNoneMs))),
  searchClearMs: round(median(listings.map((run) => run.searchClearMs))),
  heapMB: round(median(listings.map((run) => run.heapBytes)) / 2 ** 20),
  completion: {
    calls: COMPLETIONS.calls,
    rounds: COMPLETIONS.rounds,
    toolgateMs: round(completion.toolgateMs, 2),
    floorMs: round(completion.floorMs, 2),
    ratio: round(completion.toolgateMs / completion.floorMs, 2),
  },
};
console.log(JSON.stringify(figures, null, 2));

if (process.argv.includes('--write')) {
  const start = '<!-- offerings-figures:start (bench/offerings.mjs --write rewrites this part) -->';
  const end = '<!-- offerings-figures:end -->';
  const c = figures.completion;
  const section = `${start}
Measured ${figures.date}, load average ${figures.load} on 2 shared cores; medians of ${figures.runs} listings (each on a fresh page) and of ${c.rounds} alternating rounds of ${c.calls} sequential completions.

| Resources tab, ${figures.resources.toLocaleString('en')} resources (20 pages of 500) | |
| --- | ---: |
| click on the tab to the first rows painted (the first page: ${figures.firstRows} rows) | ${figures.firstRowMs} ms |
| click on the tab to every row painted (${figures.rows.toLocaleString('en')}: the resources and the template), same runs | ${figures.allRowsMs} ms |
| JS heap the tab added (after a forced GC) | ${figures.heapMB} MB |
| search that matches nothing, from every row shown: keystroke to painted | ${figures.searchNoneMs} ms |
| search that matches one (\`item-4321\`), from none shown: keystroke to painted (the scan of 10,001) | ${figures.searchOneMs} ms |
| search cleared, keystroke to every row painted again | ${figures.searchClearMs} ms |

| completion/complete round trip, same server | ms |
| --- | ---: |
| plain fetch() of the same JSON-RPC request (floor) | ${c.floorMs} |
| through Toolgate (the panel's completion: gate, client, transport) | ${c.toolgateMs} |
| **ratio to the floor** | **${c.ratio}×** |
${end}`;
  const doc = await readFile('BENCHMARKS.md', 'utf8');
  const next = doc.includes(start)
    ? doc.slice(0, doc.indexOf(start)) + section + doc.slice(doc.indexOf(end) + end.length)
    : `${doc.trimEnd()}\n\n## Resources and completion\n\nWhat browsing a large resource list and completing an argument cost in the widget: an SDK 1.x server\nin the bench's process offers 10,000 resources in pages of 500 and completes a template variable; the page\nis served from the same origin, so no CORS preflight is counted. The tab paints once every page has\narrived, so its first row and its last come together: streaming the first page is where to gain. Reproduce with\n\`node bench/offerings.mjs --write\` (npm scripts run Node 22).\n\n${section}\n`;
  await writeFile('BENCHMARKS.md', next);
}

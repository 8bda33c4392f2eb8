#!/usr/bin/env node
/**
 * MCP Apps figures, in headless Chromium, with the drop-in widget as `npm run build` makes it
 * (dist/widget) embedded in a bare page, the sandbox proxy page (public/mcp-app-sandbox.html) on
 * another origin, and the official basic example app (@modelcontextprotocol/server-basic-vanillajs)
 * as a real server:
 *
 * - Bytes: the JavaScript fetched only when an app is shown (gzip), after the page went idle with
 *   every prefetched view in, plus the sandbox proxy page; and, for comparison, what the
 *   @modelcontextprotocol/ext-apps AppBridge would add (bundled with its dependencies, minified).
 * - Time to the app's first paint, the app's first size report, which the App SDK sends from a
 *   ResizeObserver once its content is laid out (the `ready` app event): from the moment the call was
 *   sent (the app opens then, in parallel with the call), and from the moment the call's result
 *   reached the panel (its `finishedAt`; none when the app painted before the result came). Beside
 *   them, the call's own round trip in the same run (sent to result), the baseline an app adds to.
 *   Cold: the first app of a fresh page (app code fetched, UI resource read from the server); warm:
 *   the next ones (both cached). The calls are the person's (controller.call), so the panel shows the
 *   Apps tab and the app paints as soon as it can.
 *
 *   node bench/apps.mjs [--runs N] [--warm N] [--json]
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { register } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/support/chromium.ts';
import { buildWidget } from './support/widget-build.mjs';

// The e2e helpers import each other as './peers.js' (how TypeScript and Playwright name a .ts
// module); Node's own type stripping looks for that file as written, so .js falls back to .ts.
register(
  `data:text/javascript,${encodeURIComponent(
    "export async function resolve(s, c, next) { try { return await next(s, c); } catch (e) { if (s.startsWith('.') && s.endsWith('.js')) return next(s.slice(0, -3) + '.ts', c); throw e; } }",
  )}`,
);
const { startAppServer } = await import('../e2e/support/app-servers.ts');

const ORIGIN = 'https://apps-bench.test';
const SANDBOX_ORIGIN = 'https://apps-bench-sandbox.test';
const flag = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const RUNS = flag('--runs', 5);
const WARM = flag('--warm', 10);

const widget = await buildWidget('toolgate-apps-bench-');
const files = widget.files;
const sandboxPage = await readFile('public/mcp-app-sandbox.html');
const gz = (buffer) => gzipSync(buffer, { level: 9 }).length;

/** The AppBridge of @modelcontextprotocol/ext-apps with what it imports, built like the widget. */
async function appBridgeBytes() {
  // Inside the project (.bench-out is ignored), so the import resolves from its node_modules.
  await mkdir('.bench-out', { recursive: true });
  const dir = await mkdtemp(join('.bench-out', 'appbridge-'));
  const entry = join(process.cwd(), dir, 'entry.js');
  await writeFile(
    entry,
    "export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';\n",
  );
  try {
    const output = await build({
      configFile: false,
      logLevel: 'silent',
      root: process.cwd(),
      build: {
        write: false,
        minify: true,
        target: 'es2022',
        lib: { entry, formats: ['es'], fileName: 'bridge' },
        rolldownOptions: { output: { codeSplitting: false, minify: true } },
      },
    });
    const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output);
    return chunks.filter((c) => c.type === 'chunk').reduce((sum, c) => sum + gz(Buffer.from(c.code)), 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const page = (serverUrl) => `<!doctype html><html lang="en"><title>Apps bench</title>
<toolgate-panel servers="${serverUrl}" audit-name="apps-bench"></toolgate-panel>
<script type="module">
import { configureMcpApps, defineToolgatePanel, onMcpAppEvent } from './toolgate-widget.js';
configureMcpApps({ sandboxUrl: '${SANDBOX_ORIGIN}/mcp-app-sandbox.html' });
window.ready = [];
onMcpAppEvent((event) => {
  if (event.type === 'ready') window.ready.push({ result: event.msSinceResult, opened: event.msSinceOpened });
});
defineToolgatePanel();
const panel = document.querySelector('toolgate-panel');
panel.ready.then((controller) => {
  // The bench approves every call: approval time is the person's, not the app's.
  controller.approvals.subscribe((waiting) => {
    for (const item of waiting) item.answer({ action: 'allow', remember: 'once' });
  });
  window.controller = controller;
});
</script></html>`;

const server = await startAppServer('basic-vanillajs');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cold = [];
const warm = [];
const coldOpened = [];
const warmOpened = [];
const roundTrips = [];
let appOnly;
try {
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ permissions: ['local-network-access'] });
    const fetched = [];
    await context.route(`${SANDBOX_ORIGIN}/**`, (route) => {
      fetched.push('sandbox:mcp-app-sandbox.html');
      return route.fulfill({ contentType: 'text/html', body: sandboxPage });
    });
    await context.route(`${ORIGIN}/**`, (route) => {
      const name = new URL(route.request().url()).pathname.slice(1);
      if (files.has(name)) {
        fetched.push(name);
        return route.fulfill({ contentType: 'application/javascript', body: files.get(name) });
      }
      return route.fulfill({ contentType: 'text/html', body: page(server.url) });
    });
    const tab = await context.newPage();
    await tab.goto(`${ORIGIN}/`);
    await tab.waitForFunction(() => window.controller?.servers.value[0]?.state === 'connected', null, {
      timeout: 20_000,
    });
    // Idle: every view the panel prefetches is in, so what follows is what an app alone costs.
    let count = -1;
    while (count !== fetched.length) {
      count = fetched.length;
      await tab.waitForTimeout(1_500);
    }
    const before = new Set(fetched);
    for (let shown = 1; shown <= 1 + WARM; shown++) {
      await tab.evaluate(() =>
        window.controller.call({
          serverId: window.controller.servers.value[0].id,
          toolName: 'get-time',
          arguments: {},
        }),
      );
      await tab.waitForFunction((n) => window.ready.length >= n, shown, { timeout: 20_000 });
    }
    const times = await tab.evaluate(() => window.ready);
    // The app painted before its result: no "result to paint" figure for it.
    const afterResult = (list) => list.map((time) => time.result).filter((ms) => Number.isFinite(ms));
    cold.push(...afterResult(times.slice(0, 1)));
    warm.push(...afterResult(times.slice(1)));
    coldOpened.push(times[0].opened);
    warmOpened.push(...times.slice(1).map((time) => time.opened));
    roundTrips.push(
      ...(await tab.evaluate(() =>
        window.controller.finished.value
          .filter((call) => call.sentAt !== undefined)
          .map((call) => call.finishedAt - call.sentAt),
      )),
    );
    const added = fetched.filter((name) => !before.has(name));
    const js = [...new Set(added.filter((name) => files.has(name)))];
    appOnly ??= {
      files: js.map((name) => `${name} ${(gz(files.get(name)) / 1024).toFixed(1)} KB`),
      jsGzip: js.reduce((sum, name) => sum + gz(files.get(name)), 0),
      sandboxGzip: added.includes('sandbox:mcp-app-sandbox.html') ? gz(sandboxPage) : 0,
      prefetchedBefore: [...before].filter((name) => /app-view/.test(name)),
    };
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
  await widget.dispose();
}

const result = {
  bytes: { ...appOnly, appBridgeGzip: await appBridgeBytes() },
  msFromResultToFirstPaint: {
    coldMedian: median(cold),
    cold,
    warmMedian: median(warm),
    warmMin: Math.min(...warm),
    warmMax: Math.max(...warm),
    paintedBeforeResult: RUNS * (1 + WARM) - cold.length - warm.length,
  },
  msFromSentToFirstPaint: {
    coldMedian: median(coldOpened),
    cold: coldOpened,
    warmMedian: median(warmOpened),
    warmMin: Math.min(...warmOpened),
    warmMax: Math.max(...warmOpened),
  },
  msCallRoundTripMedian: median(roundTrips),
  runs: RUNS,
  warmPerRun: WARM,
  load: loadavg()[0],
};
if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
else {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(
    `Loaded only when an app is shown: ${kb(result.bytes.jsGzip)} gzip JS (${result.bytes.files.join(', ')})`,
  );
  console.log(`  + the sandbox proxy page: ${kb(result.bytes.sandboxGzip)} gzip (from the sandbox origin)`);
  console.log(
    `  prefetched before any app: ${result.bytes.prefetchedBefore.length ? result.bytes.prefetchedBefore.join(', ') : 'nothing'}`,
  );
  console.log(
    `AppBridge (@modelcontextprotocol/ext-apps) with its dependencies: ${kb(result.bytes.appBridgeGzip)} gzip`,
  );
  console.log(
    `Tool result -> app's first paint: cold ${result.msFromResultToFirstPaint.coldMedian} ms median (${cold.join(', ')}), warm ${result.msFromResultToFirstPaint.warmMedian} ms median (${result.msFromResultToFirstPaint.warmMin}-${result.msFromResultToFirstPaint.warmMax}); ${result.msFromResultToFirstPaint.paintedBeforeResult} apps painted before their result`,
  );
  console.log(
    `Call sent -> app's first paint: cold ${result.msFromSentToFirstPaint.coldMedian} ms median (${coldOpened.join(', ')}), warm ${result.msFromSentToFirstPaint.warmMedian} ms median (${result.msFromSentToFirstPaint.warmMin}-${result.msFromSentToFirstPaint.warmMax})`,
  );
  console.log(`The call's own round trip (sent -> result), median: ${result.msCallRoundTripMedian} ms`);
  console.log(`${RUNS} pages, ${WARM} warm apps each; load average ${result.load.toFixed(2)}`);
}

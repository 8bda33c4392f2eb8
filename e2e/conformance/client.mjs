#!/usr/bin/env node
/**
 * The client command for the official MCP conformance runner (`npm run -s conformance:client -- <url>`).
 *
 * The runner starts a scenario server, appends its URL as our last argument and names the scenario in
 * MCP_CONFORMANCE_SCENARIO. Toolgate is a browser client, so the scenario runs in headless Chromium:
 * the page is served from the scenario server's own origin (Playwright answers one private path),
 * because scenario servers send no CORS headers; every MCP request goes to the real server untouched,
 * so SSE streams behave as they would for a real page. Exit code 0 when the page-side run succeeded;
 * the runner's checks decide conformance. Page console, page errors and the run log go to stderr.
 *
 * Environment: CHROMIUM_PATH (else found as scripts/chromium.mjs says); TOOLGATE_CONFORMANCE_BUNDLE, a prebuilt
 * harness bundle to skip the Vite build (scripts/conformance-suite.mjs builds it once for all
 * scenarios); TOOLGATE_CONFORMANCE_VERBOSE=1 to log every request the page makes.
 */

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

// The shared Chromium settings and the bundler are TypeScript; Node 22 strips types natively. Under
// npm, `node` is already the Node 22 npm installed for this platform (node-<os>-<cpu>); a bare older
// `node` re-runs us with it.
if (!process.features.typescript) {
  const os = process.platform === 'win32' ? 'win' : process.platform;
  const binary = process.platform === 'win32' ? 'node.exe' : 'node';
  const node22 = join(root, 'node_modules', `node-${os}-${process.arch}`, 'bin', binary);
  if (!existsSync(node22)) {
    console.error(
      `conformance client: Node ${process.version} cannot load TypeScript; use Node 22.18 or later`,
    );
    process.exit(1);
  }
  const rerun = spawnSync(node22, process.argv.slice(1), { stdio: 'inherit' });
  process.exit(rerun.status ?? 1);
}

/** Below the runner's default 30 s, so we report (and close Chromium) instead of being killed. */
const DEADLINE_MS = 27_000;
/** A private path on the scenario server's origin that Playwright answers; never reaches the server. */
const PAGE_PATH = '/__toolgate_conformance__';

const serverUrl = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'generic';
const verbose = process.env.TOOLGATE_CONFORMANCE_VERBOSE === '1';

function fail(message) {
  console.error(`conformance client: ${message}`);
  process.exit(1);
}

if (!serverUrl || !URL.canParse(serverUrl) || !/^https?:$/.test(new URL(serverUrl).protocol))
  fail(`expected the scenario server's http(s) URL as the last argument, got ${JSON.stringify(serverUrl)}`);

const started = performance.now();
const elapsed = () => `${Math.round(performance.now() - started)}ms`;

async function harnessCode() {
  const prebuilt = process.env.TOOLGATE_CONFORMANCE_BUNDLE;
  if (prebuilt) return readFile(prebuilt, 'utf8');
  const { bundle } = await import('../support/bundle.ts');
  return bundle(join(here, 'harness.ts'));
}

async function main() {
  const [{ chromium }, { CHROMIUM, CHROMIUM_ARGS }, code] = await Promise.all([
    import('@playwright/test'),
    import('../support/chromium.ts'),
    harnessCode(),
  ]);
  console.error(`[client] harness ready at ${elapsed()}; scenario ${scenario}; server ${serverUrl}`);

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const deadline = setTimeout(() => {
    console.error(`[client] no result within ${DEADLINE_MS} ms; closing Chromium`);
    process.exitCode = 1;
    browser.close().finally(() => process.exit(1));
  }, DEADLINE_MS);
  try {
    const page = await browser.newPage();
    page.on('console', (message) => console.error(`[console.${message.type()}] ${message.text()}`));
    page.on('pageerror', (error) => console.error(`[page exception] ${error.stack ?? error.message}`));
    page.on('requestfailed', (request) => {
      const reason = request.failure()?.errorText;
      // Toolgate aborts streams once they delivered their answer: ERR_ABORTED is routine, not a failure.
      if (verbose || reason !== 'net::ERR_ABORTED')
        console.error(`[net] ${request.method()} ${request.url()} failed: ${reason}`);
    });
    if (verbose) {
      page.on('request', (request) =>
        console.error(`[net] > ${request.method()} ${request.url()} ${JSON.stringify(request.headers())}`),
      );
      page.on('response', (response) =>
        console.error(`[net] < ${response.status()} ${response.url()} ${JSON.stringify(response.headers())}`),
      );
    }

    const origin = new URL(serverUrl).origin;
    const html =
      '<!doctype html><meta charset="utf-8"><title>Toolgate conformance client</title>' +
      // No favicon request: some scenario servers count every GET as a stream (re)connection.
      '<link rel="icon" href="data:,">' +
      `<script type="module" src="${PAGE_PATH}/harness.js"></script>`;
    await page.route(`${origin}${PAGE_PATH}/**`, (route) => {
      const isScript = new URL(route.request().url()).pathname.endsWith('.js');
      return route.fulfill({
        status: 200,
        contentType: isScript ? 'text/javascript' : 'text/html',
        body: isScript ? code : html,
      });
    });
    await page.goto(`${origin}${PAGE_PATH}/index.html`);
    await page.waitForFunction(() => typeof window.runScenario === 'function', null, { timeout: 10_000 });
    console.error(`[client] page ready at ${elapsed()}`);

    // What the runner tells every client command: the scenario's own data (e.g. the tool calls to
    // make, with their arguments) and the revision the run targets.
    const context = parseContext(process.env.MCP_CONFORMANCE_CONTEXT);
    const revision = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
    const outcome = await page.evaluate(
      ([url, name, data, version]) => window.runScenario(url, name, data, version),
      [serverUrl, scenario, context, revision],
    );
    for (const line of outcome.log) console.error(`[run] ${line}`);
    if (outcome.ok) console.log(`toolgate conformance client: ${scenario} ran to completion in ${elapsed()}`);
    else console.error(`[client] ${scenario} failed: ${outcome.error}`);
    process.exitCode = outcome.ok ? 0 : 1;
  } finally {
    clearTimeout(deadline);
    await browser.close();
  }
}

function parseContext(text) {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    fail(`MCP_CONFORMANCE_CONTEXT is not JSON: ${text.slice(0, 200)}`);
  }
}

main().catch((error) => {
  console.error(`[client] ${error?.stack ?? error}`);
  process.exit(1);
});

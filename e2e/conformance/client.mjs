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
// npm, `node` is already the Node 22 npm installed for this platform (node-<os>-<cpu>, from the
// scripts/node22 workspace); a bare older `node` re-runs us with it.
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
    const browserContext = await browser.newContext();
    const page = await browserContext.newPage();
    page.on('console', (message) => console.error(`[console.${message.type()}] ${message.text()}`));
    // Sign-in popups (authorization scenarios): their navigations go to the real authorization server.
    browserContext.on('page', (popup) => {
      if (popup === page) return;
      popup.on('framenavigated', (frame) => {
        if (frame === popup.mainFrame()) console.error(`[popup] at ${redactQuery(frame.url())}`);
      });
      popup.on('console', (message) => console.error(`[popup console.${message.type()}] ${message.text()}`));
    });
    page.on('pageerror', (error) => console.error(`[page exception] ${error.stack ?? error.message}`));
    page.on('requestfailed', (request) => {
      const reason = request.failure()?.errorText;
      // Toolgate aborts streams once they delivered their answer: ERR_ABORTED is routine, not a failure.
      if (verbose || reason !== 'net::ERR_ABORTED')
        console.error(`[net] ${request.method()} ${request.url()} failed: ${reason}`);
    });
    if (verbose) {
      page.on('request', (request) =>
        console.error(
          `[net] > ${request.method()} ${request.url()} ${JSON.stringify(withoutCredentials(request.headers()))}`,
        ),
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
    // On the context, not the page: the sign-in popup's callback page is this same path.
    await browserContext.route(`${origin}${PAGE_PATH}/**`, (route) => {
      const isScript = new URL(route.request().url()).pathname.endsWith('.js');
      return route.fulfill({
        status: 200,
        contentType: isScript ? 'text/javascript' : 'text/html',
        body: isScript ? code : html,
      });
    });
    await bridgeAuthorizationServers(page, origin);
    await bridgeSignInRedirects(browserContext, new URL(serverUrl));
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

/**
 * Authorization scenarios put their authorization server on another localhost port, and the
 * suite's servers send no CORS headers: a real authorization server for browser clients sends
 * them (Access-Control-Allow-Origin on metadata, registration and token endpoints). This bridge
 * stands in for those headers, for the page's own fetches to other loopback origins only: Node
 * fetches the request unchanged (method, headers, body) and the answer goes back with CORS
 * headers added. The MCP origin is never routed (SSE streams would be buffered), and neither are
 * the popup's navigations (the authorization redirect is the browser's own). Also, Chromium's
 * Local Network Access refuses a route-fulfilled page's requests to other loopback ports before
 * any CORS check; answered here, they never reach that check.
 */
async function bridgeAuthorizationServers(page, mcpOrigin) {
  const isOtherLoopback = (url) =>
    url.origin !== mcpOrigin && /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(url.hostname);
  await page.route(isOtherLoopback, async (route) => {
    const request = route.request();
    const cors = {
      'access-control-allow-origin': mcpOrigin,
      'access-control-expose-headers': 'www-authenticate, dpop-nonce, location',
    };
    if (request.method() === 'OPTIONS') {
      const asked = (await request.allHeaders())['access-control-request-headers'];
      return route.fulfill({
        status: 204,
        headers: {
          ...cors,
          'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
          ...(asked ? { 'access-control-allow-headers': asked } : {}),
        },
      });
    }
    try {
      const response = await route.fetch({ maxRedirects: 0 });
      if (verbose)
        console.error(`[bridge] ${request.method()} ${redactQuery(request.url())} -> ${response.status()}`);
      return route.fulfill({ response, headers: { ...response.headers(), ...cors } });
    } catch (error) {
      console.error(`[bridge] ${request.method()} ${redactQuery(request.url())} failed: ${error.message}`);
      return route.abort('connectionrefused');
    }
  });
}

/**
 * Playwright routes a navigation's first request only, never the requests a redirect leads to: the
 * authorization server's redirect to the callback page would reach the scenario server (404)
 * instead of the callback page served here. So the sign-in popup's navigations (to the
 * authorization server, on any loopback origin but the MCP endpoint itself) are fetched by Node
 * without following redirects; a redirect comes back to the popup as a page that goes on to its
 * Location with location.replace(), a navigation of its own that the callback route answers.
 * Everything else the popup sees (the authorization request, the server's answer, the callback
 * page and its postMessage) is real. The main page's requests are not touched here.
 */
async function bridgeSignInRedirects(browserContext, mcpUrl) {
  const isLoopback = (url) => /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(url.hostname);
  const mayBeSignIn = (url) =>
    isLoopback(url) &&
    !url.pathname.startsWith(`${PAGE_PATH}/`) &&
    !(url.origin === mcpUrl.origin && url.pathname === mcpUrl.pathname);
  await browserContext.route(mayBeSignIn, async (route) => {
    const request = route.request();
    // The main page navigates only to PAGE_PATH (not matched): any navigation here is the popup's.
    if (!request.isNavigationRequest()) return route.fallback();
    let response;
    try {
      response = await route.fetch({ maxRedirects: 0 });
    } catch (error) {
      console.error(`[popup] ${redactQuery(request.url())} failed: ${error.message}`);
      return route.abort('connectionrefused');
    }
    const location = response.headers().location;
    if (response.status() < 300 || response.status() >= 400 || !location) return route.fulfill({ response });
    const next = new URL(location, request.url()).href;
    console.error(`[popup] ${response.status()} redirect to ${redactQuery(next)}`);
    const target = JSON.stringify(next).replace(/</g, '\\u003c');
    return route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: `<!doctype html><meta charset="utf-8"><script>location.replace(${target})</script>`,
    });
  });
}

/** Headers for the log: bearer tokens and client secrets are never printed. */
function withoutCredentials(headers) {
  const shown = { ...headers };
  for (const name of ['authorization', 'cookie', 'dpop']) if (name in shown) shown[name] = '[redacted]';
  return shown;
}

/** A URL for the log without its query (codes and states stay out of it). */
function redactQuery(url) {
  const parsed = new URL(url);
  return parsed.search ? `${parsed.origin}${parsed.pathname}?…` : url;
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

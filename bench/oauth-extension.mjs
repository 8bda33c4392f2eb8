#!/usr/bin/env node
/**
 * The time from a 401 to a usable token in the Chrome extension (BENCHMARKS.md, OAuth, "In the
 * Chrome extension"), beside the widget's figure measured in the same run (bench/oauth.mjs, run as
 * a child process first, same number of runs).
 *
 * The built extension, loaded unpacked in headless Chromium, adds a server from its side panel:
 * oidc-provider in front of the SDK-built protected MCP server (e2e/peers/oidc-protected.mjs), a new
 * pair per run (so a new registration at a new authorization server, and no login session there).
 * The person's parts are done by Playwright at once: "Sign in" in the panel as soon as it shows,
 * then login and consent in Chrome's web auth window. Every mark but one is taken in this process
 * when the peer records a request (one clock, no browser timer): the first MCP request (answered
 * 401), the authorization request reaching oidc-provider, its token answer, and the first MCP
 * request that carries the token. The one mark taken in the panel is "Sign in to …?" showing.
 *
 *   Toolgate's share = (401 -> the panel asks: discovery, registration, the question crossing the
 *   port) + (the yes -> the authorization request at oidc-provider: launchWebAuthFlow opening) +
 *   (token answered -> first request with it).
 *
 *   node bench/oauth-extension.mjs [--runs N] [--no-widget]
 */
import { execFile } from 'node:child_process';
import { register } from 'node:module';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';

// The e2e helpers import each other as './x.js' (how TypeScript names a .ts module); Node's type
// stripping looks for that file as written, so .js falls back to .ts.
register(
  `data:text/javascript,${encodeURIComponent(
    "export async function resolve(s, c, next) { try { return await next(s, c); } catch (e) { if (s.startsWith('.') && s.endsWith('.js')) return next(s.slice(0, -3) + '.ts', c); throw e; } }",
  )}`,
);
const { launchWithExtension } = await import('../e2e/support/extension.ts');
const { startOidcProtected } = await import('../e2e/peers/oidc-protected.mjs');

const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 5;
const WITH_WIDGET = !process.argv.includes('--no-widget');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Stamps each record the peer keeps, at the moment it keeps it (this process's clock). */
function stamped(list) {
  const at = [];
  const push = list.push.bind(list);
  list.push = (...items) => {
    for (const _ of items) at.push(performance.now());
    return push(...items);
  };
  return at;
}

/** Resolves with the stamp of the first record that `match` accepts. */
async function firstStamp(list, at, match) {
  for (;;) {
    const index = list.findIndex(match);
    if (index >= 0) return at[index];
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function oneSignIn(extension) {
  const peer = await startOidcProtected();
  const mcpAt = stamped(peer.seen.mcp);
  const authorizationAt = stamped(peer.seen.authorizations);
  const tokenAt = stamped(peer.seen.tokenRequests);
  const panel = await extension.openPanel();
  try {
    const url = peer.urls.good;
    const id = `${new URL(url).host}${new URL(url).pathname}`;
    await panel.getByRole('tab', { name: 'Servers' }).click();
    await panel.getByLabel('Server URL').fill(url);
    const dialog = panel.getByRole('dialog', { name: `Sign in to ${id}?` });
    await panel.getByRole('button', { name: 'Add server' }).click();
    await dialog.waitFor({ state: 'visible' });
    const asked = performance.now();
    const opened = extension.context.waitForEvent('page');
    const yes = performance.now();
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    // The person, at once: login (when oidc-provider asks), then consent.
    const window = await opened;
    const login = window.locator('input[name="login"]');
    const consent = window.getByRole('button', { name: 'Continue' });
    await login.or(consent).waitFor();
    if (await login.isVisible()) {
      await login.fill('ada');
      await window.locator('input[name="password"]').fill('any password');
      await window.getByRole('button', { name: 'Sign-in' }).click();
    }
    await consent.click();
    const bearer = await firstStamp(peer.seen.mcp, mcpAt, (request) => request.authorization);
    const unauthorized = await firstStamp(peer.seen.mcp, mcpAt, (request) => !request.authorization);
    const atAs = await firstStamp(peer.seen.authorizations, authorizationAt, () => true);
    const token = await firstStamp(
      peer.seen.tokenRequests,
      tokenAt,
      (request) => request.grantType === 'authorization_code',
    );
    await panel.locator(`[data-server="${id}"]`).getByRole('button', { name: 'Remove' }).click();
    return {
      askedMs: asked - unauthorized,
      openedMs: atAs - yes,
      exchangeMs: bearer - token,
      personMs: token - atAs,
      totalMs: bearer - unauthorized,
    };
  } finally {
    await panel.close();
    await peer.close();
  }
}

async function widgetFigures() {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['bench/oauth.mjs', '--runs', String(RUNS)],
    {
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return JSON.parse(stdout.slice(stdout.indexOf('{'))).signIn.medianMs;
}

const widget = WITH_WIDGET ? await widgetFigures() : undefined;
const extension = await launchWithExtension();
const runs = [];
try {
  for (let run = 0; run < RUNS; run++) runs.push(await oneSignIn(extension));
} finally {
  await extension.close();
}
const of = (key) => Math.round(median(runs.map((run) => run[key])));
const toolgate = of('askedMs') + of('openedMs') + of('exchangeMs');
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString().slice(0, 10),
      load: loadavg()[0].toFixed(2),
      runs: RUNS,
      extensionMedianMs: {
        toolgate,
        unauthorizedToPanelAsks: of('askedMs'),
        yesToAuthorizationRequest: of('openedMs'),
        tokenToFirstRequestWithIt: of('exchangeMs'),
        webAuthFlowPagesFilledByPlaywright: of('personMs'),
        total: of('totalMs'),
      },
      ...(widget
        ? {
            widgetMedianMs: widget,
            ratios: {
              toolgateShare: Math.round((toolgate / widget.toolgate) * 100) / 100,
              total: Math.round((of('totalMs') / widget.total) * 100) / 100,
            },
          }
        : {}),
    },
    null,
    2,
  ),
);
process.exit(0);

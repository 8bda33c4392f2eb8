#!/usr/bin/env node
/**
 * OAuth's cost, two figures (BENCHMARKS.md, "OAuth"):
 *
 * 1. Bytes. The drop-in widget build (vite.widget.config.ts) is inspected chunk by chunk: which
 *    chunks hold OAuth code (src/auth/, oauth4webapi), their gzip size, and whether any of them is
 *    in the entry's static imports (what loads before the first screen). OAuth must load only when a
 *    server asks: the layer at a server's first 401, the small `auth` helper when a server config
 *    has `auth`, the popup code when a sign-in starts.
 * 2. Time from a 401 to a usable token against the local authorization server: oidc-provider in
 *    front of an SDK-built protected MCP server (e2e/peers/oidc-protected.mjs), in headless
 *    Chromium, the popup's login and consent filled by Playwright at once. Each run is a new
 *    browser context and a new page: no session at the authorization server, a new registration.
 *    Toolgate's share is the 401 to the popup (discovery, registration) plus the callback to the
 *    first request with the token (code exchange); the popup's pages are the person's.
 *   node bench/oauth.mjs [--runs N] [--baseline <git ref>]
 *   --baseline  also build the widget from this working tree's src/ with src/client/connect.ts and
 *               options.ts as they were at that ref (before connect() knew of sign-ins), and give
 *               both figures: what wiring OAuth into connect() added, and where
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { startOidcProtected } from '../e2e/peers/oidc-protected.mjs';
import { bundle } from '../e2e/support/bundle.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/support/chromium.ts';
import { serveStatic } from '../e2e/support/static-server.ts';

const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 5;
const baselineFlag = process.argv.indexOf('--baseline');
const BASELINE = baselineFlag > 0 ? process.argv[baselineFlag + 1] : undefined;
const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** This tree's src/, with connect() and its options as they were at `ref`, in a temporary folder. */
async function baselineTree(ref) {
  const tree = await mkdtemp(join(tmpdir(), 'toolgate-oauth-baseline-'));
  await cp('src', join(tree, 'src'), { recursive: true });
  // The widget inlines a page or two from public/ (the MCP Apps sandbox).
  await cp('public', join(tree, 'public'), { recursive: true });
  for (const file of ['src/client/connect.ts', 'src/client/options.ts'])
    await writeFile(join(tree, file), execFileSync('git', ['show', `${ref}:${file}`]));
  // tsconfig.json: the JSX runtime (Preact) comes from it.
  for (const file of ['vite.widget.config.ts', 'tsconfig.json']) await cp(file, join(tree, file));
  await symlink(resolve('node_modules'), join(tree, 'node_modules'));
  return tree;
}

async function bytes(root = '.') {
  const output = await build({
    root,
    configFile: join(root, 'vite.widget.config.ts'),
    logLevel: 'silent',
    build: { write: false },
  });
  const chunks = (Array.isArray(output) ? output : [output])
    .flatMap((result) => result.output)
    .filter((item) => item.type === 'chunk');
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const isOAuth = (id) => /[\\/]src[\\/]auth[\\/]/.test(id) || /[\\/]oauth4webapi[\\/]/.test(id);
  const gz = (chunk) => gzipSync(chunk.code, { level: 9 }).length;
  const entry = chunks.find((chunk) => chunk.isEntry);
  const staticClosure = new Set();
  const walk = (name) => {
    if (staticClosure.has(name)) return;
    staticClosure.add(name);
    for (const next of byName.get(name)?.imports ?? []) walk(next);
  };
  walk(entry.fileName);
  const oauthChunks = chunks
    .filter((chunk) => chunk.moduleIds.some(isOAuth))
    .map((chunk) => ({
      file: chunk.fileName,
      gzipKb: kb(gz(chunk)),
      modules: chunk.moduleIds
        .filter(isOAuth)
        .map((id) => id.replace(/^.*[\\/](src[\\/]auth|oauth4webapi)[\\/]/, '$1/')),
      otherModules: chunk.moduleIds.filter((id) => !isOAuth(id)).length,
      beforeFirstScreen: staticClosure.has(chunk.fileName),
    }));
  const connectChunk = chunks.find((chunk) =>
    chunk.moduleIds.some((id) => /[\\/]src[\\/]client[\\/]connect\.ts$/.test(id)),
  );
  return {
    entryStaticImportsGzipKb: kb([...staticClosure].reduce((sum, name) => sum + gz(byName.get(name)), 0)),
    allChunksGzipKb: kb(chunks.reduce((sum, chunk) => sum + gz(chunk), 0)),
    connectChunkGzipKb: connectChunk ? kb(gz(connectChunk)) : undefined,
    oauthInEntryStaticImports: oauthChunks.some((chunk) => chunk.beforeFirstScreen),
    oauthChunks,
  };
}

async function timing() {
  const siteDir = await mkdtemp(join(tmpdir(), 'toolgate-oauth-bench-'));
  const page = '<!doctype html><meta charset="utf-8"><script type="module" src="/bench.js"></script>';
  await writeFile(join(siteDir, 'bench.js'), await bundle('bench/pages/oauth-bench.ts'));
  await writeFile(join(siteDir, 'index.html'), page);
  await writeFile(join(siteDir, 'callback.html'), page);
  const site = await serveStatic(siteDir);
  const peer = await startOidcProtected();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const runs = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext();
      const tab = await context.newPage();
      // The person, at once: login, then consent, in the sign-in popup.
      tab.on('popup', async (popup) => {
        const login = popup.locator('input[name="login"]');
        await login.fill('ada');
        await popup.locator('input[name="password"]').fill('any password');
        await popup.getByRole('button', { name: 'Sign-in' }).click();
        await popup.getByRole('button', { name: 'Continue' }).click();
      });
      await tab.goto(`${site.origin}/`);
      await tab.waitForFunction(() => 'signInOnce' in window);
      const marks = await tab.evaluate((url) => window.signInOnce(url), peer.urls.good);
      runs.push({
        discoveryAndRegistrationMs: marks.authorize - marks.unauthorized,
        popupMs: marks.callback - marks.authorize,
        exchangeMs: marks.token - marks.callback,
        totalMs: marks.token - marks.unauthorized,
      });
      await context.close();
    }
  } finally {
    await browser.close();
    await peer.close();
    await site.stop();
    await rm(siteDir, { recursive: true, force: true });
  }
  const of = (key) => Math.round(median(runs.map((run) => run[key])));
  return {
    runs: RUNS,
    medianMs: {
      toolgate: of('discoveryAndRegistrationMs') + of('exchangeMs'),
      discoveryAndRegistration: of('discoveryAndRegistrationMs'),
      exchange: of('exchangeMs'),
      popupPagesFilledByPlaywright: of('popupMs'),
      total: of('totalMs'),
    },
  };
}

let baseline;
if (BASELINE) {
  const tree = await baselineTree(BASELINE);
  try {
    const { entryStaticImportsGzipKb, allChunksGzipKb, connectChunkGzipKb } = await bytes(tree);
    baseline = { ref: BASELINE, entryStaticImportsGzipKb, allChunksGzipKb, connectChunkGzipKb };
  } finally {
    await rm(tree, { recursive: true, force: true });
  }
}

const figures = {
  date: new Date().toISOString().slice(0, 10),
  load: loadavg()[0].toFixed(2),
  bytes: await bytes(),
  ...(baseline ? { baseline } : {}),
  signIn: await timing(),
};
console.log(JSON.stringify(figures, null, 2));
process.exit(0);

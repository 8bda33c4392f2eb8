/**
 * What the in-page benches (audit, anchor, OTLP) do around their measurement, said once: read a
 * command-line option, open one bundled bench page in headless Chromium with an on-disk profile
 * (Playwright's default contexts keep IndexedDB in memory and flatter every figure), stamp the
 * figures with the machine's load and the date, and replace a marked section of BENCHMARKS.md.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from '../../e2e/support/chromium.ts';

/** The value after `--name` on the command line, or undefined. */
export const argument = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};

/** When and under what load the figures were taken (the machine is shared). */
export const stamp = () => ({ load: loadavg()[0].toFixed(2), date: new Date().toISOString().slice(0, 10) });

/**
 * Serves `script` as /bench.js of a page at `origin` in a fresh on-disk profile and waits for the
 * page's `data-ready`. `isolated`: cross-origin isolated, so performance.now() has 5 µs resolution
 * rather than 100 µs (checked). `launch`: more launch options (permissions, ...). The caller runs
 * its measurement on `page`, then `close()` removes the browser and its profile.
 */
export async function openBenchPage({ origin, script, isolated = false, launch = {} }) {
  const profile = await mkdtemp(join(tmpdir(), 'toolgate-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    ...launch,
  });
  const close = async () => {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  };
  try {
    await context.route(`${origin}/**`, (route) =>
      new URL(route.request().url()).pathname === '/bench.js'
        ? route.fulfill({
            contentType: 'application/javascript',
            headers: isolated ? { 'Cross-Origin-Resource-Policy': 'same-origin' } : {},
            body: script,
          })
        : route.fulfill({
            contentType: 'text/html',
            headers: isolated
              ? {
                  'Cross-Origin-Opener-Policy': 'same-origin',
                  'Cross-Origin-Embedder-Policy': 'require-corp',
                }
              : {},
            body: '<!doctype html><script type="module" src="/bench.js"></script>',
          }),
    );
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => console.error('page:', m.text()));
    await page.goto(`${origin}/`);
    await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' });
    if (isolated && !(await page.evaluate(() => crossOriginIsolated)))
      throw new Error(
        `the bench page at ${origin} is not cross-origin isolated: check its COOP/COEP headers`,
      );
    return { page, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Replaces BENCHMARKS.md's text from `start` to `end` (both markers included) with `section`. */
export async function replaceInBenchmarks(start, end, section) {
  const doc = await readFile('BENCHMARKS.md', 'utf8');
  if (!doc.includes(start) || !doc.includes(end))
    throw new Error(`BENCHMARKS.md has no markers ${start} ... ${end}: add them where the figures go`);
  await writeFile(
    'BENCHMARKS.md',
    doc.slice(0, doc.indexOf(start)) + section + doc.slice(doc.indexOf(end) + end.length),
  );
}

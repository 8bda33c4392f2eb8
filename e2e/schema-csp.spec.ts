/**
 * The validator facade in headless Chromium, on a page served with `Content-Security-Policy:
 * script-src 'self'` (no eval: the situation of MV3 extension pages and strict host pages) and on the
 * same page without it. Under the CSP the probe's one (caught) attempt is the only violation, Ajv is
 * never downloaded, no EvalError reaches the page, and cfworker reports the same issues Ajv reports
 * without the CSP. Everything is routed on fake origins; no server runs.
 */
import { fileURLToPath } from 'node:url';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { build, type Rolldown } from 'vite';

const PAGE = fileURLToPath(new URL('./fixtures/schema/page.ts', import.meta.url));
const STRICT = 'https://csp.test';
const OPEN = 'https://open.test';

interface PageBuild {
  files: Map<string, string>;
  /** page.js and what it imports statically: everything else loads only on demand (Ajv). */
  eager: Set<string>;
}

let pageBuild: Promise<PageBuild> | undefined;

/**
 * Like e2e/support/bundle.ts, but keeps every chunk: the facade loads Ajv with import(), and those
 * lazy chunks must be served (or, under the CSP, shown never to be requested).
 */
function buildPage(): Promise<PageBuild> {
  pageBuild ??= (async () => {
    const output = await build({
      configFile: false,
      logLevel: 'silent',
      build: {
        write: false,
        minify: false,
        sourcemap: 'inline',
        lib: { entry: PAGE, formats: ['es'], fileName: 'page' },
      },
    });
    const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
    const chunks = outputs.flatMap((o) => o.output).filter((item) => item.type === 'chunk');
    const files = new Map(chunks.map((chunk) => [chunk.fileName, chunk.code]));
    const eager = new Set<string>();
    const visit = (name: string) => {
      if (eager.has(name)) return;
      eager.add(name);
      for (const imported of chunks.find((chunk) => chunk.fileName === name)?.imports ?? []) visit(imported);
    };
    visit('page.js');
    if (!files.has('page.js') || eager.size === files.size)
      throw new Error('expected page.js and lazy chunks');
    return { files, eager };
  })();
  return pageBuild;
}

interface Served {
  scripts: string[];
  pageErrors: string[];
  consoleErrors: string[];
}

async function open(
  context: BrowserContext,
  page: Page,
  origin: string,
  csp: string | undefined,
): Promise<Served> {
  const { files } = await buildPage();
  const served: Served = { scripts: [], pageErrors: [], consoleErrors: [] };
  await context.route(`${origin}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname.slice(1);
    const headers: Record<string, string> = csp ? { 'content-security-policy': csp } : {};
    const code = files.get(path);
    if (code !== undefined) {
      served.scripts.push(path);
      return route.fulfill({ contentType: 'application/javascript', body: code, headers });
    }
    if (path === '') {
      return route.fulfill({
        contentType: 'text/html',
        headers,
        body: '<!doctype html><meta charset="utf-8"><title>loading</title><script type="module" src="/page.js"></script>',
      });
    }
    return route.fulfill({ status: 404, body: '' });
  });
  page.on('pageerror', (error) => served.pageErrors.push(`${error.name}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') served.consoleErrors.push(message.text());
  });
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => document.title === 'schema page ready');
  return served;
}

const EXPECTED_INPUT_ISSUES = [
  { path: 'city', message: 'is required' },
  { path: 'days', message: 'must be >= 1' },
  { path: 'stops[0].name', message: 'is required' },
  { path: 'stops[1].name', message: 'must be a string' },
  { path: 'units', message: 'must be one of "metric", "imperial"' },
  { path: 'x', message: 'is not allowed' },
];

function sortedIssues(report: unknown): unknown {
  const issues = (report as { issues?: { path: string; message: string }[] }).issues ?? [];
  return [...issues].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

test("script-src 'self': cfworker validates, no EvalError reaches the page, one caught probe violation", async ({
  context,
  page,
}) => {
  const served = await open(context, page, STRICT, "script-src 'self'");
  // The CSP is really in force in the page's own tasks.
  expect(await page.evaluate(() => window.schemaPage.tryEval())).toBe('EvalError');
  const before = (await page.evaluate(() => window.schemaPage.violations())).length;
  expect(before).toBe(1); // the line above

  for (const engine of ['auto', 'ajv', 'cfworker'] as const) {
    const outcome = await page.evaluate((e) => window.schemaPage.run(e, 4), engine);
    expect(outcome.engine).toBe('cfworker');
    expect(outcome.engines).toEqual(['cfworker', 'cfworker', 'cfworker', 'cfworker']);
    expect(outcome.valid).toEqual({ status: 'valid', engine: 'cfworker' });
    expect(outcome.invalid).toMatchObject({ status: 'invalid', engine: 'cfworker' });
    expect(sortedIssues(outcome.invalid)).toEqual(EXPECTED_INPUT_ISSUES);
    expect(outcome.output).toEqual({
      status: 'invalid',
      engine: 'cfworker',
      issues: [{ path: 'temperature', message: 'must be a number' }],
    });
    if (engine !== 'cfworker') expect(outcome.ajvUnavailable).toMatch(/does not allow eval/);
  }

  // The probe ran once for the realm (three validators, three engines): one more report, for eval.
  const violations = await page.evaluate(() => window.schemaPage.violations());
  expect(violations.slice(before)).toEqual([
    { effectiveDirective: 'script-src', blockedURI: 'eval', disposition: 'enforce' },
  ]);
  expect(served.pageErrors).toEqual([]);
  // Ajv was never even downloaded: only the entry and its static imports were fetched.
  const { eager } = await buildPage();
  expect(served.scripts.filter((name) => !eager.has(name))).toEqual([]);
});

test('without a CSP: auto mode promotes hot schemas to Ajv (fetched lazily), with the same issues', async ({
  context,
  page,
}) => {
  const served = await open(context, page, OPEN, undefined);
  const outcome = await page.evaluate(() => window.schemaPage.run('auto', 4));
  expect(outcome.engine).toBe('ajv');
  // promoteAfter 2: two validations on cfworker, the background compile, then Ajv.
  expect(outcome.engines).toEqual(['cfworker', 'ajv', 'ajv', 'ajv']);
  expect(outcome.valid).toEqual({ status: 'valid', engine: 'ajv' });
  expect(outcome.invalid).toMatchObject({ status: 'invalid', engine: 'ajv' });
  expect(sortedIssues(outcome.invalid)).toEqual(EXPECTED_INPUT_ISSUES);
  expect(outcome.ajvUnavailable).toBeUndefined();

  const forced = await page.evaluate(() => window.schemaPage.run('ajv', 1));
  expect(forced).toMatchObject({
    engine: 'ajv',
    engines: ['ajv'],
    valid: { status: 'valid', engine: 'ajv' },
  });
  expect(forced.output).toEqual({
    status: 'invalid',
    engine: 'ajv',
    issues: [{ path: 'temperature', message: 'must be a number' }],
  });

  expect(await page.evaluate(() => window.schemaPage.violations())).toEqual([]);
  expect(served.pageErrors).toEqual([]);
  expect(served.consoleErrors).toEqual([]);
  const { eager } = await buildPage();
  expect(served.scripts.filter((name) => !eager.has(name)).length).toBeGreaterThan(0); // Ajv's lazy chunks
});

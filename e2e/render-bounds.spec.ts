/**
 * Rendering is bounded whatever a server sends: a result nested 10,000 levels deep renders collapsed
 * without recursing through every level (it used to overflow the stack and blank the panel), ten
 * megabytes of text show a preview until asked for, and 100,000 items show a page at a time.
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { bundle } from './support/bundle.js';

const ORIGIN = 'http://render-bounds.test';
let pageErrors: string[] = [];

test.beforeEach(async ({ page }) => {
  const script = await bundle('e2e/fixtures/render-bounds/page.ts');
  await page.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/page.js'
      ? route.fulfill({ contentType: 'application/javascript', body: script })
      : route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><html lang="en"><title>bounds</title><main></main><script type="module" src="/page.js"></script>',
        }),
  );
  pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${ORIGIN}/`);
  await expect(page.locator('body[data-ready="yes"]')).toBeAttached();
});

test.afterEach(() => {
  expect(pageErrors).toEqual([]);
});

test('a result nested 10,000 levels deep renders collapsed, and opens one level at a time', async ({
  page,
}) => {
  const elements = await page.evaluate(() =>
    (window as unknown as { renderResult(k: string): number }).renderResult('deep'),
  );
  // Two levels open by default, the third closed: a handful of elements, not 10,000 levels of them.
  expect(elements).toBeLessThan(60);
  await expect(page.getByText('Structured content')).toBeVisible();
  const closed = page.locator('details.tg-json-node:not([open])').first();
  await expect(closed).toBeVisible();
  await closed.locator('summary').first().click();
  await expect(page.locator('details.tg-json-node[open]')).toHaveCount(3);
  await expect(page.locator('details.tg-json-node:not([open])')).toHaveCount(1);
});

test('ten megabytes of text show a preview with the size, and all of it on request', async ({ page }) => {
  await page.evaluate(() =>
    (window as unknown as { renderResult(k: string): number }).renderResult('huge-text'),
  );
  const text = page.locator('pre.tg-text');
  expect((await text.textContent())?.length).toBe(20_001);
  await expect(page.getByText('Showing 20,000 of 10,000,000 characters (10.0 MB).')).toBeVisible();
  await page.getByRole('button', { name: 'Show all' }).click();
  await expect(text).toContainText('END');
});

test('100,000 items show 200 at a time', async ({ page }) => {
  await page.evaluate(() =>
    (window as unknown as { renderResult(k: string): number }).renderResult('wide-array'),
  );
  // The "items" array is the second level: open, with its first page of children.
  await expect(page.locator('.tg-json-children .tg-json-children > li')).toHaveCount(201);
  await page.getByRole('button', { name: 'show 200 more of 99800 not shown' }).click();
  await expect(page.locator('.tg-json-children .tg-json-children > li')).toHaveCount(401);
});

test('an error result without content still says which tool failed', async ({ page }) => {
  await page.evaluate(() =>
    (window as unknown as { renderResult(k: string): number }).renderResult('empty-error'),
  );
  await expect(
    page.getByRole('heading', { name: 'read_file on Files reported an error without details.' }),
  ).toBeVisible();
  await expect(page.getByText('The tool returned no content.')).toHaveCount(0);
});

test('arbitrary and hostile content blocks never render anything that runs script', async ({ page }) => {
  const hostile = fc.constantFrom(
    '<script>window.__x=1</script>',
    '<img src=x onerror="window.__x=2">',
    'javascript:window.__x=3',
    'JaVaScRiPt:alert(1)',
    ' data:text/html,<script>1</script>',
    'vbscript:msgbox',
    '"><svg onload=alert(1)>',
  );
  const text = fc.oneof(fc.string({ maxLength: 30 }), hostile);
  const block = fc.oneof(
    fc.record({ type: fc.constant('text'), text }),
    fc.record({
      type: fc.constant('image'),
      data: fc.oneof(text, fc.base64String({ maxLength: 40 })),
      mimeType: fc.oneof(text, fc.constantFrom('image/png', 'image/svg+xml', 'text/html')),
    }),
    fc.record({
      type: fc.constant('audio'),
      data: fc.base64String({ maxLength: 40 }),
      mimeType: fc.oneof(text, fc.constant('audio/wav')),
    }),
    fc.record({
      type: fc.constant('resource_link'),
      uri: fc.oneof(text, fc.webUrl()),
      name: text,
      title: text,
    }),
    fc.record({
      type: fc.constant('resource'),
      resource: fc.record(
        { uri: fc.oneof(text, fc.webUrl()), text, mimeType: fc.oneof(text, fc.constant('text/html')) },
        { requiredKeys: ['uri'] },
      ),
    }),
    fc.record({
      type: text,
      annotations: fc.record({ audience: fc.array(text, { maxLength: 2 }), priority: fc.double() }),
    }),
  );
  const result = fc.record(
    {
      content: fc.array(block, { maxLength: 5 }),
      isError: fc.boolean(),
      structuredContent: fc.dictionary(text, fc.oneof(text, fc.jsonValue({ maxDepth: 3 }))),
    },
    { requiredKeys: ['content'] },
  );
  for (const sample of fc.sample(result, { numRuns: 150, seed: 2026 })) {
    // Sent as JSON text: Playwright's serialisable-argument type recurses too deep on fast-check's
    // JSON value type, and JSON is exactly what a server could send anyway.
    const found = await page.evaluate(
      (json) =>
        (window as unknown as { renderArbitrary(v: unknown): string[] }).renderArbitrary(JSON.parse(json)),
      JSON.stringify(sample),
    );
    expect(found, JSON.stringify(sample).slice(0, 300)).toEqual([]);
  }
  expect(await page.evaluate(() => (window as unknown as { __x?: number }).__x)).toBeUndefined();
});

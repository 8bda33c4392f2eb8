import { expect, test } from '@playwright/test';
import { bundle } from './support/bundle.js';

// Rules, trust and "always" approvals persist in real IndexedDB across reloads; session ones do not.
const ORIGIN = 'https://app.test';

test.beforeEach(async ({ context }) => {
  const script = await bundle('e2e/fixtures/policy/page.ts');
  await context.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/page.js') return route.fulfill({ contentType: 'application/javascript', body: script });
    return route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><script type="module" src="/page.js"></script>',
    });
  });
});

type Api = { policyApi: Record<string, () => Promise<unknown>> };

test('policy settings survive a reload; session approvals do not; revocation sticks', async ({ page }) => {
  await page.goto(`${ORIGIN}/`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await page.evaluate(() => (window as unknown as Api).policyApi.seed!());
  const before = await page.evaluate(() => (window as unknown as Api).policyApi.state!());
  expect(before).toEqual({
    rules: ['deny files/format_disk'],
    trust: 'trusted',
    grants: ['session read_file', 'always delete_file'],
    deleteFile: 'allow:remembered',
    readFile: 'allow:remembered',
  });

  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  const after = await page.evaluate(() => (window as unknown as Api).policyApi.state!());
  expect(after).toEqual({
    rules: ['deny files/format_disk'],
    trust: 'trusted',
    grants: ['always delete_file'],
    deleteFile: 'allow:remembered',
    // No session grant any more, and read_file claims nothing: a trusted server's unannotated tool asks.
    readFile: 'ask:default',
  });

  await page.evaluate(() => (window as unknown as Api).policyApi.revokeAll!());
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  const revoked = (await page.evaluate(() => (window as unknown as Api).policyApi.state!())) as Record<
    string,
    unknown
  >;
  expect(revoked.rules).toEqual([]);
  expect(revoked.grants).toEqual([]);
  expect(revoked.deleteFile).toBe('ask:default');
});

test('a change made in one tab reaches the policy in another', async ({ context }) => {
  const first = await context.newPage();
  const second = await context.newPage();
  for (const page of [first, second]) {
    await page.goto(`${ORIGIN}/`);
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  }
  // The second tab decides first, so its rules are compiled and cached before the change: only the
  // broadcast can make it see the new rule.
  expect(await second.evaluate(() => (window as unknown as Api).policyApi.formatDisk!())).toBe('ask:default');
  await first.evaluate(() => (window as unknown as Api).policyApi.seed!());
  await expect
    .poll(() => second.evaluate(() => (window as unknown as Api).policyApi.changes!()))
    .toEqual(expect.arrayContaining(['rules', 'trust', 'grants']));
  expect(await second.evaluate(() => (window as unknown as Api).policyApi.formatDisk!())).toBe('deny:rule');
});

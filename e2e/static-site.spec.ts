/**
 * The static site (`npm run build` → dist/site/) from a plain static server, with every other
 * request blocked: the demo page connects to its in-browser demo server (the official SDK in a
 * Web Worker, over a MessageChannel) and every feature works with nothing but the static host.
 */
import { expect, type Page, test } from '@playwright/test';
import { buildAndServeSite, type StaticServer } from './support/static-server.js';

let site: StaticServer;
const blocked: string[] = [];

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  site = await buildAndServeSite();
});
test.afterAll(async () => {
  await site?.stop();
});
test.beforeEach(async ({ context }) => {
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${site.origin}/`) || url.startsWith('data:') || url.startsWith('blob:'))
      return route.continue();
    blocked.push(url);
    return route.abort('blockedbyclient');
  });
});

async function openTool(page: Page, title: string): Promise<void> {
  await page.getByRole('tab', { name: 'Tools' }).click();
  await page.getByLabel('Search tools').fill(title);
  await page.locator('.tg-tool-button', { hasText: title }).first().click();
}

async function callOpenTool(page: Page): Promise<void> {
  await page
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();
}

test('the demo works from a static host with its in-browser server only', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${site.origin}/`);
  // The intro says what is connected, from the live state: here the in-browser server alone.
  await expect(page.locator('#demo-connected')).toHaveText(
    '1 of 1 server is connected: Demo server (in your browser).',
    { timeout: 20_000 },
  );
  // Dark follows the system, and the theme attribute overrides it.
  const background = () =>
    page.locator('toolgate-panel').evaluate((panel) => getComputedStyle(panel).backgroundColor);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await background()).toBe('rgb(13, 17, 23)');
  await page.locator('toolgate-panel').evaluate((panel) => panel.setAttribute('theme', 'light'));
  expect(await background()).toBe('rgb(255, 255, 255)');

  await page.getByRole('tab', { name: 'Tools' }).click();
  await expect(page.locator('.tg-view [role=status]').first()).toHaveText('12 tools');

  // Progress and result, on the person's click (no dialog for their own call).
  await openTool(page, 'Countdown');
  await page.locator('.tg-try').getByLabel(/steps/).fill('5');
  await page
    .locator('.tg-try')
    .getByLabel(/delayMs/)
    .fill('200');
  await callOpenTool(page);
  await page.getByRole('tab', { name: /Activity/ }).click();
  await expect(page.locator('progress[value]').first()).toHaveAttribute('value', /[1-4]/);
  await expect(page.locator('.tg-finished-call').first()).toContainText('Counted down 5 steps.', {
    timeout: 10_000,
  });

  // An image result, rendered from its data URL.
  await openTool(page, 'Image');
  await callOpenTool(page);
  await page.getByRole('tab', { name: /Activity/ }).click();
  await expect(page.locator('.tg-finished-call img').first()).toHaveJSProperty('complete', true);
  expect(
    await page
      .locator('.tg-finished-call img')
      .first()
      .evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBe(48);

  // Elicitation: the server's question, answered with its defaults.
  await openTool(page, 'Greet');
  await callOpenTool(page);
  const question = page.getByRole('dialog');
  await expect(question).toContainText('What should the demo call you?');
  await question.getByRole('button', { name: /^(Accept|Send|Submit)/ }).click();
  await page.getByRole('tab', { name: /Activity/ }).click();
  await expect(page.locator('.tg-finished-call').first()).toContainText('Hello, friend!');

  // A destructive claim: one compact confirmation, denied; the audit log has all four calls.
  await openTool(page, 'Delete file');
  await page.locator('.tg-try').getByLabel(/path/).fill('/etc/hosts');
  await callOpenTool(page);
  await expect(page.getByRole('dialog')).toContainText('path = /etc/hosts');
  await page.getByRole('dialog').getByRole('button', { name: 'Deny' }).click();
  await page.getByRole('tab', { name: 'Audit log' }).click();
  await expect(page.locator('.tg-log-table tbody tr')).toHaveCount(4);
  await expect(page.locator('.tg-log-table tbody tr').first()).toContainText('Denied');

  expect(errors).toEqual([]);
  expect(blocked).toEqual([]);
  expect(site.requests.some((path) => /browser-server.*\.js$/.test(path))).toBe(true);
});

/**
 * Issue 26's "done when", walked as a newcomer walks it, at 1280 px in the widget and in the
 * extension's side panel, against our SDK 1.x server (which records what reached it): pick a tool,
 * call it with one click (no dialog), read the result with its mark and copy it, then find the call
 * in the audit log, whose first row is on screen above its settings without scrolling, and open it
 * in the drawer, which shows the arguments sent and that the person's own click approved it.
 */
import { expect, type Page, test } from '@playwright/test';
import { type LoadedExtension, launchWithExtension } from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';
import { fillServerUrl, openWidget } from './support/widget-page.js';

test.use({ permissions: ['local-network-access', 'clipboard-read', 'clipboard-write'] });
test.describe.configure({ mode: 'serial' });

let sdk: Peer;
test.beforeAll(async () => {
  sdk = await startPeer('sdk1-stateful-sse');
});
test.afterAll(async () => {
  await sdk?.stop();
});

/** Tools tab, search, pick echo, type a message, one click on Call; returns the form. */
async function callEchoWithOneClick(page: Page, message: string) {
  await page.getByRole('tab', { name: 'Tools' }).click();
  await page.getByLabel('Search tools').fill('echo');
  await page
    .locator('.tg-tool-button', { hasText: /^echo\b/ })
    .first()
    .click();
  const form = page.locator('.tg-try');
  await form.getByLabel(/^message/).fill(message);
  await form.getByRole('button', { name: /^Call / }).click();
  // One consent per intent: the click was the approval, so no dialog comes between.
  await expect(form.locator('.tg-call-phase')).toContainText('Succeeded', { timeout: 20_000 });
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(form.locator('.tg-result')).toContainText(`Echo: ${message}`);
  return form;
}

/** Audit log tab: the first row on screen, above the settings, without scrolling; opens its drawer. */
async function findInAuditLog(page: Page, message: string): Promise<void> {
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const rows = page.locator('.tg-log-table tbody tr');
  await expect(rows.first()).toContainText('echo');
  const viewport = page.viewportSize()!;
  const row = (await rows.first().boundingBox())!;
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  expect(row.y + row.height).toBeLessThanOrEqual(viewport.height);
  expect(row.y).toBeLessThan((await page.getByRole('heading', { name: 'Settings' }).boundingBox())!.y);
  await rows.first().locator('td[data-label="Server"]').click();
  const drawer = page.getByRole('dialog', { name: /echo on/ });
  await expect(drawer).toContainText(`"message": "${message}"`);
  await expect(drawer).toContainText('Approved by your own click');
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
}

test('in the widget at 1280 px: pick, one click, read and copy the result, find it in the audit drawer', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openWidget(page, [{ url: sdk.url, id: 'sdk' }]);
  const form = await callEchoWithOneClick(page, 'first steps');
  expect((await sdk.events()).calls).toContainEqual({ tool: 'echo', arguments: { message: 'first steps' } });
  await form.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('Echo: first steps');
  await findInAuditLog(page, 'first steps');
});

test('in the extension’s side panel: the same walk', async () => {
  let extension: LoadedExtension | undefined;
  try {
    extension = await launchWithExtension();
    const panel = await extension.openPanel();
    await panel.setViewportSize({ width: 400, height: 900 });
    await panel.getByRole('tab', { name: 'Servers' }).click();
    await fillServerUrl(panel, sdk.url);
    await panel.getByRole('button', { name: 'Add server' }).click();
    await expect(panel.locator('.tg-server-list')).toContainText('connected', { timeout: 20_000 });
    const form = await callEchoWithOneClick(panel, 'from the side panel');
    expect((await sdk.events()).calls).toContainEqual({
      tool: 'echo',
      arguments: { message: 'from the side panel' },
    });
    // The clipboard of an extension page is not one the test context's permissions reach: the
    // panel's own confirmation, shown only once the browser took the text, stands for it.
    await form.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(form.getByText('Copied')).toBeVisible();
    await findInAuditLog(panel, 'from the side panel');
  } finally {
    await extension?.close();
  }
});

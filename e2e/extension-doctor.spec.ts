/**
 * The connection doctor in the extension (issue 30): for a server whose CORS shuts the side panel
 * out, the report offers the extension's own fix, "Allow Toolgate to reach <origin>" (Chrome's
 * permission, asked on the person's click); once allowed, the server connects and the doctor,
 * run again, passes every step from the panel.
 */
import { expect, type Locator, test } from '@playwright/test';
import { type LoadedExtension, launchWithExtension } from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';
import { serverIdOf } from './support/side-panel.js';
import { fillServerUrl } from './support/widget-page.js';

let noCors: Peer;
let extension: LoadedExtension;

test.beforeAll(async () => {
  [noCors, extension] = await Promise.all([startPeer('modern', { cors: false }), launchWithExtension()]);
});
test.afterAll(async () => {
  await Promise.all([noCors?.stop(), extension?.close()]);
});

const step = (report: Locator, id: string) => report.locator(`[data-step="${id}"]`);

test('the doctor offers "Allow Toolgate to reach <origin>"; allowed, the server connects and the doctor passes', async () => {
  const panel = await extension.openPanel();
  const origin = new URL(noCors.url).origin;
  await panel.getByRole('tab', { name: 'Servers' }).click();
  await fillServerUrl(panel, noCors.url);
  await panel.getByRole('button', { name: 'Add server' }).click();
  const card = panel.locator(`[data-add-failed="${serverIdOf(noCors.url)}"]`);
  await card.getByRole('button', { name: 'Diagnose', exact: true }).click({ timeout: 20_000 });
  const report = card.locator('[data-doctor]');
  await expect(report.getByRole('list', { name: 'Diagnosis steps' })).toBeVisible({ timeout: 30_000 });
  await expect(step(report, 'cors')).toHaveAttribute('data-outcome', 'fail');
  const reach = report.getByRole('region', { name: 'Reach it from here' });
  const allow = reach.getByRole('button', { name: `Allow Toolgate to reach ${origin}` });
  await expect(allow).toBeVisible();
  // The fix to hand over is still there, for a server owner who would rather send CORS headers.
  await expect(report.getByRole('region', { name: "The fix for the server's owner" })).toBeVisible();

  // The person answers Chrome's prompt (given beforehand: Playwright cannot click it), then clicks.
  await extension.allowOriginInSettings(origin);
  await allow.click();
  const row = panel.locator(`[data-server="${serverIdOf(noCors.url)}"]`);
  await expect(row).toContainText('connected', { timeout: 20_000 });

  await row.getByRole('button', { name: 'Diagnose', exact: true }).click();
  const again = row.locator('[data-doctor]');
  await expect(again.getByRole('list', { name: 'Diagnosis steps' })).toBeVisible({ timeout: 30_000 });
  for (const id of ['reachability', 'cors', 'preflight', 'protocol', 'tools-list'])
    await expect(step(again, id)).toHaveAttribute('data-outcome', 'pass');
  await expect(again.getByRole('button', { name: /Allow Toolgate to reach/ })).toHaveCount(0);
  await panel.close();
});

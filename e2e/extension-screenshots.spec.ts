/**
 * Screenshots of the extension (issue 26), built and loaded unpacked: the side panel's Servers and
 * Tools at the side panel's usual width (400 px), and the popup, light and dark, compared with the
 * baselines in e2e/__screenshots__/extension-screenshots.spec.ts/, with axe on each.
 *
 * After a change to how a view looks, regenerate the baselines (and look at them before committing):
 *   npx playwright test e2e/screenshots.spec.ts e2e/extension-screenshots.spec.ts --update-snapshots --workers=1
 *
 * As in screenshots.spec.ts, what differs between runs is frozen: DejaVu Sans, a loopback address's
 * port read as "PORT", a result's times read as "N ms" (the worker times the call, out of reach of
 * the page's clock), and a settled view before each shot.
 */
import { expect, type Page, test } from '@playwright/test';
import { type LoadedExtension, launchWithExtension } from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';
import { forceOneFont, shootEveryWay } from './support/screenshots.js';
import { callFromPanel, serverIdOf } from './support/side-panel.js';
import { fillServerUrl } from './support/widget-page.js';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

/** Chrome's side panel opens about this wide; the panel's one-column layout. */
const SIDE_PANEL = [400] as const;
/** The popup's body is 340 px wide (extension/popup.html). */
const POPUP = [340] as const;

let sdk: Peer;
let extension: LoadedExtension;
let panel: Page;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  [sdk, extension] = await Promise.all([startPeer('sdk1-stateful-sse'), launchWithExtension()]);
  panel = await extension.openPanel();
  await panel.setViewportSize({ width: 400, height: 900 });
  await forceOneFont(panel, '#toolgate');
  await panel.getByRole('tab', { name: 'Servers' }).click();
  await fillServerUrl(panel, sdk.url);
  await panel.getByRole('button', { name: 'Add server' }).click();
  await expect(panel.locator(`[data-server="${serverIdOf(sdk.url)}"]`)).toContainText('connected', {
    timeout: 20_000,
  });
});
test.afterAll(async () => {
  await extension?.close();
  await sdk?.stop();
});

/** A result's server and total times ("· server 3 ms · total 5 ms") read "N ms", in place. */
async function pinDurations(page: Page): Promise<void> {
  await page.locator('.tg-result-summary').evaluateAll((summaries) => {
    for (const summary of summaries)
      for (const node of summary.childNodes)
        if (node instanceof Text) node.data = node.data.replace(/\d+(\.\d+)? (ms|s)\b/g, 'N ms');
  });
}

test('side panel: Servers with a server connected', async () => {
  await panel.getByRole('tab', { name: 'Servers' }).click();
  await shootEveryWay(panel, 'side-panel-servers', { widths: SIDE_PANEL });
});

test('side panel: Tools with a tool called and its result', async () => {
  await callFromPanel(panel, 'echo', {
    button: /^echo\b/,
    fill: { 'message (required)': 'From the side panel' },
  });
  await expect(panel.locator('.tg-try .tg-result')).toContainText('Echo: From the side panel');
  await panel.getByLabel('Search tools').fill('');
  await panel.getByLabel('Search tools').blur();
  await shootEveryWay(panel, 'side-panel-tools', { widths: SIDE_PANEL, freeze: pinDurations });
});

test('the popup: nothing waiting, the server connected, "Open side panel"', async () => {
  const popup = await extension.context.newPage();
  // As short as Chrome makes it for this content: the shot is the whole page, grown to fit.
  await popup.setViewportSize({ width: 340, height: 240 });
  await popup.goto(`chrome-extension://${extension.extensionId}/popup.html`);
  await forceOneFont(popup);
  await expect(popup.getByRole('heading', { name: 'Nothing waits for you' })).toBeVisible();
  await expect(
    popup.getByRole('list', { name: 'Servers' }).locator(`[data-server="${serverIdOf(sdk.url)}"] .tg-state`),
  ).toHaveText(/^Connected/);
  await shootEveryWay(popup, 'popup', { widths: POPUP, height: 240 });
  await popup.close();
});

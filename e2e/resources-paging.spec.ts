/**
 * The Resources tab shows a server's first page of resources while the later pages are still on
 * their way, then appends them: the SDK 1.x peer with `--paged-resources` holds every page after
 * the first until the test releases them (POST /__control/release-pages), so the rows the tab shows
 * before the release can only have come from the first page. Search and the keyboard work on the
 * rows shown so far; Stop keeps them and asks for no more.
 */
import { expect, test } from '@playwright/test';
import { type Peer, startPeer } from './support/peers.js';
import { openTab, openWidget } from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });

/** 300 resources in pages of 50 (PAGED_RESOURCES_PAGE), plus the peer's note template. */
const RESOURCES = 300;

const count = (page: import('@playwright/test').Page) =>
  page.getByRole('status').filter({ hasText: 'resources and templates' });

let peer: Peer;
test.beforeEach(async () => {
  peer = await startPeer('sdk1-stateful-json', {
    args: ['--offerings', '--paged-resources', String(RESOURCES)],
  });
});
test.afterEach(async () => {
  await peer?.stop();
});

test('the first page of resources shows before the later pages arrive, then the rest is appended', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openWidget(page, [{ url: peer.url, id: 'paged' }]);
  await openTab(page, 'Resources');
  const list = page.getByRole('region', { name: /^Resources of / });
  const rows = list.locator('.tg-offer-row', { hasText: 'paged://items/' });

  await test.step('the first page shows while the second is held back, with the progress', async () => {
    await expect(rows).toHaveCount(50, { timeout: 20_000 });
    await expect(list).toContainText('Loading more… 51 listed');
    await expect(count(page)).toContainText('51 resources and templates so far');
  });

  await test.step('search and the keyboard work on the rows shown so far', async () => {
    await page.getByLabel('Search resources').fill('paged://items/7');
    await expect(rows).toHaveCount(1);
    await page.getByLabel('Search resources').fill('nothing-is-called-this');
    await expect(list.locator('.tg-offer-row')).toHaveCount(0);
    await expect(count(page)).toContainText('0 resources and templates so far');
    await page.getByLabel('Search resources').fill('paged://items/12');
    await page.getByLabel('Search resources').press('Tab');
    await expect(rows.first()).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'paged-12', level: 3 })).toBeVisible();
    await page.getByLabel('Search resources').fill('');
  });

  await test.step('released, the later pages are appended and the progress goes', async () => {
    await peer.control('release-pages');
    await expect(rows).toHaveCount(RESOURCES);
    await expect(list).not.toContainText('Loading more');
    await expect(count(page)).toHaveText(`${RESOURCES + 1} resources and templates`);
  });
});

test('Stop keeps the rows listed so far and asks for no more', async ({ page }) => {
  test.setTimeout(90_000);
  await openWidget(page, [{ url: peer.url, id: 'paged' }]);
  await openTab(page, 'Resources');
  const list = page.getByRole('region', { name: /^Resources of / });
  const rows = list.locator('.tg-offer-row', { hasText: 'paged://items/' });
  await expect(rows).toHaveCount(50, { timeout: 20_000 });
  await list.getByRole('button', { name: /^Stop listing / }).click();
  // The page in flight (the second) still lands; the third is never asked for.
  await peer.control('release-pages');
  await expect(list).toContainText('Stopped. 101 listed.');
  await expect(rows).toHaveCount(100);
  const asked = (await peer.events()).messages.filter((message) => message.method === 'resources/list');
  expect(asked).toHaveLength(2);
});

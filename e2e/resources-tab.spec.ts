/**
 * The widget's Resources and Prompts tabs against @modelcontextprotocol/server-everything: browse
 * and search its resources and templates, fill a template with the server's completion, read text
 * and a blob (offered as a download, never opened), subscribe and see an update arrive, get a prompt
 * with completion on its arguments and see its messages; each read and get is in the audit log.
 * Axe on both tabs.
 */
import { expect, test } from '@playwright/test';
import { untilArmed } from './support/dialogs.js';
import { type Peer, startPeer } from './support/peers.js';
import { axe, horizontalOverflow, openTab, openWidget, shot } from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });

let everything: Peer;
test.beforeAll(async () => {
  everything = await startPeer('everything-streamable');
});
test.afterAll(async () => {
  await everything?.stop();
});

test('resources and prompts of server-everything: browse, complete, read, subscribe, get, audited', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openWidget(page, [{ url: everything.url, id: 'everything' }]);

  await test.step('the server instructions are on its card, collapsed', async () => {
    const instructions = page.locator('[data-server="everything"] details.tg-instructions');
    await expect(instructions.locator('summary')).toHaveText('Instructions from the server');
    await expect(instructions).not.toHaveAttribute('open', '');
  });

  await test.step('browse and search resources and templates', async () => {
    await openTab(page, 'Resources');
    const list = page.getByRole('region', { name: /^Resources of / });
    await expect(list.locator('.tg-offer-row').first()).toBeVisible({ timeout: 20_000 });
    await expect(
      list.getByRole('button', { name: /demo:\/\/resource\/dynamic\/text\/\{resourceId\}/ }),
    ).toBeVisible();
    await page.getByLabel('Search resources').fill('dynamic blob');
    await expect(list.locator('.tg-offer-row')).toHaveCount(1);
    await page.getByLabel('Search resources').fill('');
    await axe(page, 'resources tab');
  });

  await test.step('a static text resource: read, shown as text', async () => {
    await page.locator('.tg-offer-row', { hasText: 'demo://resource/static/document/' }).first().click();
    await page.getByRole('button', { name: 'Read', exact: true }).click();
    await expect(
      page.getByRole('region', { name: /^Contents of demo:\/\/resource\/static\/document\// }),
    ).toBeVisible();
  });

  await test.step('a template filled with completion, read as text', async () => {
    await page.getByRole('button', { name: /demo:\/\/resource\/dynamic\/text\/\{resourceId\}/ }).click();
    await expect(page.getByRole('button', { name: 'Read', exact: true })).toBeDisabled();
    await page.getByLabel('resourceId').fill('7');
    const suggestions = page.getByRole('list', { name: 'Suggestions for resourceId' });
    await expect(suggestions.getByRole('button', { name: '7' })).toBeVisible();
    await suggestions.getByRole('button', { name: '7' }).click();
    await expect(page.locator('.tg-tool-detail')).toContainText('Reads demo://resource/dynamic/text/7');
    await page.getByRole('button', { name: 'Read', exact: true }).click();
    const contents = page.getByRole('region', { name: 'Contents of demo://resource/dynamic/text/7' });
    await expect(contents.locator('pre.tg-text')).toContainText('7');
    await axe(page, 'resources tab, read');
    await shot(page, 'resources-tab-read');
  });

  await test.step('a blob: offered as a download', async () => {
    await page.getByRole('button', { name: /demo:\/\/resource\/dynamic\/blob\/\{resourceId\}/ }).click();
    await page.getByLabel('resourceId').fill('2');
    await page.getByRole('button', { name: 'Read', exact: true }).click();
    const contents = page.getByRole('region', { name: 'Contents of demo://resource/dynamic/blob/2' });
    // Sent as base64 with a text type: shown as the text it is, marked binary, and downloadable.
    await expect(contents).toContainText('text/plain · binary');
    await expect(contents.locator('pre.tg-text')).toContainText('Resource 2');
    const saved = page.waitForEvent('download');
    await contents.getByRole('button', { name: 'Download 2' }).click();
    expect((await saved).suggestedFilename()).toBe('2');
  });

  await test.step('at 400 px nothing overflows: long URIs wrap', async () => {
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: 400, height: 900 });
    await expect.poll(() => horizontalOverflow(page)).toEqual({ page: 0, panel: 0 });
    await page.setViewportSize(size);
  });

  await test.step('subscribe, and an update arrives', async () => {
    await page.getByRole('button', { name: /demo:\/\/resource\/dynamic\/text\/\{resourceId\}/ }).click();
    await page.getByLabel('resourceId').fill('1');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByText('Subscribed: no update yet')).toBeVisible();
    // Its simulated updates start with a tool and go to the URIs this session subscribed to.
    await openTab(page, 'Tools');
    await page.getByLabel('Search tools').fill('toggle-subscriber-updates');
    await page.locator('.tg-tool-button', { hasText: 'Toggle Subscriber Updates' }).first().click();
    await page
      .locator('.tg-try')
      .getByRole('button', { name: /^Call / })
      .click();
    await expect(page.locator('.tg-try')).toContainText(/Succeeded/, { timeout: 20_000 });
    await openTab(page, 'Resources');
    await page.getByRole('button', { name: /demo:\/\/resource\/dynamic\/text\/\{resourceId\}/ }).click();
    await page.getByLabel('resourceId').fill('1');
    await expect(page.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();
    await expect(page.getByText('Updated just now')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Read the update' }).click();
    await expect(
      page.getByRole('region', { name: 'Contents of demo://resource/dynamic/text/1' }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('button', { name: 'Subscribe' })).toBeVisible();
  });

  await test.step('a prompt with completion on its arguments, its messages shown', async () => {
    await openTab(page, 'Prompts');
    await expect(page.locator('.tg-offer-row').first()).toBeVisible({ timeout: 20_000 });
    await axe(page, 'prompts tab');
    await page.getByLabel('Search prompts').fill('completable');
    await page.locator('.tg-offer-row').first().click();
    await expect(page.locator('.tg-tool-detail .tg-required').first()).toHaveText(' (required)');
    await page.getByLabel(/^department/).fill('S');
    const suggestions = page.getByRole('list', { name: /^Suggestions for department/ });
    await expect(suggestions.getByRole('button')).toHaveText(['Sales', 'Support']);
    await suggestions.getByRole('button', { name: 'Sales' }).click();
    await expect(page.getByLabel(/^department/)).toHaveValue('Sales');
    await page.getByLabel(/^name/).fill('A');
    await page.getByRole('button', { name: 'Get', exact: true }).click();
    const messages = page.getByRole('region', { name: 'Prompt messages' });
    await expect(messages.locator('.tg-prompt-message h4').first()).toHaveText('User');
    await expect(messages).toContainText('Sales');
    await expect(page.getByRole('button', { name: 'Copy the messages' })).toBeVisible();
    await axe(page, 'prompts tab, got');
    await shot(page, 'prompts-tab-got');
  });

  await test.step('a prompt with an embedded resource', async () => {
    await page.getByLabel('Search prompts').fill('resource');
    await page
      .locator('.tg-offer-row', { hasText: /resource/i })
      .first()
      .click();
    await page.getByLabel(/^resourceType/).fill('Text');
    await page.getByLabel(/^resourceId/).fill('2');
    await page.getByRole('button', { name: 'Get', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Prompt messages' })).toContainText(
      'demo://resource/dynamic/text/2',
    );
  });

  await test.step('each read and get is in the audit log', async () => {
    await openTab(page, 'Audit log');
    const rows = page.locator('.tg-log-table tbody tr');
    await expect(rows.filter({ hasText: 'resources/read' })).toHaveCount(4);
    await expect(rows.filter({ hasText: 'prompts/get' })).toHaveCount(2);
    // What was read is in the entry's arguments: the log's search finds it.
    await page.getByRole('searchbox', { name: 'Search the log' }).fill('dynamic/text/7');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('resources/read');
  });
});

test('a read and a prompt get from the host app are asked in the panel, showing what and with what', async ({
  page,
}) => {
  await openWidget(page, [{ url: everything.url, id: 'everything' }]);
  type Access = (request: object) => Promise<unknown>;
  const ask = (method: 'read' | 'getPrompt', request: object) =>
    page.evaluate(
      ([m, r]) =>
        (
          window as unknown as { toolgate: { ready: Promise<{ gate: Record<string, Access> }> } }
        ).toolgate.ready
          .then(({ gate }) =>
            gate[m]!({ ...r, serverId: 'everything', caller: { kind: 'host', label: 'Agent' } }),
          )
          .then(
            () => 'allowed',
            (error: Error) => `refused: ${error.message}`,
          ),
      [method, request] as const,
    );

  const read = ask('read', { uri: 'demo://resource/dynamic/text/3' });
  const dialog = page.getByRole('dialog', { name: /^Read a resource on / });
  await expect(dialog).toContainText('demo://resource/dynamic/text/3');
  await expect(dialog).toContainText('The app (Agent) asks to read');
  await axe(page, 'access dialog');
  await untilArmed(dialog);
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  expect(await read).toBe('allowed');

  const got = ask('getPrompt', { name: 'args-prompt', arguments: { city: 'Paris' } });
  const question = page.getByRole('dialog', { name: /^Use a prompt on / });
  await expect(question.getByRole('list', { name: 'Arguments' })).toContainText('city = Paris');
  await untilArmed(question);
  await question.getByRole('button', { name: 'Deny' }).click();
  expect(await got).toMatch(/^refused: /);

  await openTab(page, 'Audit log');
  const rows = page.locator('.tg-log-table tbody tr');
  await expect(rows.filter({ hasText: 'resources/read' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'prompts/get' })).toHaveCount(1);
});

test("the server's icon on its card: only a raster data: or https: image, as an <img>; SVG, javascript: and http: never load", async ({
  page,
}) => {
  const peer = await startPeer('sdk1-stateful-sse', { args: ['--offerings'] });
  try {
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await openWidget(page, [{ url: peer.url, id: 'notes' }]);
    const icons = page.locator('[data-server="notes"] img');
    await expect(icons).toHaveCount(1);
    await expect(icons).toHaveAttribute('src', /^data:image\/png;base64,/);
    await expect(icons).toHaveAttribute('alt', '');
    await expect(icons).toHaveAttribute('referrerpolicy', 'no-referrer');
    await expect(icons).toHaveJSProperty('naturalWidth', 1);
    expect(
      await page.locator('[data-server="notes"] svg, [data-server="notes"] [src^="javascript:"]').count(),
    ).toBe(0);
    expect(requested.filter((url) => url.includes('icons.invalid'))).toEqual([]);
    await axe(page, 'server icon');
  } finally {
    await peer.stop();
  }
});

/**
 * Resources and Prompts in the extension, against @modelcontextprotocol/server-everything (issue
 * 27): the side panel's tabs browse what the worker's connection offers, fill a template with the
 * server's completion, read it and get a prompt, each through the worker's gate and in the shared
 * audit log. A site the person turned on and granted a tool of that server reads a resource and
 * gets a prompt through the page bridge: each is asked in the panel as its calls are, denied
 * returns nothing, and each is recorded as the site's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { type LoadedExtension, launchWithExtension } from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';
import { serverIdOf } from './support/side-panel.js';
import { fillServerUrl } from './support/widget-page.js';

test.describe.configure({ mode: 'serial' });

let everything: Peer;
let extension: LoadedExtension;
let site: http.Server;
const siteOrigin = () => `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

test.beforeAll(async () => {
  site = http.createServer((_request, response) =>
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><html lang="en"><title>Notes app</title><h1>Notes app</h1></html>'),
  );
  [everything, extension] = await Promise.all([
    startPeer('everything-streamable'),
    launchWithExtension(),
    new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve)),
  ]);
  const panel = await extension.openPanel();
  await fillServerUrl(panel, everything.url);
  await panel.getByRole('button', { name: 'Add server' }).click();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(1, { timeout: 20_000 });
  await panel.close();
});
test.afterAll(async () => {
  site?.close();
  await Promise.all([everything?.stop(), extension?.close()]);
});

/** Runs `code` in the page with its `toolgate` API; resolves with what it returned or threw. */
function inPage(
  page: Page,
  code: string,
): Promise<{ ok: boolean; value?: unknown; message?: string; kind?: string | undefined }> {
  return page.evaluate(
    (source) =>
      (new Function('toolgate', `return (async () => { ${source} })()`) as (t: unknown) => Promise<unknown>)(
        window.toolgate,
      ).then(
        (value) => ({ ok: true, value }),
        (error: Error & { kind?: string }) => ({ ok: false, message: error.message, kind: error.kind }),
      ),
    code,
  );
}

test('the side panel lists, completes, reads and gets through the worker, and the audit log has each', async () => {
  test.setTimeout(120_000);
  const panel = await extension.openPanel();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(1, { timeout: 20_000 });

  await panel.getByRole('tab', { name: 'Resources', exact: true }).click();
  const list = panel.getByRole('region', { name: /^Resources of / });
  await expect(list.locator('.tg-offer-row').first()).toBeVisible({ timeout: 20_000 });
  await panel.getByRole('button', { name: /demo:\/\/resource\/dynamic\/text\/\{resourceId\}/ }).click();
  await panel.getByLabel('resourceId').fill('7');
  // The worker asks the server for completions; the panel shows them.
  const suggestions = panel.getByRole('list', { name: 'Suggestions for resourceId' });
  await expect(suggestions.getByRole('button', { name: '7' })).toBeVisible();
  await suggestions.getByRole('button', { name: '7' }).click();
  await panel.getByRole('button', { name: 'Read', exact: true }).click();
  const contents = panel.getByRole('region', { name: 'Contents of demo://resource/dynamic/text/7' });
  await expect(contents.locator('pre.tg-text')).toContainText('7');
  // The person's own read is allowed without a dialog, as in the widget.
  await expect(panel.getByRole('dialog')).toHaveCount(0);

  await panel.getByRole('tab', { name: 'Prompts', exact: true }).click();
  await expect(panel.locator('.tg-offer-row').first()).toBeVisible({ timeout: 20_000 });
  await panel.getByLabel('Search prompts').fill('args-prompt');
  await panel.locator('.tg-offer-row').first().click();
  await panel.getByLabel(/^city/).fill('Lisbon');
  await panel.getByRole('button', { name: 'Get', exact: true }).click();
  await expect(panel.getByRole('region', { name: 'Prompt messages' })).toContainText(
    "What's weather in Lisbon?",
  );

  await panel.getByRole('tab', { name: 'Audit log' }).click();
  const rows = panel.locator('.tg-log-table tbody tr');
  await expect(rows.filter({ hasText: 'resources/read' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'prompts/get' })).toHaveCount(1);
  await panel.close();
});

test('a granted site reads a resource and gets a prompt through the bridge, asked in the panel each time', async () => {
  test.setTimeout(120_000);
  const panel = await extension.openPanel();
  await extension.turnOnSite(panel, siteOrigin());
  const page = await extension.context.newPage();
  await page.goto(`${siteOrigin()}/`);
  await expect.poll(() => page.evaluate(() => typeof window.toolgate)).toBe('object');
  const serverId = serverIdOf(everything.url);

  // Before any grant: nothing, not even a dialog.
  expect(
    await inPage(
      page,
      `return toolgate.readResource(${JSON.stringify(serverId)}, 'demo://resource/dynamic/text/1')`,
    ),
  ).toMatchObject({ ok: false, kind: 'not-allowed' });

  const asked = inPage(page, 'return toolgate.requestAccess()');
  const consent = panel.getByRole('dialog');
  await consent.getByRole('checkbox', { name: /^echo\b/ }).check();
  await consent.getByRole('button', { name: 'Allow 1 tool' }).click();
  expect((await asked).ok).toBe(true);

  // A read: the dialog names the site and the URI; allowed once, the page gets the contents.
  const read = inPage(
    page,
    `return toolgate.readResource(${JSON.stringify(serverId)}, 'demo://resource/dynamic/text/3')`,
  );
  const dialog = panel.getByRole('dialog');
  await expect(dialog).toContainText('Read a resource on');
  await expect(dialog).toContainText(`the web site ${siteOrigin()}`);
  await expect(dialog).toContainText('demo://resource/dynamic/text/3');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  const contents = await read;
  expect(contents).toMatchObject({
    ok: true,
    value: { contents: [{ uri: 'demo://resource/dynamic/text/3' }] },
  });

  // A prompt get: asked too; denied, the page hears so and gets nothing.
  const got = inPage(
    page,
    `return toolgate.getPrompt(${JSON.stringify(serverId)}, 'args-prompt', { city: 'Porto' })`,
  );
  await expect(dialog).toContainText('Use a prompt on');
  await expect(dialog).toContainText('Porto');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await got).toMatchObject({ ok: false, kind: 'denied' });
  // Allowed, it comes back.
  const again = inPage(
    page,
    `return toolgate.getPrompt(${JSON.stringify(serverId)}, 'args-prompt', { city: 'Faro' })`,
  );
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  expect(await again).toMatchObject({
    ok: true,
    value: { messages: [{ role: 'user', content: { text: "What's weather in Faro?" } }] },
  });

  // Each is the site's in the audit log: the read, the denied get and the allowed one.
  await panel.getByRole('tab', { name: 'Audit log' }).click();
  const rows = panel.locator('.tg-log-table tbody tr', { hasText: siteOrigin() });
  await expect(rows.filter({ hasText: 'resources/read' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'prompts/get' })).toHaveCount(2);
  await Promise.all([page.close(), panel.close()]);
});

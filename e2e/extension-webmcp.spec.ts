/**
 * WebMCP in the extension (issue 31), in Chromium with `--enable-features=WebMCP`: on a site the
 * person turned on, the tools the tab registers with `document.modelContext` appear in the side
 * panel as the server "This page" (the site's origin), are called through the worker's gate (the
 * page's tool runs, the call is in the audit log), and leave the panel the moment the site is
 * turned off. A site that is not turned on shows nothing: no script of ours is in its pages.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { type LoadedExtension, launchWithExtension } from './support/extension.js';

test.describe.configure({ mode: 'serial' });

let extension: LoadedExtension;
let site: http.Server;
/** 127.0.0.1 is a secure context, where Chromium offers `document.modelContext`. */
const siteOrigin = () => `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

// The page registers two tools of its own, as a WebMCP page does for the browser's agent.
const PAGE = `<!doctype html><html lang="en"><title>Shop</title><h1>Shop</h1>
<script>
  document.modelContext.registerTool({
    name: 'add_numbers',
    description: 'Adds two numbers.',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    execute: async (input) => {
      document.body.dataset.added = String(input.a + input.b);
      return { content: [{ type: 'text', text: 'Sum: ' + (input.a + input.b) }] };
    },
  });
  document.modelContext.registerTool({
    name: 'page_title',
    description: "Reads the page's title.",
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
    execute: async () => ({ content: [{ type: 'text', text: document.title }] }),
  });
</script></html>`;

test.beforeAll(async () => {
  site = http.createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE),
  );
  [extension] = await Promise.all([
    launchWithExtension({ args: ['--enable-features=WebMCP'] }),
    new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve)),
  ]);
});
test.afterAll(async () => {
  site?.close();
  await extension?.close();
});

test('a turned-on site\'s WebMCP tools are "This page" in the side panel, called through the gate, gone when the site is off', async () => {
  test.setTimeout(120_000);
  const page = await extension.context.newPage();
  await page.goto(`${siteOrigin()}/`);
  expect((await page.webmcp.tools()).map((tool) => tool.name).sort()).toEqual(['add_numbers', 'page_title']);
  const panel = await extension.openPanel();
  const row = panel.locator(`[data-server="webmcp:${siteOrigin()}"]`);
  // Not turned on: the page's tools are its own business.
  await expect(panel.getByRole('tab', { name: 'Servers' })).toBeVisible();
  await expect(row).toHaveCount(0);

  await extension.turnOnSite(panel, siteOrigin());
  await panel.getByRole('tab', { name: 'Servers' }).click();
  await expect(row).toContainText('This page');
  await expect(row).toContainText(siteOrigin());
  await expect(row).toContainText('connected · 2 tools', { timeout: 20_000 });

  // The person's call from the tool's form, run by the worker's gate and then by the page.
  await panel.getByRole('tab', { name: 'Tools' }).click();
  await panel.getByLabel('Search tools').fill('add_numbers');
  await panel
    .locator('.tg-tool-button', { hasText: /^add_numbers\b/ })
    .first()
    .click();
  const form = panel.locator('.tg-try');
  await form.getByLabel(/^a\b/).fill('2');
  await form.getByLabel(/^b\b/).fill('40');
  await form.getByRole('button', { name: /^Call / }).click();
  await expect(form.locator('.tg-result')).toContainText('Sum: 42');
  await expect(page.locator('body')).toHaveAttribute('data-added', '42');

  await panel.getByRole('tab', { name: 'Audit log' }).click();
  await expect(panel.locator('.tg-log-table tbody tr', { hasText: 'add_numbers' })).toHaveCount(1);

  // Turned off: "This page" leaves the panel at once.
  await panel.getByRole('tab', { name: 'Sites' }).click();
  await panel.getByRole('button', { name: `Turn off ${siteOrigin()}` }).click();
  await panel.getByRole('tab', { name: 'Servers' }).click();
  await expect(row).toHaveCount(0);
  await Promise.all([page.close(), panel.close()]);
});

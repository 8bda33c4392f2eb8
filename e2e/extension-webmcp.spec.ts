/**
 * WebMCP in the extension (issue 31), in Chromium with `--enable-features=WebMCP`: on a site the
 * person turned on, the tools the tab registers with `document.modelContext` appear in the side
 * panel as the server "This page" (the site's origin), are called through the worker's gate (the
 * page's tool runs, the call is in the audit log), and leave the panel the moment the site is
 * turned off. A site that is not turned on shows nothing: no script of ours is in its pages.
 *
 * The other way, off by default: the person lets the site's browser agent use the tools granted to
 * the site; Playwright's `page.webmcp` as the agent calls one, asked in the panel as the agent's,
 * and recorded; turned back off, the tool is gone from the agent's list.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { type LoadedExtension, launchWithExtension, siteRow } from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';
import { serverIdOf } from './support/side-panel.js';
import { fillServerUrl } from './support/widget-page.js';

test.describe.configure({ mode: 'serial' });

let extension: LoadedExtension;
let sdk: Peer;
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
  [extension, sdk] = await Promise.all([
    launchWithExtension({ args: ['--enable-features=WebMCP'] }),
    startPeer('sdk1-stateful-sse'),
    new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve)),
  ]);
});
test.afterAll(async () => {
  site?.close();
  await Promise.all([extension?.close(), sdk?.stop()]);
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

test("the person lets a site's browser agent use a granted tool: each call asked as the agent's, withdrawn at once", async () => {
  test.setTimeout(120_000);
  let panel = await extension.openPanel();
  await fillServerUrl(panel, sdk.url);
  await panel.getByRole('button', { name: 'Add server' }).click();
  await expect(panel.locator(`[data-server="${serverIdOf(sdk.url)}"]`)).toContainText('connected', {
    timeout: 20_000,
  });
  await extension.turnOnSite(panel, siteOrigin());
  const page = await extension.context.newPage();
  await page.goto(`${siteOrigin()}/`);
  await expect.poll(() => page.evaluate(() => typeof window.toolgate)).toBe('object');
  const asked = page.evaluate(() => window.toolgate!.requestAccess().then((tools) => tools.length));
  const consent = panel.getByRole('dialog');
  await consent
    .locator('fieldset', { hasText: 'toolgate-peer-sdk1' })
    .getByRole('checkbox', { name: 'echo', exact: true })
    .check();
  await consent.getByRole('button', { name: 'Allow 1 tool' }).click();
  expect(await asked).toBe(1);

  // Granted to the site, but not to its agent until the person says so.
  const agentTools = async () => (await page.webmcp.tools()).map((tool) => tool.name).sort();
  expect(await agentTools()).toEqual(['add_numbers', 'page_title']);
  await panel.getByRole('tab', { name: 'Sites' }).click();
  const agentBox = siteRow(panel, siteOrigin()).getByRole('checkbox', {
    name: /browser’s agent on this site/,
  });
  await expect(agentBox).not.toBeChecked();
  await agentBox.check();
  await expect.poll(agentTools).toEqual(['add_numbers', 'echo', 'page_title']);
  // Toolgate's registration is not the page's own: "This page" still has two tools.
  await panel.getByRole('tab', { name: 'Servers' }).click();
  await expect(panel.locator(`[data-server="webmcp:${siteOrigin()}"]`)).toContainText('connected · 2 tools');

  // The agent calls it: asked in the panel as the browser's agent on the site; allowed, it runs.
  const called = page.webmcp.callTool('echo', { message: 'from the tab agent' });
  let dialog = panel.getByRole('dialog');
  await expect(dialog).toContainText(`the browser's agent on ${siteOrigin()}`);
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  expect(await called).toMatchObject({ content: [{ type: 'text', text: 'Echo: from the tab agent' }] });
  // Denied: the server never sees it, the agent hears why.
  const denied = page.webmcp.callTool('echo', { message: 'not this' });
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(((await denied) as { isError?: boolean }).isError).toBe(true);
  expect((await sdk.events()).calls).not.toContainEqual({ tool: 'echo', arguments: { message: 'not this' } });

  // Chrome stops the worker (as it does when idle; the panel is closed, so nothing wakes it): the
  // agent keeps the tool, and its next call wakes the worker, which asks again.
  await panel.close();
  const watch = await extension.watchWorker();
  await watch.stop();
  expect(await agentTools()).toEqual(['add_numbers', 'echo', 'page_title']);
  const afterSleep = page.webmcp.callTool('echo', { message: 'after the worker slept' });
  panel = await extension.openPanel();
  dialog = panel.getByRole('dialog');
  await expect(dialog).toContainText(`the browser's agent on ${siteOrigin()}`, { timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  expect(await afterSleep).toMatchObject({
    content: [{ type: 'text', text: 'Echo: after the worker slept' }],
  });
  // The relay came back with the worker: "This page" is listed again.
  await expect(panel.locator(`[data-server="webmcp:${siteOrigin()}"]`)).toContainText('connected · 2 tools', {
    timeout: 20_000,
  });
  await watch.close();

  await panel.getByRole('tab', { name: 'Audit log' }).click();
  const rows = panel.locator('.tg-log-table tbody tr', { hasText: 'echo' });
  await expect(rows).toHaveCount(3);

  // Turned back off: the agent's list loses it at once.
  await panel.getByRole('tab', { name: 'Sites' }).click();
  await siteRow(panel, siteOrigin())
    .getByRole('checkbox', { name: /browser’s agent on this site/ })
    .uncheck();
  await expect.poll(agentTools).toEqual(['add_numbers', 'page_title']);
  await Promise.all([page.close(), panel.close()]);
});

/**
 * The MV3 extension, built by `npm run build:extension` and loaded unpacked into headless Chromium:
 * the side panel page (opened in a tab) drives the service worker's controller against real
 * servers; web pages on 127.0.0.1 use the page bridge; the worker is stopped through the DevTools
 * protocol mid-call.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type LoadedExtension, launchWithExtension } from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';

test.describe.configure({ mode: 'serial' });

let sdk: Peer;
let everything: Peer;
let extension: LoadedExtension;
/** Two plain web pages on 127.0.0.1, at two ports: two origins. */
let sites: http.Server[] = [];
const siteUrl = (index: number) => `http://127.0.0.1:${(sites[index]!.address() as AddressInfo).port}/`;

function serveSite(title: string): Promise<http.Server> {
  const server = http.createServer((_request, response) =>
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<!doctype html><html lang="en"><title>${title}</title><h1>${title}</h1></html>`),
  );
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test.beforeAll(async () => {
  [sdk, everything, extension, ...sites] = await Promise.all([
    startPeer('sdk1-stateful-sse'),
    startPeer('everything-streamable'),
    launchWithExtension(),
    serveSite('Site A'),
    serveSite('Site B'),
  ]);
  // Every test starts with both servers in the extension (added through the side panel's form).
  const panel = await extension.openPanel();
  await addServer(panel, sdk.url);
  await addServer(panel, everything.url);
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(2, { timeout: 20_000 });
  await panel.close();
});
test.afterAll(async () => {
  for (const site of sites) site.close();
  await Promise.all([sdk?.stop(), everything?.stop(), extension?.close()]);
});

/** Runs window.toolgate code in a page; resolves with { ok, value } or { ok: false, message, kind }. */
function inPage(
  page: Page,
  code: string,
): Promise<{ ok: boolean; value?: unknown; message?: string; kind?: string }> {
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

async function addServer(panel: Page, url: string): Promise<void> {
  await panel.getByRole('tab', { name: 'Servers' }).click();
  await panel.getByLabel('Server URL').fill(url);
  await panel.getByRole('button', { name: 'Add server' }).click();
  // The form clears itself once the server is added.
  await expect(panel.getByLabel('Server URL')).toHaveValue('', { timeout: 20_000 });
}

test('the side panel connects to an SDK server and server-everything, lists tools and calls one with approval', async () => {
  // A new panel page shows the worker's servers: they were added in another page (beforeAll).
  const panel = await extension.openPanel();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(2, { timeout: 20_000 });
  await panel.screenshot({ path: 'test-results/screenshots/extension-servers.png' });

  await callFromToolsTab(panel, 'add', 'toolgate-peer-sdk1');
  await panel.locator('.tg-try').getByLabel('a (required)').fill('2');
  await panel.locator('.tg-try').getByLabel('b (required)').fill('40');
  await panel
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();
  const dialog = panel.getByRole('dialog');
  await expect(dialog).toContainText('Allow');
  await panel.screenshot({ path: 'test-results/screenshots/extension-approval.png' });
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(panel.locator('.tg-try')).toContainText('Done');
  await panel.getByRole('tab', { name: /Activity/ }).click();
  await expect(panel.locator('.tg-finished-call').first()).toContainText('42');
  expect((await sdk.events()).calls).toContainEqual({ tool: 'add', arguments: { a: 2, b: 40 } });

  await callFromToolsTab(panel, 'echo', 'Everything');
  await panel.locator('.tg-try').getByLabel('message (required)').fill('from the side panel');
  await panel
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();
  await panel.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  await panel.getByRole('tab', { name: /Activity/ }).click();
  await expect(panel.locator('.tg-finished-call').first()).toContainText('from the side panel');

  // The popup shows the same worker state, and offers the side panel.
  const popup = await extension.context.newPage();
  await popup.goto(`chrome-extension://${extension.extensionId}/popup.html`);
  await expect(popup.getByRole('button', { name: 'Open in the side panel' })).toBeVisible();
  await expect(popup.locator('.tg-server', { hasText: 'connected' })).toHaveCount(2);
  await popup.close();

  // The audit log is the service worker's, read by the panel from the same extension database.
  await panel.getByRole('tab', { name: 'Audit log' }).click();
  await expect(panel.locator('.tg-log-table tbody tr')).toHaveCount(2);
  await expect(panel.locator('.tg-log-table')).toContainText('success');
  await panel.close();
});

async function callFromToolsTab(panel: Page, tool: string, server: string): Promise<void> {
  await panel.getByRole('tab', { name: 'Tools' }).click();
  await panel.getByLabel('Search tools').fill(tool);
  await panel
    .locator('.tg-tool-button', { hasText: new RegExp(`^${tool}\\b`, 'i') })
    .filter({ hasText: server })
    .first()
    .click();
}

test('a page asks for access, is refused, then allowed; its call is approved in the panel; another origin gets nothing', async () => {
  const panel = await extension.openPanel();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(2, { timeout: 20_000 });
  const siteA = await extension.context.newPage();
  const siteB = await extension.context.newPage();
  await siteA.goto(siteUrl(0));
  await siteB.goto(siteUrl(1));
  // The side panel is visible beside the page; a background tab would have its frames throttled.
  await panel.bringToFront();
  const originA = new URL(siteUrl(0)).origin;
  // Site B records every message the bridge posts to it: it must never hear about site A.
  await siteB.evaluate(() => {
    (window as unknown as { heard: unknown[] }).heard = [];
    addEventListener('message', (event) => {
      if ((event.data as { tag?: string })?.tag === 'toolgate:bridge')
        (window as unknown as { heard: unknown[] }).heard.push(event.data);
    });
  });

  // Refused.
  const refused = inPage(siteA, 'return toolgate.requestAccess()');
  const consent = panel.getByRole('dialog');
  await expect(consent).toContainText(`Let ${originA} use your tools?`);
  await expect(consent).toContainText('Site A');
  await panel.screenshot({ path: 'test-results/screenshots/extension-consent.png' });
  const axe = await new AxeBuilder({ page: panel }).analyze();
  expect(axe.violations.map((v) => `consent: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  await consent.getByRole('button', { name: 'Refuse' }).click();
  expect(await refused).toMatchObject({
    ok: false,
    kind: 'not-allowed',
    message: expect.stringContaining('did not allow'),
  });
  expect(await inPage(siteA, 'return toolgate.listTools()')).toMatchObject({
    ok: false,
    kind: 'not-allowed',
  });

  // Allowed: one tool of the SDK server.
  const allowed = inPage(siteA, 'return toolgate.requestAccess()');
  await consent
    .locator('fieldset', { hasText: 'toolgate-peer-sdk1' })
    .getByRole('checkbox', { name: 'add', exact: true })
    .check();
  await consent.getByRole('button', { name: 'Allow 1 tool' }).click();
  const granted = await allowed;
  expect(granted.ok).toBe(true);
  const tools = granted.value as { serverId: string; name: string }[];
  expect(tools.map((tool) => tool.name)).toEqual(['add']);
  const serverId = tools[0]!.serverId;

  // The call waits for the person in the panel, then the page gets the result.
  const call = inPage(
    siteA,
    `return toolgate.callTool(${JSON.stringify(serverId)}, 'add', { a: 20, b: 22 })`,
  );
  const approval = panel.getByRole('dialog');
  await expect(approval).toContainText(`Asked by the web site (${originA})`);
  await approval.getByRole('button', { name: 'Allow once' }).click();
  const result = await call;
  expect(result).toMatchObject({ ok: true, value: { content: [{ type: 'text', text: '42' }] } });

  // Only granted tools: echo on the same server was not ticked.
  expect(
    await inPage(siteA, `return toolgate.callTool(${JSON.stringify(serverId)}, 'echo', { message: 'hi' })`),
  ).toMatchObject({
    ok: false,
    kind: 'not-allowed',
  });
  // Site B heard nothing of site A, and has no access of its own.
  expect(await siteB.evaluate(() => (window as unknown as { heard: unknown[] }).heard)).toEqual([]);
  expect(await inPage(siteB, 'return toolgate.listTools()')).toMatchObject({
    ok: false,
    kind: 'not-allowed',
  });
  expect(
    await inPage(siteB, `return toolgate.callTool(${JSON.stringify(serverId)}, 'add', { a: 1, b: 1 })`),
  ).toMatchObject({
    ok: false,
    kind: 'not-allowed',
  });
  await expect(panel.getByRole('dialog')).toHaveCount(0);
  expect(
    (await sdk.events()).calls.filter((c) => c.tool === 'add').map((c) => c.arguments),
  ).not.toContainEqual({
    a: 1,
    b: 1,
  });

  // Revoking in the panel takes effect at once.
  await siteA.evaluate(() => {
    (window as unknown as { access: unknown[] }).access = [];
    window.toolgate!.onAccessChange((access) =>
      (window as unknown as { access: unknown[] }).access.push(access),
    );
  });
  await panel.getByRole('tab', { name: 'Sites' }).click();
  await expect(panel.locator('.tg-server', { hasText: originA })).toContainText('add');
  await panel.getByRole('button', { name: `Revoke access for ${originA}` }).click();
  await expect(panel.getByText('No site has access.')).toBeVisible();
  await expect
    .poll(() => siteA.evaluate(() => (window as unknown as { access: unknown[] }).access))
    .toEqual([{ granted: false, tools: [] }]);
  expect(
    await inPage(siteA, `return toolgate.callTool(${JSON.stringify(serverId)}, 'add', { a: 1, b: 2 })`),
  ).toMatchObject({
    ok: false,
    kind: 'not-allowed',
  });
  await Promise.all([siteA.close(), siteB.close(), panel.close()]);
});

test('stopping the service worker mid-call marks the call interrupted in the audit log; the panel reconnects', async () => {
  const panel = await extension.openPanel();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(2, { timeout: 20_000 });
  await callFromToolsTab(panel, 'sleep', 'toolgate-peer-sdk1');
  await panel.locator('.tg-try').getByLabel('ms (required)').fill('60000');
  await panel
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();
  await panel.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  await expect(panel.getByRole('tab', { name: 'Activity (1)' })).toBeVisible();
  await expect.poll(async () => (await sdk.events()).calls.some((call) => call.tool === 'sleep')).toBe(true);

  // Chrome stops extension workers on its own; the DevTools protocol does it on demand.
  const devtools = await extension.context.newCDPSession(panel);
  await devtools.send('ServiceWorker.enable');
  await devtools.send('ServiceWorker.stopAllWorkers');

  // The panel's waiting call fails with a sentence, the panel reconnects (starting the worker
  // again), and the new worker's audit log marks the stopped worker's call interrupted.
  await expect(panel.locator('.tg-try [role=status]')).toContainText('background worker stopped');
  await panel.getByRole('tab', { name: 'Servers' }).click();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(2, { timeout: 20_000 });
  await panel.getByRole('tab', { name: 'Audit log' }).click();
  const row = panel.locator('.tg-log-table tbody tr', { hasText: 'sleep' });
  await expect(row).toContainText('interrupted', { timeout: 20_000 });
  // The new worker runs nothing: the stopped call no longer counts as running.
  await expect(panel.getByRole('tab', { name: 'Activity', exact: true })).toBeVisible();
  await panel.close();
});

test('arguments are validated in the service worker, where the extension CSP forbids eval', async () => {
  const panel = await extension.openPanel();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(2, { timeout: 20_000 });
  const site = await extension.context.newPage();
  await site.goto(siteUrl(0));
  await panel.bringToFront();
  const asked = inPage(site, 'return toolgate.requestAccess()');
  await panel
    .getByRole('dialog')
    .locator('fieldset', { hasText: 'toolgate-peer-sdk1' })
    .getByRole('checkbox', { name: 'add', exact: true })
    .check();
  await panel.getByRole('dialog').getByRole('button', { name: 'Allow 1 tool' }).click();
  const tools = (await asked).value as { serverId: string }[];
  const serverId = JSON.stringify(tools[0]!.serverId);

  // Refused before anyone is asked, with the field named.
  const invalid = await inPage(site, `return toolgate.callTool(${serverId}, 'add', { a: 'two', b: 2 })`);
  expect(invalid).toMatchObject({ ok: false, kind: 'invalid-arguments' });
  expect(invalid.message).toContain('a: must be a number');
  await expect(panel.getByRole('dialog')).toHaveCount(0);

  // Valid arguments reach the approval dialog; an edit there is validated by the worker too.
  const valid = inPage(site, `return toolgate.callTool(${serverId}, 'add', { a: 3, b: 4 })`);
  const dialog = panel.getByRole('dialog');
  await dialog.getByRole('button', { name: 'JSON' }).click();
  await dialog.getByLabel('Arguments as JSON').fill('{"a": 3, "b": "four"}');
  await expect(dialog.getByRole('status')).toContainText('b');
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeDisabled();
  await dialog.getByLabel('Arguments as JSON').fill('{"a": 3, "b": 5}');
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  expect(await valid).toMatchObject({ ok: true, value: { content: [{ type: 'text', text: '8' }] } });
  // The schema is now in repeated use, where the validator would move it to Ajv if it could.
  // The worker's own probe found eval forbidden (DevTools' evaluate is exempt from the CSP, so the
  // test reads the verdict the worker reached rather than probing from here).
  const diagnostics = await (await extension.serviceWorker()).evaluate(() =>
    (
      globalThis as unknown as { toolgateDiagnostics: () => Promise<{ evalAllowed?: boolean }> }
    ).toolgateDiagnostics(),
  );
  expect(diagnostics.evalAllowed).toBe(false);

  await panel.getByRole('tab', { name: 'Audit log' }).click();
  await expect(panel.locator('.tg-log-table tbody tr', { hasText: 'invalid-arguments' })).toHaveCount(1);
  await panel.getByRole('tab', { name: 'Sites' }).click();
  await panel.getByRole('button', { name: /^Revoke access/ }).click();
  await Promise.all([site.close(), panel.close()]);
});

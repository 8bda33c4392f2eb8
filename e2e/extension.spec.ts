/**
 * The MV3 extension, built by `npm run build:extension` and loaded unpacked into headless Chromium:
 * the side panel page (opened in a tab) drives the service worker's controller against real
 * servers; web pages on 127.0.0.1 use the page bridge once the person turns their site on; the
 * worker is stopped through the DevTools protocol mid-call.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import {
  EXTENSION_DIR,
  type LoadedExtension,
  launchWithExtension,
  REMOTE_HTTP_HOST,
  siteRow,
} from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';
import { fillServerUrl } from './support/widget-page.js';

test.describe.configure({ mode: 'serial' });

let sdk: Peer;
let everything: Peer;
let extension: LoadedExtension;
/**
 * Plain web pages on 127.0.0.1, at four ports: four origins (A allowed, B refused, C never on, D
 * turned off and on again).
 */
let sites: http.Server[] = [];
const A = 0;
const B = 1;
const C = 2;
const D = 3;
const portOf = (index: number) => (sites[index]!.address() as AddressInfo).port;
const siteUrl = (index: number) => `http://127.0.0.1:${portOf(index)}/`;
const originOf = (index: number) => new URL(siteUrl(index)).origin;
/** Site C's server under a name that is not loopback: plain http "over the network" to Chrome. */
const insecureUrl = () => `http://${REMOTE_HTTP_HOST}:${portOf(C)}/`;

function serveSite(title: string): Promise<http.Server> {
  // The inline script runs before any of the page's own: it records whether the page API was
  // already there (registered scripts run at document_start) and hears a late one arrive.
  const page = `<!doctype html><html lang="en"><title>${title}</title><h1>${title}</h1>
<script>
  window.atParse = typeof window.toolgate;
  window.readyEvents = 0;
  addEventListener('toolgate:ready', () => window.readyEvents++);
  window.bridgeHeard = [];
  addEventListener('message', (event) => {
    if (event.data && event.data.tag === 'toolgate:bridge') window.bridgeHeard.push(event.data);
  });
</script></html>`;
  const server = http.createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(page),
  );
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Posts a raw request to the bridge, as any script on the page could (no page API needed). */
function postRaw(page: Page, request: Record<string, unknown>): Promise<void> {
  return page.evaluate(
    (message) => window.postMessage({ tag: 'toolgate:page', request: message }, location.origin),
    request,
  );
}

/** What the bridge posted to the page for one request id (replies only, not access events). */
function repliesTo(page: Page, id: string): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    (wanted) =>
      (window as unknown as { bridgeHeard: { message?: { id?: string } }[] }).bridgeHeard
        .map((item) => item.message as Record<string, unknown> | undefined)
        .filter((message): message is Record<string, unknown> => message?.id === wanted),
    id,
  );
}

test.beforeAll(async () => {
  [sdk, everything, extension, ...sites] = await Promise.all([
    startPeer('sdk1-stateful-sse'),
    startPeer('everything-streamable'),
    launchWithExtension(),
    serveSite('Site A'),
    serveSite('Site B'),
    serveSite('Site C'),
    serveSite('Site D'),
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

async function addServer(panel: Page, url: string): Promise<void> {
  await panel.getByRole('tab', { name: 'Servers' }).click();
  await fillServerUrl(panel, url);
  await panel.getByRole('button', { name: 'Add server' }).click();
  // The form clears itself once the server is added.
  await expect(panel.getByLabel('Server URL')).toHaveValue('', { timeout: 20_000 });
}

test('the side panel connects to an SDK server and server-everything, lists tools and calls one with one click', async () => {
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
  // The person's click on Call approved it (one consent per intent): no dialog in the side panel.
  await expect(panel.locator('.tg-try')).toContainText('Succeeded');
  await expect(panel.getByRole('dialog')).toHaveCount(0);
  await panel.getByRole('tab', { name: /Activity/ }).click();
  await expect(panel.locator('.tg-finished-call').first()).toContainText('42');
  expect((await sdk.events()).calls).toContainEqual({ tool: 'add', arguments: { a: 2, b: 40 } });

  await callFromToolsTab(panel, 'echo', 'Everything');
  await panel.locator('.tg-try').getByLabel('message (required)').fill('from the side panel');
  await panel
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();
  await panel.getByRole('tab', { name: /Activity/ }).click();
  await expect(panel.locator('.tg-finished-call').first()).toContainText('from the side panel');

  // The popup shows the same worker state, and offers the side panel.
  const popup = await extension.context.newPage();
  await popup.goto(`chrome-extension://${extension.extensionId}/popup.html`);
  await expect(popup.getByRole('button', { name: 'Open side panel' })).toBeVisible();
  await expect(
    popup
      .getByRole('list', { name: 'Servers' })
      .getByRole('listitem')
      .filter({ hasText: /Connected · \d+ tools/ }),
  ).toHaveCount(2);
  await popup.close();

  // The audit log is the service worker's, read by the panel from the same extension database.
  await panel.getByRole('tab', { name: 'Audit log' }).click();
  await expect(panel.locator('.tg-log-table tbody tr')).toHaveCount(2);
  await expect(panel.locator('.tg-log-table')).toContainText('Succeeded');
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

test('the page API exists only on sites the person turned on: elsewhere no global, no answer, no worker woken', async () => {
  // The built manifest asks for no site at install: no content scripts, no host permissions, no
  // page may connect or load a resource; sites are optional permissions, granted one at a time.
  const manifest = JSON.parse(await readFile(join(EXTENSION_DIR, 'manifest.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  expect(manifest.content_scripts).toBeUndefined();
  expect(manifest.host_permissions).toBeUndefined();
  expect(manifest.externally_connectable).toBeUndefined();
  expect(manifest.web_accessible_resources).toBeUndefined();
  expect(manifest.optional_host_permissions).toEqual(['https://*/*', 'http://*/*']);
  // identity: chrome.identity.launchWebAuthFlow, for signing in to servers (no host access comes with it).
  expect(manifest.permissions).toEqual(['sidePanel', 'storage', 'scripting', 'activeTab', 'identity']);

  // The worker is asleep, and no extension page is open to wake it.
  const watch = await extension.watchWorker();
  await watch.stop();
  const siteA = await extension.context.newPage();
  await siteA.goto(siteUrl(A));
  expect(
    await siteA.evaluate(() => [(window as unknown as { atParse: string }).atParse, 'toolgate' in window]),
  ).toEqual(['undefined', false]);
  // A page asks the way the page API would; with no bridge on the page, nothing can answer.
  await postRaw(siteA, { id: 'probe-off', method: 'listTools' });
  // Absence needs a moment for a bridge, were there one, to answer and to wake the worker.
  await siteA.waitForTimeout(1_000);
  expect(await siteA.evaluate(() => (window as unknown as { bridgeHeard: unknown[] }).bridgeHeard)).toEqual(
    [],
  );
  expect(watch.status()).toBe('stopped');

  // The person turns site A on in the Sites tab; its open tab gets the page API without a reload.
  const panel = await extension.openPanel();
  await extension.turnOnSite(panel, originOf(A));
  await expect.poll(() => siteA.evaluate(() => typeof window.toolgate)).toBe('object');
  expect(await siteA.evaluate(() => (window as unknown as { readyEvents: number }).readyEvents)).toBe(1);
  // The same raw request is answered now (the earlier one never was).
  await postRaw(siteA, { id: 'probe-on', method: 'listTools' });
  await expect
    .poll(() => repliesTo(siteA, 'probe-on'))
    .toEqual([{ id: 'probe-on', ok: false, error: expect.objectContaining({ kind: 'not-allowed' }) }]);
  expect(await repliesTo(siteA, 'probe-off')).toEqual([]);
  // A new page of the site has the API before its own scripts run; another origin still has none.
  await siteA.reload();
  expect(await siteA.evaluate(() => (window as unknown as { atParse: string }).atParse)).toBe('object');
  const siteC = await extension.context.newPage();
  await siteC.goto(siteUrl(C));
  expect(await siteC.evaluate(() => (window as unknown as { atParse: string }).atParse)).toBe('undefined');
  expect(await siteC.evaluate(() => 'toolgate' in window)).toBe(false);
  await Promise.all([siteA.close(), siteC.close(), panel.close(), watch.close()]);
});

test('a site asks for access: one refused must wait to ask again, one allowed calls through the panel, an unrelated one gets nothing', async () => {
  const panel = await extension.openPanel();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(2, { timeout: 20_000 });
  await extension.turnOnSite(panel, originOf(A));
  await extension.turnOnSite(panel, originOf(B));
  const siteA = await extension.context.newPage();
  const siteB = await extension.context.newPage();
  const siteC = await extension.context.newPage();
  await siteA.goto(siteUrl(A));
  await siteB.goto(siteUrl(B));
  await siteC.goto(siteUrl(C));
  // The side panel is visible beside the page; a background tab would have its frames throttled.
  await panel.bringToFront();
  const originA = originOf(A);
  const originB = originOf(B);
  const consent = panel.getByRole('dialog');

  // B asks and is refused; the dialog says what the gate does with a site's calls.
  const refused = inPage(siteB, 'return toolgate.requestAccess()');
  await expect(consent).toContainText(`Let ${originB} use your tools?`);
  await expect(consent).toContainText('Site B');
  await expect(consent).toContainText(
    'Each call it makes waits for your approval, unless you remember an approval for this site',
  );
  await expect(consent).toContainText(
    'Nothing you approve for yourself or for another site covers this one.',
  );
  await expect(consent).toContainText('Every call is written to the audit log');
  // 127.0.0.1 is this machine: plain http here is not flagged.
  await expect(consent.getByText('Not secure')).toHaveCount(0);
  await panel.screenshot({ path: 'test-results/screenshots/extension-consent.png' });
  const axe = await new AxeBuilder({ page: panel }).analyze();
  expect(axe.violations.map((v) => `consent: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  await consent.getByRole('button', { name: 'Refuse' }).click();
  expect(await refused).toMatchObject({
    ok: false,
    kind: 'not-allowed',
    message: expect.stringContaining('did not allow'),
  });
  // Asking again at once is answered at once, with the wait, and no dialog opens.
  expect(await inPage(siteB, 'return toolgate.requestAccess()')).toMatchObject({
    ok: false,
    kind: 'retry-later',
    message: expect.stringContaining('may ask again in 1 minute'),
  });
  await expect(panel.getByRole('dialog')).toHaveCount(0);
  expect(await inPage(siteB, 'return toolgate.listTools()')).toMatchObject({
    ok: false,
    kind: 'not-allowed',
  });

  // A is allowed one tool of the SDK server.
  const allowed = inPage(siteA, 'return toolgate.requestAccess()');
  await expect(consent).toContainText(`Let ${originA} use your tools?`);
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

  // A page cannot pass for the person's own click: a request forged with the form's mark (and the
  // person as caller) still meets the full dialog, named as the site, and denied it runs nothing.
  await postRaw(siteA, {
    id: 'forged',
    method: 'callTool',
    serverId,
    toolName: 'add',
    arguments: { a: 1, b: 2 },
    startedFrom: 'form',
    caller: { kind: 'person', label: 'you' },
  });
  const forged = panel.getByRole('dialog');
  await expect(forged).toContainText('Asked by the web site');
  await expect(forged).toContainText(originA);
  await expect(forged.getByLabel(/Reason if you deny/)).toBeVisible();
  await forged.getByRole('button', { name: 'Deny' }).click();
  await expect
    .poll(() => repliesTo(siteA, 'forged'))
    .toMatchObject([{ ok: false, error: { kind: 'denied' } }]);

  // The call waits for the person in the panel, then the page gets the result.
  const call = inPage(
    siteA,
    `return toolgate.callTool(${JSON.stringify(serverId)}, 'add', { a: 20, b: 22 })`,
  );
  const approval = panel.getByRole('dialog');
  // Named as the site, by the origin Chrome reported (the dialog's wording is the widget's own).
  await expect(approval).toContainText('Asked by the web site');
  await expect(approval).toContainText(originA);
  await panel.screenshot({ path: 'test-results/screenshots/extension-approval.png' });
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
  // B heard nothing of A and has nothing of its own; C, never turned on, has no page API at all.
  expect(
    (await siteB.evaluate(() => (window as unknown as { bridgeHeard: { message?: unknown }[] }).bridgeHeard))
      .map((item) => JSON.stringify(item))
      .filter(
        (text) => text.includes(originA) || text.includes('"text":"42"') || text.includes('"granted":true'),
      ),
  ).toEqual([]);
  expect(
    await inPage(siteB, `return toolgate.callTool(${JSON.stringify(serverId)}, 'add', { a: 1, b: 1 })`),
  ).toMatchObject({
    ok: false,
    kind: 'not-allowed',
  });
  expect(await siteC.evaluate(() => 'toolgate' in window)).toBe(false);
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
  await expect(siteRow(panel, originA)).toContainText('add');
  // The server by its label, as everywhere else in the panel, not by its id.
  await expect(siteRow(panel, originA)).toContainText(/add on \S/);
  await expect(siteRow(panel, originA)).not.toContainText(`(${serverId})`);
  await panel.getByRole('button', { name: `Revoke access for ${originA}` }).click();
  await expect(panel.getByRole('button', { name: `Revoke access for ${originA}` })).toHaveCount(0);
  await expect(siteRow(panel, originA)).toContainText('No tools');
  await expect
    .poll(() => siteA.evaluate(() => (window as unknown as { access: unknown[] }).access))
    .toEqual([{ granted: false, tools: [] }]);
  expect(
    await inPage(siteA, `return toolgate.callTool(${JSON.stringify(serverId)}, 'add', { a: 1, b: 2 })`),
  ).toMatchObject({
    ok: false,
    kind: 'not-allowed',
  });
  await Promise.all([siteA.close(), siteB.close(), siteC.close(), panel.close()]);
});

test('a plain-http site that is not this machine is flagged in the consent dialog', async () => {
  const panel = await extension.openPanel();
  const origin = new URL(insecureUrl()).origin;
  await extension.turnOnSite(panel, origin);
  await expect(siteRow(panel, origin)).toContainText('Not secure');
  const site = await extension.context.newPage();
  await site.goto(insecureUrl());
  await panel.bringToFront();
  const asked = inPage(site, 'return toolgate.requestAccess()');
  const consent = panel.getByRole('dialog');
  await expect(consent).toContainText(`Let ${origin} use your tools?`);
  const warning = consent.getByRole('note');
  await expect(warning).toContainText('Not secure');
  await expect(warning).toContainText('can read and change its pages');
  await expect(warning).toContainText('nothing verifies that the site is who it says it is');
  await consent.getByRole('button', { name: 'Refuse' }).click();
  expect(await asked).toMatchObject({ ok: false, kind: 'not-allowed' });
  await Promise.all([site.close(), panel.close()]);
});

test('a page that reuses a request id cannot keep a call running past revocation; turning the site off ends its page API', async () => {
  const panel = await extension.openPanel();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(2, { timeout: 20_000 });
  await extension.turnOnSite(panel, originOf(A));
  const site = await extension.context.newPage();
  await site.goto(siteUrl(A));
  await panel.bringToFront();
  const asked = inPage(site, 'return toolgate.requestAccess()');
  await panel
    .getByRole('dialog')
    .locator('fieldset', { hasText: 'toolgate-peer-sdk1' })
    .getByRole('checkbox', { name: 'sleep', exact: true })
    .check();
  await panel.getByRole('dialog').getByRole('button', { name: 'Allow 1 tool' }).click();
  const serverId = ((await asked).value as { serverId: string }[])[0]!.serverId;

  // Two long calls under one request id, written by hand as a hostile page would.
  for (const ms of [60_000, 60_001])
    await postRaw(site, { id: 'same', method: 'callTool', serverId, toolName: 'sleep', arguments: { ms } });
  for (let approved = 0; approved < 2; approved++) {
    const dialog = panel.getByRole('dialog');
    await expect(dialog).toContainText('sleep');
    await dialog.getByRole('button', { name: 'Allow once' }).click();
  }
  const sleeps = async () =>
    (await sdk.events()).calls.filter(
      (c) => c.tool === 'sleep' && [60_000, 60_001].includes(c.arguments.ms as number),
    );
  await expect.poll(async () => (await sleeps()).length).toBe(2);

  await panel.getByRole('tab', { name: 'Sites' }).click();
  await panel.getByRole('button', { name: `Revoke access for ${originOf(A)}` }).click();
  // Both calls end for the page with "revoked", and neither result ever reaches it.
  await expect.poll(async () => (await repliesTo(site, 'same')).length).toBe(2);
  for (const reply of await repliesTo(site, 'same'))
    expect(reply).toMatchObject({
      ok: false,
      error: { kind: 'revoked', message: expect.stringContaining('revoked') },
    });
  // The server was told to stop both, as for a cancel.
  await expect
    .poll(async () =>
      (await sdk.events()).cancellations
        .filter((c) => c.tool === 'sleep')
        .map((c) => c.arguments?.ms)
        .sort(),
    )
    .toEqual([60_000, 60_001]);
  await panel.getByRole('tab', { name: /Activity/ }).click();
  await expect(panel.getByRole('tab', { name: 'Activity', exact: true })).toBeVisible();

  // Turning the site off: the open page is told so, and a new page of it has no page API.
  await panel.getByRole('tab', { name: 'Sites' }).click();
  await panel.getByRole('button', { name: `Turn off ${originOf(A)}` }).click();
  await expect(siteRow(panel, originOf(A))).toHaveCount(0);
  await expect.poll(async () => (await inPage(site, 'return toolgate.listTools()')).kind).toBe('not-enabled');
  expect(await inPage(site, 'return toolgate.requestAccess()')).toMatchObject({
    ok: false,
    kind: 'not-enabled',
    message: expect.stringContaining('not turned on'),
  });
  await expect(panel.getByRole('dialog')).toHaveCount(0);
  await site.reload();
  expect(await site.evaluate(() => (window as unknown as { atParse: string }).atParse)).toBe('undefined');
  expect(await site.evaluate(() => 'toolgate' in window)).toBe(false);
  expect(await repliesTo(site, 'same')).toEqual([]);
  await Promise.all([site.close(), panel.close()]);
});

test('a site turned off and on again is asked again: its "Always allow" went with it', async () => {
  const panel = await extension.openPanel();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(2, { timeout: 20_000 });
  const origin = originOf(D);
  const site = await extension.context.newPage();
  const addAsSite = (a: number) =>
    inPage(
      site,
      `const [tool] = await toolgate.listTools(); return toolgate.callTool(tool.serverId, 'add', { a: ${a}, b: 1 })`,
    );
  const allowAdd = async () => {
    await panel.bringToFront();
    const asked = inPage(site, 'return toolgate.requestAccess()');
    const consent = panel.getByRole('dialog');
    await consent
      .locator('fieldset', { hasText: 'toolgate-peer-sdk1' })
      .getByRole('checkbox', { name: 'add', exact: true })
      .check();
    await consent.getByRole('button', { name: 'Allow 1 tool' }).click();
    expect((await asked).ok).toBe(true);
  };
  const added = async () =>
    (await sdk.events()).calls
      .filter((c) => c.tool === 'add' && c.arguments.b === 1)
      .map((c) => c.arguments.a);

  await extension.turnOnSite(panel, origin);
  await site.goto(siteUrl(D));
  await allowAdd();
  // "Always allow" for the site: its next call runs unasked.
  const first = addAsSite(100);
  const approval = panel.getByRole('dialog');
  await expect(approval).toContainText(origin);
  await approval.getByRole('button', { name: 'Always allow this tool' }).click();
  expect(await first).toMatchObject({ ok: true });
  expect(await addAsSite(101)).toMatchObject({ ok: true });
  await expect(panel.getByRole('dialog')).toHaveCount(0);

  // Off, then on again: the site asks for its tools again, and its first call is asked again.
  await panel.getByRole('tab', { name: 'Sites' }).click();
  await panel.getByRole('button', { name: `Turn off ${origin}` }).click();
  await expect(siteRow(panel, origin)).toHaveCount(0);
  await extension.turnOnSite(panel, origin);
  await site.reload();
  await expect.poll(() => site.evaluate(() => 'toolgate' in window)).toBe(true);
  await allowAdd();
  const again = addAsSite(102);
  await expect(approval).toContainText('Asked by the web site');
  await expect(approval).toContainText(origin);
  await approval.getByRole('button', { name: 'Deny' }).click();
  expect(await again).toMatchObject({ ok: false });
  expect(await added()).toEqual([100, 101]);
  // Off again, so the later tests see only the sites they turn on.
  await panel.getByRole('tab', { name: 'Sites' }).click();
  await panel.getByRole('button', { name: `Turn off ${origin}` }).click();
  await expect(siteRow(panel, origin)).toHaveCount(0);
  await Promise.all([site.close(), panel.close()]);
});

test('in the side panel, "Allow server … for this session" covers a site’s harmless tools only, and is listed', async () => {
  const panel = await extension.openPanel();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(2, { timeout: 20_000 });
  const origin = originOf(D);
  const site = await extension.context.newPage();
  const callAsSite = (tool: string, args: Record<string, unknown>) =>
    inPage(
      site,
      `const tools = await toolgate.listTools(); const t = tools.find((x) => x.name === ${JSON.stringify(tool)}); return toolgate.callTool(t.serverId, ${JSON.stringify(tool)}, ${JSON.stringify(args)})`,
    );
  await extension.turnOnSite(panel, origin);
  await site.goto(siteUrl(D));
  await panel.bringToFront();
  const asked = inPage(site, 'return toolgate.requestAccess()');
  const consent = panel.getByRole('dialog');
  const tools = consent.locator('fieldset', { hasText: 'toolgate-peer-sdk1' });
  // add says nothing about itself; wipe says it is read-only (an untrusted server's word).
  await tools.getByRole('checkbox', { name: 'add', exact: true }).check();
  await tools.getByRole('checkbox', { name: 'wipe', exact: true }).check();
  await consent.getByRole('button', { name: 'Allow 2 tools' }).click();
  expect((await asked).ok).toBe(true);

  const first = callAsSite('add', { a: 200, b: 1 });
  const approval = panel.getByRole('dialog');
  await expect(approval).toContainText(origin);
  await approval.getByRole('button', { name: /^Allow server .* for this session$/ }).click();
  expect(await first).toMatchObject({ ok: true });
  // wipe says it is harmless: covered, no dialog.
  expect(await callAsSite('wipe', {})).toMatchObject({ ok: true });
  await expect(panel.getByRole('dialog')).toHaveCount(0);
  // add does not say it is harmless: the server-wide grant does not cover it; asked again.
  const again = callAsSite('add', { a: 201, b: 1 });
  await expect(approval).toContainText(origin);
  await approval.getByRole('button', { name: 'Deny', exact: true }).click();
  expect(await again).toMatchObject({ ok: false });
  expect(
    (await sdk.events()).calls
      .filter((c) => c.tool === 'add' && c.arguments.b === 1)
      .map((c) => c.arguments.a),
  ).not.toContain(201);

  await panel.getByRole('tab', { name: 'Approvals' }).click();
  const row = panel.locator('.tg-remembered tbody tr[data-type="grant"]', { hasText: origin });
  await expect(row).toContainText('every tool of the server except those that may destroy things');
  await expect(row).toContainText('ends when this page');
  await row.getByRole('button', { name: /^Revoke/ }).click();
  await expect(row).toHaveCount(0);

  await panel.getByRole('tab', { name: 'Sites' }).click();
  await panel.getByRole('button', { name: `Turn off ${origin}` }).click();
  await expect(siteRow(panel, origin)).toHaveCount(0);
  await Promise.all([site.close(), panel.close()]);
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
  // (Earlier tests left cancelled sleeps in the log; this one is the only interrupted call.)
  const rows = panel.locator('.tg-log-table tbody tr', { hasText: 'sleep' });
  await expect(rows.and(panel.locator('[data-outcome="interrupted"]'))).toHaveCount(1, { timeout: 20_000 });
  // The new worker runs nothing: the stopped call no longer counts as running.
  await expect(panel.getByRole('tab', { name: 'Activity', exact: true })).toBeVisible();
  await panel.close();
});

test('arguments are validated in the service worker, where the extension CSP forbids eval', async () => {
  const panel = await extension.openPanel();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(2, { timeout: 20_000 });
  await extension.turnOnSite(panel, originOf(A));
  const site = await extension.context.newPage();
  await site.goto(siteUrl(A));
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
  // Both checks ran in the worker, interpreted (its CSP forbids eval): no Ajv compile was ever
  // attempted, and Ajv's code is not in the shipped worker at all. (DevTools' evaluate is exempt
  // from the CSP, so the test reads the worker's own verdict rather than probing from here.)
  const diagnostics = await (await extension.serviceWorker()).evaluate(() =>
    (
      globalThis as unknown as {
        toolgateDiagnostics: () => Promise<{
          evalAllowed?: boolean;
          validator: { engine: string; ajvCompiles: number; cfworkerBuilds: number };
        }>;
      }
    ).toolgateDiagnostics(),
  );
  expect(diagnostics.evalAllowed).toBe(false);
  expect(diagnostics.validator).toMatchObject({ engine: 'cfworker', ajvCompiles: 0 });
  expect(diagnostics.validator.cfworkerBuilds).toBeGreaterThan(0);
  const worker = await readFile(join(EXTENSION_DIR, 'background.js'), 'utf8');
  // An option name of Ajv's core (property names survive minification): present whenever it is bundled.
  expect(worker).not.toContain('strictTypes');
  expect(worker).toContain('Ajv is not part of the extension worker');

  await panel.getByRole('tab', { name: 'Audit log' }).click();
  await expect(panel.locator('.tg-log-table tbody tr[data-outcome="invalid-arguments"]')).toHaveCount(1);
  await panel.getByRole('tab', { name: 'Sites' }).click();
  await panel.getByRole('button', { name: /^Revoke access/ }).click();
  await Promise.all([site.close(), panel.close()]);
});

/**
 * Run again (issue 29): a past call goes back into its tool's form, pre-filled and editable, and
 * the form's Call makes a new call through the whole gate, with its own audit entry. From Activity,
 * from an audit entry (whose stored arguments are redacted: the person fills what was hidden, and
 * no secret comes back), from a saved call (kept in IndexedDB across a reload), and from a calls
 * file (exported, checked on load, each call asked in the gate's dialog). Inspect's exchange
 * exports redacted. The widget in Chromium against a real SDK server (e2e/peers/sdk1-streamable.mjs),
 * whose record of calls is the evidence of what ran.
 */
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { launchWithExtension } from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';
import { fillServerUrl, openTab, openWidget, pickTool } from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });

let sdk: Peer;
test.beforeAll(async () => {
  sdk = await startPeer('sdk1-stateful-json');
});
test.afterAll(async () => {
  await sdk?.stop();
});

const SERVERS = [{ url: '', id: 'sdk', label: 'bank' }];
const open = (page: Page) => openWidget(page, [{ ...SERVERS[0]!, url: sdk.url }]);
const echoed = async () =>
  (await sdk.events()).calls.filter((call) => call.tool === 'echo').map((call) => call.arguments.message);

/** Calls echo from its form with `message`; resolves once the result shows. */
async function echoFromForm(page: Page, message: string): Promise<void> {
  await pickTool(page, 'echo');
  const form = page.locator('.tg-try');
  await form.getByLabel('message (required)').fill(message);
  await form.getByRole('button', { name: /^Call / }).click();
  await expect(form.locator('.tg-result')).toContainText(`Echo: ${message}`);
}

const auditRows = (page: Page) => page.locator('.tg-log-table tbody tr');

test('Run again from Activity: the form pre-filled and editable, then a new call with its own audit entry', async ({
  page,
}) => {
  await open(page);
  const before = (await echoed()).length;
  await echoFromForm(page, 'first run');

  await openTab(page, /^Activity/);
  const row = page.locator('.tg-finished-call', { hasText: 'first run' });
  await row.getByRole('button', { name: 'Run again' }).click();
  // The Tools tab, the same tool, its form filled with the call's arguments; nothing sent yet.
  await expect(page.getByRole('tab', { name: 'Tools' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'echo', level: 3 })).toBeVisible();
  const field = page.locator('.tg-try').getByLabel('message (required)');
  await expect(field).toHaveValue('first run');
  expect((await echoed()).length).toBe(before + 1);

  await field.fill('second run, edited');
  await page
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();
  await expect(page.locator('.tg-try .tg-result')).toContainText('Echo: second run, edited');
  expect((await echoed()).slice(before)).toEqual(['first run', 'second run, edited']);

  await openTab(page, 'Audit log');
  await expect(auditRows(page)).toHaveCount(2);
  await expect(auditRows(page).first()).toContainText('echo');
});

const SECRET = 'e2e-run-again-pass-REDACTME';
const BEARER = 'sk-e2e0123456789abcdefRUNAGAIN';
const CREDENTIALS = {
  auth_header: 'e2e-auth-REDACTME',
  bearer: 'e2e-bearer-REDACTME',
  pass: SECRET,
  env: { HOME: '/home/ada' },
  headers: [{ name: 'Accept', value: 'application/json' }],
  cmd: `curl -H 'Authorization: Bearer ${BEARER}' https://api.example.com/v1/models`,
};

test('Run again from an audit entry: stored arguments in the form, what was redacted left for the person to fill', async ({
  page,
}) => {
  await open(page);
  // A call from the host app, approved in the dialog: its secrets reach the server, not the log.
  const called = page.evaluate(
    (args) =>
      (window as unknown as { toolgate: { call(request: object): Promise<unknown> } }).toolgate
        .call({
          serverId: 'sdk',
          toolName: 'run_with_credentials',
          arguments: args,
          caller: { kind: 'host', label: 'tests' },
        })
        .then(() => 'ok'),
    CREDENTIALS,
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  expect(await called).toBe('ok');

  await openTab(page, 'Audit log');
  await expect(auditRows(page)).toHaveCount(1);
  await auditRows(page).first().locator('td[data-label="Server"]').click();
  const drawer = page.getByRole('dialog', { name: /run_with_credentials on/ });
  await expect(drawer).toContainText('[redacted: named like a secret]');
  await drawer.getByRole('button', { name: 'Run again' }).click();

  await expect(page.getByRole('heading', { name: 'run_with_credentials', level: 3 })).toBeVisible();
  const form = page.locator('.tg-try');
  await expect(form.locator('.tg-to-fill')).toContainText('(auth_header, bearer, cmd, pass)');
  // What was stored in clear is back; what was redacted is empty, never a marker, never the secret.
  await expect(form.getByLabel(/^auth_header/)).toHaveValue('');
  await expect(form.getByLabel(/^pass/)).toHaveValue('');
  await expect(form.getByLabel(/^cmd/)).toHaveValue('');
  const shown = await form.evaluate((element) =>
    [...element.querySelectorAll('input, textarea')]
      .map((field) => (field as HTMLInputElement).value)
      .join('\n'),
  );
  expect(shown).toContain('/home/ada');
  expect(shown).not.toContain('redacted');
  for (const secret of [SECRET, BEARER, CREDENTIALS.auth_header]) expect(shown).not.toContain(secret);

  await form.getByLabel(/^auth_header/).fill('typed-again-auth');
  await form.getByLabel(/^bearer/).fill('typed-again-bearer');
  await form.getByLabel(/^pass/).fill('typed-again-pass');
  await form.getByLabel(/^cmd/).fill('ls');
  await form.getByRole('button', { name: /^Call / }).click();
  await expect(form.locator('.tg-result')).toContainText('typed-again-pass');
  const received = (await sdk.events()).calls.filter((call) => call.tool === 'run_with_credentials');
  expect(received.at(-1)?.arguments).toEqual({
    auth_header: 'typed-again-auth',
    bearer: 'typed-again-bearer',
    pass: 'typed-again-pass',
    env: { HOME: '/home/ada' },
    headers: [{ name: 'Accept', value: 'application/json' }],
    cmd: 'ls',
  });
  await openTab(page, 'Audit log');
  await expect(auditRows(page)).toHaveCount(2);
});

test('a saved call outlives a reload, runs again from its form, and can be deleted', async ({ page }) => {
  await open(page);
  await pickTool(page, 'echo');
  await page.locator('.tg-try').getByLabel('message (required)').fill('kept for later');
  await page.getByText('Save this call').click();
  await page.getByLabel('Name of the saved call').fill('Morning echo');
  await page.getByRole('button', { name: 'Save call' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as “Morning echo”' })).toBeVisible();

  await page.reload();
  await open(page);
  await openTab(page, /^Activity/);
  const saved = page.getByRole('region', { name: 'Saved calls on bank' });
  const item = saved.locator('.tg-saved-call', { hasText: 'Morning echo' });
  await expect(item).toContainText('echo');
  await item.getByRole('button', { name: 'Run again' }).click();
  const form = page.locator('.tg-try');
  await expect(form.getByLabel('message (required)')).toHaveValue('kept for later');
  await form.getByRole('button', { name: /^Call / }).click();
  await expect(form.locator('.tg-result')).toContainText('Echo: kept for later');

  await openTab(page, /^Activity/);
  await page.getByRole('button', { name: 'Delete saved call Morning echo' }).click();
  await expect(page.locator('.tg-saved-call')).toHaveCount(0);
  await page.reload();
  await open(page);
  await openTab(page, /^Activity/);
  await expect(page.getByText('None yet: “Save call”')).toBeVisible();
});

test('a session exported as a calls file loads elsewhere, bad files are refused by name, and each call is asked', async ({
  page,
}) => {
  await open(page);
  await echoFromForm(page, 'replay one');
  await echoFromForm(page, 'replay two');
  await openTab(page, /^Activity/);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export calls' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^toolgate-calls-.+\.json$/);
  const body = await readFile((await file.path())!, 'utf8');
  const exported = JSON.parse(body) as { format: string; calls: { toolName: string; arguments: unknown }[] };
  expect(exported.format).toBe('toolgate-calls');
  expect(exported.calls.map((call) => call.arguments)).toEqual([
    { message: 'replay one' },
    { message: 'replay two' },
  ]);

  // A new session: nothing in Activity but the file.
  await page.reload();
  await open(page);
  await openTab(page, /^Activity/);
  const input = page.getByLabel('Load calls file');
  const load = (name: string, text: string) =>
    input.setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
  await load('broken.json', '{"format": "toolgate-calls", "version": 1, "calls": [{"serverId": "sdk"}]}');
  await expect(page.getByRole('alert')).toHaveText(
    'broken.json was not loaded: calls[0].toolName is missing; it must be a non-empty string.',
  );
  await load('calls.json', body);
  const loaded = page.getByRole('region', { name: 'Loaded calls from calls.json' });
  await expect(loaded.locator('.tg-replay-call')).toHaveCount(2);
  // A bad file afterwards is refused and replaces nothing.
  await load('notes.txt', 'not json at all');
  await expect(page.getByRole('alert')).toContainText('notes.txt was not loaded: The file is not JSON');
  await expect(loaded.locator('.tg-replay-call')).toHaveCount(2);

  const before = (await echoed()).length;
  await loaded.getByRole('button', { name: 'Run each, asking' }).click();
  for (const message of ['replay one', 'replay two']) {
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('message (required)')).toHaveValue(message);
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await expect(loaded.locator('.tg-replay-call', { hasText: message })).toContainText('done');
  }
  expect((await echoed()).slice(before)).toEqual(['replay one', 'replay two']);
  await openTab(page, 'Audit log');
  await expect(auditRows(page)).toHaveCount(4);
});

test("Inspect's exchange exports as JSON, redacted as shown", async ({ page }) => {
  await open(page);
  const called = page.evaluate(
    (args) =>
      (window as unknown as { toolgate: { call(request: object): Promise<unknown> } }).toolgate
        .call({
          serverId: 'sdk',
          toolName: 'run_with_credentials',
          arguments: args,
          caller: { kind: 'host' },
        })
        .then(() => 'ok'),
    CREDENTIALS,
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  expect(await called).toBe('ok');
  await openTab(page, 'Inspect');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export exchange' }).click();
  const text = await readFile((await (await download).path())!, 'utf8');
  const saved = JSON.parse(text) as { messages: { message: { method?: string } }[] };
  expect(saved.messages.map((entry) => entry.message.method)).toContain('tools/call');
  expect(text).toContain('[redacted: named like a secret]');
  for (const secret of [SECRET, BEARER, CREDENTIALS.auth_header, CREDENTIALS.bearer])
    expect(text).not.toContain(secret);
});

test("the extension's side panel: Run again from Activity and from an audit entry, through the worker's gate", async () => {
  const extension = await launchWithExtension();
  try {
    const panel = await extension.openPanel();
    await fillServerUrl(panel, sdk.url);
    await panel.getByRole('button', { name: 'Add server' }).click();
    await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(1, { timeout: 20_000 });
    await echoFromForm(panel, 'side panel first');

    await openTab(panel, /^Activity/);
    await panel
      .locator('.tg-finished-call', { hasText: 'side panel first' })
      .getByRole('button', { name: 'Run again' })
      .click();
    const form = panel.locator('.tg-try');
    await expect(form.getByLabel('message (required)')).toHaveValue('side panel first');
    await form.getByLabel('message (required)').fill('side panel again');
    await form.getByRole('button', { name: /^Call / }).click();
    await expect(form.locator('.tg-result')).toContainText('Echo: side panel again');

    await openTab(panel, 'Audit log');
    await expect(auditRows(panel)).toHaveCount(2);
    await auditRows(panel).first().locator('td[data-label="Server"]').click();
    await panel
      .getByRole('dialog', { name: /echo on/ })
      .getByRole('button', { name: 'Run again' })
      .click();
    await expect(form.getByLabel('message (required)')).toHaveValue('side panel again');
    await form.getByRole('button', { name: /^Call / }).click();
    await expect(form.locator('.tg-result')).toContainText('Echo: side panel again');
    expect((await echoed()).slice(-3)).toEqual(['side panel first', 'side panel again', 'side panel again']);
    await openTab(panel, 'Audit log');
    await expect(auditRows(panel)).toHaveCount(3);
  } finally {
    await extension.close();
  }
});

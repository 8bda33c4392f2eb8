/**
 * The widget in Chromium against real servers (our SDK 1.x server and server-everything): connect,
 * list, call with approval, edit then approve, deny with a reason, cancel a call with a moving
 * progress bar, hostile content rendered inert, elicitation with defaults, the audit viewer, axe on
 * each screen, and the approve/deny flow with the keyboard alone. Screenshots go to
 * test-results/screenshots/ for a reviewer.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { bundle } from './support/bundle.js';
import { untilArmed } from './support/dialogs.js';
import { serveFixture } from './support/fixture-page.js';
import { type Peer, startPeer } from './support/peers.js';

const ORIGIN = 'https://widget.test';
test.use({ permissions: ['local-network-access'] });
test.describe.configure({ mode: 'serial' });

let sdk: Peer;
let everything: Peer;
test.beforeAll(async () => {
  [sdk, everything] = await Promise.all([startPeer('sdk1-stateful-sse'), startPeer('everything-streamable')]);
});
test.afterAll(async () => {
  await Promise.all([sdk?.stop(), everything?.stop()]);
});

async function openPanel(page: Page, servers: { url: string; id: string }[]): Promise<void> {
  await serveFixture(page, ORIGIN, 'e2e/fixtures/widget/page.ts', 'Toolgate widget');
  const query = servers.map((s) => `server=${encodeURIComponent(s.url)}&id=${s.id}`).join('&');
  await page.goto(`${ORIGIN}/?${query}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  for (const s of servers)
    await expect(page.locator(`[data-server="${s.id}"]`)).toContainText('connected', { timeout: 20_000 });
}

async function axe(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${screen}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

async function callFromToolsTab(page: Page, tool: string): Promise<void> {
  await page.getByRole('tab', { name: 'Tools' }).click();
  await page.getByLabel('Search tools').fill(tool);
  await page
    .locator('.tg-tool-button', { hasText: new RegExp(`^${tool}\\b`) })
    .first()
    .click();
}

test("connect, list, call from the form on the person's click; approve a model's call after editing it; deny with a reason", async ({
  page,
}) => {
  await openPanel(page, [
    { url: sdk.url, id: 'sdk' },
    { url: everything.url, id: 'everything' },
  ]);
  await axe(page, 'servers');
  await shot(page, 'servers');

  await callFromToolsTab(page, 'echo');
  await expect(page.getByRole('heading', { name: 'echo', level: 3 })).toBeVisible();
  await axe(page, 'tools');
  await shot(page, 'tools');
  await page.locator('.tg-try').getByLabel('message (required)').fill('first draft');
  await page
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();
  // The person's own click on Call is their approval: the result comes back with no dialog.
  await expect(page.locator('.tg-try')).toContainText('Echo: first draft');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // A call the host's model proposes is asked about, and the person edits it before allowing it.
  const edited = page.evaluate(
    `window.toolgate.call({ serverId: 'sdk', toolName: 'echo', arguments: { message: 'from the model' }, caller: { kind: 'host', label: 'the assistant' } }).then((r) => r.result.content[0].text)`,
  );
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Allow');
  await axe(page, 'approval');
  await shot(page, 'approval');
  await dialog.getByRole('button', { name: 'JSON' }).click();
  await dialog.getByLabel('Arguments as JSON').fill('{"message": 42}');
  await expect(dialog.getByRole('status')).toContainText('message');
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeDisabled();
  await dialog.getByLabel('Arguments as JSON').fill('{"message": "edited by a person"}');
  await expect(dialog.getByRole('status')).toContainText('(edited)');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(dialog).toHaveCount(0);
  expect(await edited).toBe('Echo: edited by a person');

  await page.getByRole('tab', { name: /Activity/ }).click();
  await expect(page.locator('.tg-finished-call').first()).toContainText('Echo: edited by a person');
  expect((await sdk.events()).calls).toContainEqual({
    tool: 'echo',
    arguments: { message: 'edited by a person' },
  });
  await axe(page, 'activity');
  await shot(page, 'activity');

  // Denied with a reason: the reason goes back to the caller that asked.
  const denied = page.evaluate(
    `window.toolgate.call({ serverId: 'sdk', toolName: 'add', arguments: { a: 1, b: 2 }, caller: { kind: 'host', label: 'the assistant' } }).then(() => 'sent', (e) => e.message)`,
  );
  await page
    .getByRole('dialog')
    .getByLabel(/Reason if you deny/)
    .fill('not today');
  await page.getByRole('dialog').getByRole('button', { name: 'Deny' }).click();
  expect(await denied).toContain('not today');
  expect((await sdk.events()).calls.map((c) => c.tool)).not.toContain('add');
});

test('the whole approve and deny flow with the keyboard alone; Enter in a field never approves', async ({
  page,
}) => {
  await openPanel(page, [{ url: sdk.url, id: 'sdk' }]);
  const controller = 'window.toolgate';
  // The host app asks (no mouse involved from here on).
  await page.evaluate(
    `void ${controller}.call({ serverId: 'sdk', toolName: 'echo', arguments: { message: 'keyboard' }, caller: { kind: 'host', label: 'e2e' } }).catch(() => {})`,
  );
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeFocused();
  await untilArmed(dialog);
  // Into the deny-reason field, then Enter: nothing is approved.
  await page
    .getByRole('dialog')
    .getByLabel(/Reason if you deny/)
    .focus();
  await page.keyboard.press('Enter');
  // A button's click runs inside the key event, so had Enter approved (or denied), the queue would
  // already be empty when press() returns: read it once, no waiting that could pass by itself.
  expect(await page.evaluate(`${controller}.approvals.value.length`)).toBe(1);
  await expect(dialog).toBeVisible();
  // Tab to "Allow once" and press Enter.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect
    .poll(async () => (await sdk.events()).calls.map((c) => (c.arguments as { message?: string }).message))
    .toContain('keyboard');

  // Escape denies.
  const denied = page.evaluate(
    `${controller}.call({ serverId: 'sdk', toolName: 'echo', arguments: { message: 'escape' } }).then(() => 'sent', (e) => e.name)`,
  );
  await expect(dialog).toBeFocused();
  await untilArmed(dialog);
  await page.keyboard.press('Escape');
  expect(await denied).toBe('DeniedError');
  // Focus stays in the dialog: Shift+Tab from the dialog wraps to its last control (the scoped
  // choices' "Other choices" since issue 29; whichever it is, it is the dialog's own).
  const trapped = page.evaluate(
    `${controller}.call({ serverId: 'sdk', toolName: 'echo', arguments: { message: 'trap' } }).then(() => 'sent', (e) => e.name)`,
  );
  await expect(dialog).toBeFocused();
  await untilArmed(dialog);
  await page.keyboard.press('Shift+Tab');
  const stops = dialog.locator(
    'button:visible, summary:visible, input:visible, textarea:visible, select:visible',
  );
  await expect(stops.last()).toBeFocused();
  // And Tab from the last stop comes back to the first, never out of the dialog.
  await page.keyboard.press('Tab');
  await expect(stops.first()).toBeFocused();
  await page.keyboard.press('Escape');
  // The denial is recorded in the audit log before the call settles: wait for it, not the test's end.
  expect(await trapped).toBe('DeniedError');
});

test('a long call shows a moving progress bar and can be cancelled', async ({ page }) => {
  await openPanel(page, [{ url: sdk.url, id: 'sdk' }]);
  void page.evaluate(
    `window.toolgate.call({ serverId: 'sdk', toolName: 'slow', arguments: { steps: 100, delayMs: 200 } }).catch(() => {})`,
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  await page.getByRole('tab', { name: /Activity/ }).click();
  const bar = page.getByRole('progressbar', { name: 'slow progress' });
  await expect.poll(async () => Number(await bar.getAttribute('value'))).toBeGreaterThan(1);
  const first = Number(await bar.getAttribute('value'));
  await expect.poll(async () => Number(await bar.getAttribute('value'))).toBeGreaterThan(first);
  await shot(page, 'progress');
  await page.locator('.tg-running-call').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('.tg-running-call')).toHaveCount(0);
  await expect(page.locator('.tg-finished-call').first()).toContainText(/cancel/i);
  await expect.poll(async () => (await sdk.events()).cancellations.map((c) => c.tool)).toContain('slow');
});

test('hostile server text and links render inert; images render; no script runs', async ({ page }) => {
  await openPanel(page, [
    { url: sdk.url, id: 'sdk' },
    { url: everything.url, id: 'everything' },
  ]);
  void page.evaluate(
    `window.toolgate.call({ serverId: 'sdk', toolName: 'hostile', arguments: {} }).catch(() => {})`,
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  void page.evaluate(
    `window.toolgate.call({ serverId: 'everything', toolName: 'get-tiny-image', arguments: {} }).catch(() => {})`,
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  await page.getByRole('tab', { name: /Activity/ }).click();
  const hostile = page.locator('.tg-finished-call', { hasText: 'hostile' });
  await expect(hostile.locator('.tg-text')).toContainText('<img src=x onerror=');
  await expect(hostile.locator('img')).toHaveCount(0);
  await expect(hostile.locator('a[href^="javascript:"]')).toHaveCount(0);
  await expect(hostile.locator('code', { hasText: 'javascript:' })).toBeVisible();
  await expect(hostile.getByRole('link', { name: 'a safe link' })).toHaveAttribute(
    'rel',
    'noopener noreferrer',
  );
  await hostile.locator('code', { hasText: 'javascript:' }).click();
  const image = page.locator('.tg-finished-call', { hasText: 'get-tiny-image' }).locator('img.tg-image');
  await expect(image).toHaveAttribute('src', /^data:image\/png;base64,/);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await shot(page, 'results');
});

test('elicitation: the form opens with its defaults and the answer reaches the server', async ({ page }) => {
  await openPanel(page, [{ url: sdk.url, id: 'sdk' }]);
  const result = page.evaluate(
    `window.toolgate.call({ serverId: 'sdk', toolName: 'elicit', arguments: {} }).then((r) => r.result.content[0].text)`,
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  const form = page.getByRole('dialog', { name: /asks for input/ });
  await expect(form).toBeVisible();
  await axe(page, 'elicitation');
  await shot(page, 'elicitation');
  await expect(form.getByLabel(/Name/)).toHaveValue('Ada');
  // Enter in a field of the form accepts it, as in any form.
  await untilArmed(form);
  await form.getByLabel(/Name/).focus();
  await page.keyboard.press('Enter');
  const text = await result;
  const elicited = (await sdk.events()).elicitations.at(-1);
  expect(elicited?.answer).toMatchObject({ action: 'accept' });
  expect(text).toBe('Hello, Ada!');
});

test('the audit viewer lists, filters, verifies and exports', async ({ page }) => {
  await openPanel(page, [{ url: sdk.url, id: 'sdk' }]);
  void page.evaluate(
    `window.toolgate.call({ serverId: 'sdk', toolName: 'echo', arguments: { message: 'for the log' } }).catch(() => {})`,
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const rows = page.locator('.tg-log-table tbody tr');
  await expect(rows.first()).toContainText('echo');
  await expect(rows.first()).toContainText('Succeeded');
  await page.getByRole('button', { name: 'Verify chain' }).click();
  await expect(page.locator('.tg-verify')).toContainText('Chain verified');
  // One line under it says whether the chain passes through its last signed head (none yet, or it does).
  await expect(page.locator('.tg-anchor')).toContainText(
    /^(No anchored head yet|The last anchored head .* is still in the chain)/,
  );
  await page.getByRole('searchbox', { name: 'Search the log' }).fill('nothing-like-this');
  await expect(rows).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search the log' }).fill('');
  await expect(rows).toHaveCount(1);
  await rows
    .first()
    .getByRole('button', { name: /Details/ })
    .click();
  await expect(page.getByRole('dialog', { name: /echo on/ })).toContainText('Raw chain events');
  await page.keyboard.press('Escape');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export…' }).click();
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  expect((await download).suggestedFilename()).toMatch(/^toolgate-audit-.*\.jsonl$/);
  await axe(page, 'audit log');
  await shot(page, 'audit-log');
});

test('a server hosted by a page of another origin, added by address, over postMessage', async ({ page }) => {
  const server = await bundle('e2e/fixtures/frame-server/page.ts');
  await page.route('https://tools.test/**', (route) =>
    new URL(route.request().url()).pathname === '/server.js'
      ? route.fulfill({ contentType: 'application/javascript', body: server })
      : route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><title>server</title><script type="module" src="/server.js"></script>',
        }),
  );
  await openPanel(page, []);
  await page.getByLabel('Connect to').selectOption('page');
  // A server's id is its whole address (scheme, host, path and query).
  const serverId = `https://tools.test/mcp.html?allow=${encodeURIComponent(ORIGIN)}`;
  await page.getByLabel('Server page URL').fill(serverId);
  await page.getByRole('button', { name: 'Add server' }).click();
  const row = page.locator(`[data-server="${serverId}"]`);
  await expect(row).toContainText('connected', { timeout: 15_000 });
  // Another origin keeps its origin in the frame (it cannot reach ours) and is spoken to at exactly it.
  await expect(page.locator('iframe[title^="MCP server page"]')).toHaveAttribute(
    'sandbox',
    'allow-scripts allow-same-origin',
  );
  const result = page.evaluate(
    `window.toolgate.call({ serverId: ${JSON.stringify(serverId)}, toolName: 'add', arguments: { a: 20, b: 22 } }).then((r) => r.result.content[0].text)`,
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  expect(await result).toBe('42');
  // Removing the server removes its frame.
  await page.getByRole('tab', { name: 'Servers' }).click();
  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(page.locator('iframe[title^="MCP server page"]')).toHaveCount(0);
});

// Last in the file: the rug pull changes echo on the shared server for every later session.
test('a tool that changed after "always allow" asks again and shows the definition diff', async ({
  page,
}) => {
  await openPanel(page, [{ url: sdk.url, id: 'sdk' }]);
  const call = (message: string) =>
    page.evaluate(
      `window.toolgate.call({ serverId: 'sdk', toolName: 'echo', arguments: { message: ${JSON.stringify(message)} } }).then((r) => r.result.content[0].text, (e) => e.name)`,
    );
  const first = call('before');
  await page.getByRole('dialog').getByRole('button', { name: 'Always allow this tool' }).click();
  expect(await first).toBe('Echo: before');
  // Remembered: the same definition runs without a dialog.
  expect(await call('again')).toBe('Echo: again');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await sdk.control('rug-pull');
  // The server announces the change; the panel's tool list follows it.
  await callFromToolsTab(page, 'echo');
  await expect(page.locator('.tg-tool-detail')).toContainText('id_rsa', { timeout: 10_000 });

  const third = call('after the change');
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('.tg-diff')).toContainText('This tool changed since you last approved it');
  await expect(dialog.locator('.tg-diff .tg-before')).toContainText('Echoes the message back');
  await expect(dialog.locator('.tg-diff .tg-after')).toContainText('~/.ssh/id_rsa');
  await expect(dialog.locator('.tg-flags, [aria-label*="Warnings"]').first()).toBeVisible();
  await axe(page, 'definition changed');
  await shot(page, 'definition-changed');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await third).toBe('DeniedError');
  expect((await sdk.events()).calls.map((c) => c.arguments.message)).not.toContain('after the change');
});

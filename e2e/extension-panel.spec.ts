/**
 * The extension's side panel as a new user meets it (issue 19, item 4), built and loaded unpacked:
 * in dark mode the page around the panel is dark too, and at 400 px (a side panel's usual width)
 * nothing overflows, the audit table included. The Tools form follows a call made through the
 * service worker's controller (which does not report invocation ids over the wire) to its result.
 *
 * Then the views for people who debug servers, in the side panel too: ping (timed by the worker,
 * reaching the server) and Inspect, whose exchange and log messages live in the worker and reach
 * the panel as they grow, shown redacted.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type LoadedExtension, launchWithExtension } from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';
import { callFromPanel, serverIdOf } from './support/side-panel.js';
import { fillServerUrl } from './support/widget-page.js';

test.describe.configure({ mode: 'serial' });

let sdk: Peer;
let everything: Peer;
let extension: LoadedExtension;
test.beforeAll(async () => {
  [sdk, everything, extension] = await Promise.all([
    startPeer('sdk1-stateful-sse'),
    startPeer('everything-streamable'),
    launchWithExtension(),
  ]);
});
test.afterAll(async () => {
  await Promise.all([sdk?.stop(), everything?.stop(), extension?.close()]);
});

/** Horizontal overflow of the side panel page and of the panel inside it (0 when none). */
function overflow(panel: Page) {
  return panel.evaluate(() => {
    const root = document.getElementById('toolgate')?.shadowRoot?.querySelector('.tg-root') as HTMLElement;
    const doc = document.documentElement;
    return { page: doc.scrollWidth - doc.clientWidth, panel: root.scrollWidth - root.clientWidth };
  });
}

test('dark to the edge in dark mode, nothing overflows at 400 px, and the form shows its call through the worker', async () => {
  const panel = await extension.openPanel();
  await panel.setViewportSize({ width: 400, height: 900 });
  await panel.emulateMedia({ colorScheme: 'dark' });
  await expect(panel.getByRole('tab', { name: 'Servers' })).toBeVisible();
  const background = (selector: 'body' | 'panel') =>
    panel.evaluate((which) => {
      const element = which === 'body' ? document.body : document.getElementById('toolgate')!;
      return getComputedStyle(element).backgroundColor;
    }, selector);
  // The panel's own dark background (#0d1117, on its host element) reaches the page's edges.
  expect(await background('panel')).toBe('rgb(13, 17, 23)');
  expect(await background('body')).toBe('rgb(13, 17, 23)');
  await panel.emulateMedia({ colorScheme: 'light' });
  expect(await background('body')).toBe('rgb(255, 255, 255)');
  await panel.emulateMedia({ colorScheme: 'dark' });

  await fillServerUrl(panel, sdk.url);
  await panel.getByRole('button', { name: 'Add server' }).click();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(1, { timeout: 20_000 });

  await panel.getByRole('tab', { name: 'Tools' }).click();
  await panel.getByLabel('Search tools').fill('echo');
  await panel.locator('.tg-tool-button', { hasText: /^echo\b/ }).click();
  const form = panel.locator('.tg-try');
  await form.getByLabel('message (required)').fill(`through the worker ${'z'.repeat(80)}`);
  await form.getByRole('button', { name: /^Call / }).click();
  // The click on Call is the person's approval, in the side panel as in the widget: no dialog.
  await expect(form.locator('.tg-result')).toContainText('Echo: through the worker');
  await expect(panel.getByRole('dialog')).toHaveCount(0);
  expect((await sdk.events()).calls.map((call) => call.arguments.message)).toContainEqual(
    expect.stringContaining('through the worker'),
  );

  for (const tab of [
    'Servers',
    'Tools',
    /Activity/,
    'Audit log',
    'Approvals',
    'Rules',
    'Inspect',
    'Sites',
  ] as const) {
    await panel.getByRole('tab', { name: tab }).click();
    if (tab === 'Audit log') await expect(panel.locator('.tg-log-table tbody tr')).toHaveCount(1);
    expect(await overflow(panel), String(tab)).toEqual({ page: 0, panel: 0 });
    const axe = await new AxeBuilder({ page: panel }).analyze();
    expect(axe.violations.map((v) => `${String(tab)}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  }
  await panel.getByRole('tab', { name: 'Audit log' }).click();
  await panel.screenshot({ path: 'test-results/screenshots/extension-dark-400px-audit.png', fullPage: true });
  await panel.close();
});

const SECRET_URL = 'https://alice:hunter2@example.com/files?api_key=abc123&page=2';

test('ping and Inspect in the side panel: the worker times the round trip; its exchange and log messages show, redacted', async () => {
  const panel = await extension.openPanel();
  const sdkRow = panel.locator(`[data-server="${serverIdOf(sdk.url)}"]`);
  await expect(sdkRow).toContainText('connected', { timeout: 20_000 });

  const pings = async () => (await sdk.events()).messages.filter((m) => m.method === 'ping').length;
  const pingsBefore = await pings();
  await sdkRow.getByRole('button', { name: 'Ping' }).click();
  await expect(sdkRow.locator('.tg-ping')).toHaveText(/^\d+(\.\d)? ms$/);
  expect(await pings()).toBe(pingsBefore + 1);

  await callFromPanel(panel, 'echo', { button: /^echo\b/, fill: { 'message (required)': SECRET_URL } });
  await panel.getByRole('tab', { name: 'Inspect' }).click();
  const picker = panel.getByLabel('Server', { exact: true });
  await picker.selectOption(serverIdOf(sdk.url));
  const messages = panel.getByRole('list', { name: 'JSON-RPC messages' });
  await expect(messages.locator('summary').filter({ hasText: /^→ Sent: ping #\d+/ })).toHaveCount(1);
  // Newest first: this test's call (the first test's is below it).
  await messages
    .locator('summary')
    .filter({ hasText: /tools\/call #\d+ \(echo\)/ })
    .first()
    .click();
  // The request first, its response paired after it.
  const json = messages.locator('details[open] .tg-text').first();
  await expect(json).toContainText('https://***@example.com/files?api_key=***&page=2');
  await expect(messages).not.toContainText('hunter2');
  await expect(messages).not.toContainText('abc123');

  // server-everything speaks logging: the panel asks it (through the worker) for everything from debug up.
  await panel.getByRole('tab', { name: 'Servers' }).click();
  await fillServerUrl(panel, everything.url);
  await panel.getByRole('button', { name: 'Add server' }).click();
  await expect(panel.locator(`[data-server="${serverIdOf(everything.url)}"]`)).toContainText('connected', {
    timeout: 20_000,
  });
  await panel.getByRole('tab', { name: 'Inspect' }).click();
  await picker.selectOption(serverIdOf(everything.url));
  await panel.getByLabel('Ask the server for').selectOption('debug');
  await expect(messages.locator('summary').filter({ hasText: /logging\/setLevel #\d+/ })).toHaveCount(1);
  await callFromPanel(panel, 'toggle-simulated-logging', { button: /Toggle Simulated Logging/ });
  await panel.getByRole('tab', { name: 'Inspect' }).click();
  await picker.selectOption(serverIdOf(everything.url));
  const lines = panel.getByRole('list', { name: 'Log messages' }).getByRole('listitem');
  await expect(lines.first()).toContainText(/level[- ]message/i, { timeout: 15_000 });
  expect(await overflow(panel)).toEqual({ page: 0, panel: 0 });
  const axe = await new AxeBuilder({ page: panel }).analyze();
  expect(axe.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  await callFromPanel(panel, 'toggle-simulated-logging', { button: /Toggle Simulated Logging/ });
  await panel.close();
});

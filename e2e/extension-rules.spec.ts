/**
 * The Rules tab in the extension's side panel (issue 29), built and loaded unpacked: the rules live
 * in the service worker's policy and reach the panel over its port. A rule written in the panel is
 * tested on the worker's audit log, decides the next call (the confirmation says which rule asked),
 * is named in the audit drawer, is ordered, exported, imported and deleted, and is still there in a
 * newly opened panel.
 */
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { type LoadedExtension, launchWithExtension } from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';
import { callFromPanel, serverIdOf, startPanelCall } from './support/side-panel.js';
import { fillServerUrl } from './support/widget-page.js';

test.describe.configure({ mode: 'serial' });

let sdk: Peer;
let extension: LoadedExtension;
test.beforeAll(async () => {
  [sdk, extension] = await Promise.all([startPeer('sdk1-stateful-json'), launchWithExtension()]);
});
test.afterAll(async () => {
  await Promise.all([sdk?.stop(), extension?.close()]);
});

const ruleNames = (panel: Page) =>
  panel.getByRole('list', { name: 'Your rules, in order' }).locator('li strong');
const rulesStatus = (panel: Page) => panel.getByRole('region', { name: 'Rules' }).getByRole('status').first();

test('rules in the side panel: written, tested on the worker’s log, deciding, named, ordered, shared and deleted', async () => {
  const panel = await extension.openPanel();
  await fillServerUrl(panel, sdk.url);
  await panel.getByRole('button', { name: 'Add server' }).click();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(1, { timeout: 20_000 });
  const server = serverIdOf(sdk.url);
  expect(
    await callFromPanel(panel, 'echo', { button: /^echo\b/, fill: { 'message (required)': 'before' } }),
  ).toContain('Echo: before');

  await panel.getByRole('tab', { name: 'Rules' }).click();
  await panel.getByRole('button', { name: 'New rule' }).click();
  const form = panel.getByRole('form', { name: 'New rule' });
  await form.getByLabel('Name', { exact: true }).fill('Ask before echo');
  await form.getByLabel('Effect').selectOption('ask');
  await form.getByLabel('Caller', { exact: true }).selectOption('person');
  await form.getByLabel('Server (id, or * for every server)').fill(server);
  await form.getByLabel(/^Tool/).fill('echo');
  await form.getByRole('button', { name: 'Test on past calls' }).click();
  await expect(form.getByRole('status')).toHaveText(
    'This rule would have asked you about 1 of the last 1 call.',
  );
  await form.getByRole('button', { name: 'Save rule' }).click();
  await expect(ruleNames(panel)).toHaveText(['Ask before echo']);

  // The rule asks about the person's own call: the confirmation says which rule.
  const result = await startPanelCall(panel, 'echo', {
    button: /^echo\b/,
    fill: { 'message (required)': 'after' },
  });
  const dialog = panel.getByRole('dialog');
  await dialog.getByText('Why was I asked?').click();
  await expect(dialog.locator('details.tg-why')).toContainText(
    'Your rule “Ask before echo” asks about "echo"',
  );
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(result).toContainText('Echo: after');

  await panel.getByRole('tab', { name: 'Audit log' }).click();
  await panel.locator('.tg-log-table tbody tr').first().locator('td[data-label="Server"]').click();
  const drawer = panel.getByRole('dialog', { name: /echo on/ });
  await expect(drawer).toContainText('Your rule “Ask before echo” asks about "echo"');
  await drawer.getByRole('button', { name: 'Close' }).click();

  // A second rule, by import; then order, export, delete.
  await panel.getByRole('tab', { name: 'Rules' }).click();
  const shared = JSON.stringify({
    format: 'toolgate-rules',
    version: 1,
    rules: [{ verdict: 'deny', server: '*', tool: 'delete_*', name: 'No deletes' }],
  });
  const picker = panel.getByLabel('Import rules from a file');
  await picker.setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from('[{"tool": 3}]'),
  });
  await expect(panel.getByRole('alert')).toContainText('Nothing was imported from bad.json');
  await picker.setInputFiles({
    name: 'team.json',
    mimeType: 'application/json',
    buffer: Buffer.from(shared),
  });
  await expect(rulesStatus(panel)).toHaveText('Imported 1 rule from team.json at the end of your list.');
  await expect(ruleNames(panel)).toHaveText(['Ask before echo', 'No deletes']);
  await panel.getByRole('button', { name: 'Move up: No deletes' }).focus();
  await panel.keyboard.press('Enter');
  await expect(ruleNames(panel)).toHaveText(['No deletes', 'Ask before echo']);

  const download = panel.waitForEvent('download');
  await panel.getByRole('button', { name: 'Export rules' }).click();
  const exported = JSON.parse(await readFile((await (await download).path()) as string, 'utf8'));
  expect(exported.rules.map((rule: { name: string }) => rule.name)).toEqual([
    'No deletes',
    'Ask before echo',
  ]);

  await panel.getByRole('button', { name: 'Delete: Ask before echo' }).click();
  await expect(ruleNames(panel)).toHaveText(['No deletes']);

  // The worker keeps them: a new panel lists the same.
  await panel.close();
  const again = await extension.openPanel();
  await again.getByRole('tab', { name: 'Rules' }).click();
  await expect(ruleNames(again)).toHaveText(['No deletes']);
});

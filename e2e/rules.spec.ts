/**
 * The Rules tab in the widget, in Chromium against our SDK 1.x server (issue 29): a person writes a
 * rule without code, tests it on the audit log's past calls before saving, edits, orders (by
 * keyboard), deletes, exports and imports rules; the rules persist in IndexedDB across a reload.
 * Every decision says what made it: the approval dialog answers "Why was I asked?" and the audit
 * drawer names the rule. The server's own record of calls is the evidence of what ran.
 */
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { type Peer, startPeer } from './support/peers.js';
import { axe, focusInPanel, horizontalOverflow, openTab, openWidget, shot } from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });

let sdk: Peer;
test.beforeAll(async () => {
  sdk = await startPeer('sdk1-stateful-json');
});
test.afterAll(async () => {
  await sdk?.stop();
});

const open = (page: Page) => openWidget(page, [{ url: sdk.url, id: 'alpha' }]);

/** Starts a call from the host app "Notes"; resolves with 'ok' or the error's name. */
function hostCall(page: Page, toolName: string, args: Record<string, unknown>): Promise<string> {
  return page.evaluate(
    ([tool, a]) =>
      (window as unknown as { toolgate: { call(request: object): Promise<unknown> } }).toolgate
        .call({ serverId: 'alpha', toolName: tool, arguments: a, caller: { kind: 'host', label: 'Notes' } })
        .then(
          () => 'ok',
          (error: Error) => error.name,
        ),
    [toolName, args] as const,
  );
}

/** A host call answered in the approval dialog. */
async function answered(page: Page, toolName: string, args: Record<string, unknown>, answer: string) {
  const done = hostCall(page, toolName, args);
  await page.getByRole('dialog').getByRole('button', { name: answer, exact: true }).click();
  return done;
}

/** The Rules view's own status line (the editor has its own for its test). */
const rulesStatus = (page: Page) => page.getByRole('region', { name: 'Rules' }).getByRole('status').first();

const ruleNames = (page: Page) =>
  page.getByRole('list', { name: 'Your rules, in order' }).locator('li strong');

test('a rule is written, tested on past calls, decides, is named by the dialog and the drawer, edited, ordered and deleted', async ({
  page,
}) => {
  await open(page);
  const dialog = page.getByRole('dialog');

  // Before any rule, "Why was I asked?" names the default.
  const first = hostCall(page, 'echo', { message: 'hello' });
  await dialog.getByText('Why was I asked?').click();
  await expect(dialog.locator('details.tg-why')).toContainText(
    /No rule allows this tool and no approval is remembered for the app \(?Notes\)?, so your default is to ask/,
  );
  await dialog.getByRole('button', { name: 'Allow once', exact: true }).click();
  expect(await first).toBe('ok');
  expect(await answered(page, 'echo', { message: 'bye' }, 'Allow once')).toBe('ok');
  expect(await answered(page, 'add', { a: 2, b: 3 }, 'Allow once')).toBe('ok');

  await openTab(page, 'Rules');
  await expect(page.getByText('No rules yet')).toBeVisible();
  await page.getByRole('button', { name: 'New rule' }).click();
  const form = page.getByRole('form', { name: 'New rule' });
  // What the policy refuses is said field by field, and nothing is saved.
  await form.getByLabel('Server (id, or * for every server)').fill('al*');
  await form.getByRole('button', { name: 'Save rule' }).click();
  await expect(form.getByRole('alert')).toContainText('server contains "*"');
  await form.getByLabel('Name', { exact: true }).fill('Hello only');
  await form.getByLabel('Effect').selectOption('allow');
  await form.getByLabel('Caller', { exact: true }).selectOption('host');
  await form.getByLabel('Server (id, or * for every server)').fill('alpha');
  await form.getByLabel(/^Tool/).fill('echo');
  await form.getByRole('button', { name: 'Add condition' }).click();
  await form.getByLabel('Argument 1').fill('message');
  await form.getByLabel('Test 1').selectOption('equals');
  await form.getByLabel('Value 1').fill('hello');
  await form.getByRole('button', { name: 'Test on past calls' }).click();
  await expect(form.getByRole('status')).toHaveText('This rule would have allowed 1 of the last 3 calls.');
  await axe(page, 'rule editor');
  await form.getByRole('button', { name: 'Save rule' }).click();
  await expect(rulesStatus(page)).toHaveText(
    'Saved the rule “Hello only”. This rule would have allowed 1 of the last 3 calls.',
  );
  await expect(ruleNames(page)).toHaveText(['Hello only']);

  // The rule decides: no dialog, the call reaches the server; a neighbour is still asked.
  expect(await hostCall(page, 'echo', { message: 'hello' })).toBe('ok');
  expect((await sdk.events()).calls.filter((c) => c.arguments.message === 'hello')).toHaveLength(2);

  // A second rule asks about small sums; the dialog says which rule asked.
  await page.getByRole('button', { name: 'New rule' }).click();
  await form.getByLabel('Name', { exact: true }).fill('Small sums');
  await form.getByLabel('Effect').selectOption('ask');
  await form.getByLabel('Server (id, or * for every server)').fill('alpha');
  await form.getByLabel(/^Tool/).fill('add');
  await form.getByRole('button', { name: 'Add condition' }).click();
  await form.getByLabel('Argument 1').fill('a');
  await form.getByLabel('Test 1').selectOption('range');
  await form.getByLabel('From 1').fill('0');
  await form.getByLabel('To 1').fill('10');
  await form.getByRole('button', { name: 'Save rule' }).click();
  await expect(ruleNames(page)).toHaveText(['Hello only', 'Small sums']);
  const asked = hostCall(page, 'add', { a: 1, b: 1 });
  await dialog.getByText('Why was I asked?').click();
  await expect(dialog.locator('details.tg-why')).toContainText(
    'Your rule “Small sums” asks about "add" on "alpha"',
  );
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  expect(await asked).toBe('DeniedError');

  // The audit drawer names the rule that allowed the call.
  await openTab(page, 'Audit log');
  const rows = page.locator('.tg-log-table tbody tr');
  await rows.filter({ hasText: 'echo' }).first().locator('td[data-label="Server"]').click();
  const drawer = page.getByRole('dialog', { name: /echo on/ });
  await expect(drawer).toContainText('Decided by');
  await expect(drawer).toContainText(
    'Your rule “Hello only” allows "echo" on "alpha" for the app when message is "hello"',
  );
  await drawer.getByRole('button', { name: 'Close' }).click();

  // Order by keyboard: the moved rule keeps focus.
  await openTab(page, 'Rules');
  await page.getByRole('button', { name: 'Move down: Hello only' }).focus();
  await page.keyboard.press('Enter');
  await expect(ruleNames(page)).toHaveText(['Small sums', 'Hello only']);
  await expect.poll(async () => (await focusInPanel(page))?.label).toBe('Move up: Hello only');

  // Edit: a list of values instead of one; the list keeps its order.
  await page.getByRole('button', { name: 'Edit: Hello only' }).click();
  const edit = page.getByRole('form', { name: 'Edit rule' });
  await expect(edit.getByLabel('Value 1')).toHaveValue('hello');
  await edit.getByLabel('Name', { exact: true }).fill('Greetings');
  await edit.getByLabel('Test 1').selectOption('in');
  await edit.getByLabel('Values 1 (comma-separated)').fill('hello, hi');
  await edit.getByRole('button', { name: 'Save rule' }).click();
  await expect(ruleNames(page)).toHaveText(['Small sums', 'Greetings']);
  expect(await hostCall(page, 'echo', { message: 'hi' })).toBe('ok');

  // Test from the list, then delete.
  await page.getByRole('button', { name: 'Test: Greetings' }).click();
  await expect(rulesStatus(page)).toContainText('“Greetings”: This rule would have allowed 3 of the last');
  await page.getByRole('button', { name: 'Delete: Small sums' }).click();
  await expect(ruleNames(page)).toHaveText(['Greetings']);

  // Rules persist in IndexedDB.
  await open(page);
  await openTab(page, 'Rules');
  await expect(ruleNames(page)).toHaveText(['Greetings']);
});

test('rules export as JSON and import back; a bad file imports nothing and says why', async ({ page }) => {
  await open(page);
  await openTab(page, 'Rules');
  await page.getByRole('button', { name: 'New rule' }).click();
  const form = page.getByRole('form', { name: 'New rule' });
  await form.getByLabel('Name', { exact: true }).fill('No deletes under etc');
  await form.getByLabel('Effect').selectOption('deny');
  await form.getByLabel(/^Tool/).fill('delete_*');
  await form.getByRole('button', { name: 'Add condition' }).click();
  await form.getByLabel('Argument 1').fill('path');
  await form.getByLabel('Test 1').selectOption('under');
  await form.getByLabel('Folder 1').fill('/etc');
  await form.getByLabel('Expires (empty: never)').fill('2099-01-01T09:30');
  await form.getByRole('button', { name: 'Save rule' }).click();
  await expect(ruleNames(page)).toHaveText(['No deletes under etc']);
  await expect(page.getByRole('list', { name: 'Your rules, in order' })).toContainText('Until ');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export rules' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('toolgate-rules.json');
  const text = await readFile((await file.path()) as string, 'utf8');
  expect(JSON.parse(text)).toEqual({
    format: 'toolgate-rules',
    version: 1,
    rules: [
      {
        verdict: 'deny',
        server: '*',
        tool: 'delete_*',
        name: 'No deletes under etc',
        when: [{ path: 'path', op: 'under', value: '/etc' }],
        expiresAt: expect.any(Number),
      },
    ],
  });
  expect(new Date(JSON.parse(text).rules[0].expiresAt).getFullYear()).toBe(2099);

  const picker = page.getByLabel('Import rules from a file');
  const bad = JSON.stringify({
    format: 'toolgate-rules',
    version: 1,
    rules: [
      { verdict: 'allow', server: '*', tool: 'read_*', name: 'Fine' },
      { verdict: 'sometimes', server: '*', tool: 'x' },
    ],
  });
  await picker.setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Nothing was imported from bad.json; your rules are unchanged.');
  await expect(alert).toContainText('Rule 2: verdict must be "allow", "ask" or "deny"');
  await expect(ruleNames(page)).toHaveText(['No deletes under etc']);
  await picker.setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"rules": ['),
  });
  await expect(alert).toContainText('The file is not JSON');

  await picker.setInputFiles({ name: 'team.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(rulesStatus(page)).toHaveText('Imported 1 rule from team.json at the end of your list.');
  await expect(alert).toHaveCount(0);
  await expect(ruleNames(page)).toHaveText(['No deletes under etc', 'No deletes under etc']);
});

test('at 400 px the editor, with a condition of each kind, fits and is axe clean in dark', async ({
  page,
}) => {
  await page.setViewportSize({ width: 400, height: 900 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await open(page);
  await openTab(page, 'Rules');
  await page.getByRole('button', { name: 'New rule' }).click();
  const form = page.getByRole('form', { name: 'New rule' });
  await form.getByLabel('Caller', { exact: true }).selectOption('site');
  for (const [index, op] of ['equals', 'in', 'matches', 'range', 'under', 'exists'].entries()) {
    await form.getByRole('button', { name: 'Add condition' }).click();
    await form.getByLabel(`Test ${index + 1}`).selectOption(op);
  }
  expect(await horizontalOverflow(page)).toEqual({ page: 0, panel: 0 });
  await axe(page, 'rule editor at 400 px, dark');
  await shot(page, 'rules-editor-400-dark');
});

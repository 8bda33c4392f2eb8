/**
 * The approval dialog shows exactly what will be sent (issue 13, item 2), in Chromium, through the
 * real widget against a real SDK server (e2e/fixtures/approval/peer.mjs): what the server received
 * is read back from the server itself. Multi-line arguments in a text area that keeps every
 * character not edited; hidden characters escaped and flagged; Deny the default on destructive and
 * open-world tools; undeclared arguments in the form; a long poisoned change shown whole with its
 * flag; unchecked arguments allowed only after an explicit acknowledgement, recorded in the audit
 * log; the approval countdown; "Asked by" naming the caller.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type ApprovalPeer, startApprovalPeer } from './fixtures/approval/start-peer.js';
import { untilArmed } from './support/dialogs.js';
import { serveFixture } from './support/fixture-page.js';

const ORIGIN = 'https://approval.test';
const SERVER = 'appr';
test.use({ permissions: ['local-network-access'] });
// The last test changes a tool on the shared server for every later session.
test.describe.configure({ mode: 'serial' });

let peer: ApprovalPeer;
test.beforeAll(async () => {
  peer = await startApprovalPeer();
});
test.afterAll(async () => {
  await peer?.stop();
});

async function openPanel(page: Page, query = ''): Promise<void> {
  await serveFixture(page, ORIGIN, 'e2e/fixtures/approval/page.ts', 'Toolgate approvals');
  await page.goto(`${ORIGIN}/?server=${encodeURIComponent(peer.url)}&id=${SERVER}${query}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await expect(page.locator(`[data-server="${SERVER}"]`)).toContainText('connected', { timeout: 20_000 });
}

/** Starts a call from the page (the person's own unless a caller is given); resolves to its text or error name. */
function call(page: Page, tool: string, args: Record<string, unknown>, caller?: Record<string, string>) {
  return page.evaluate(
    `window.toolgate.call(${JSON.stringify({ serverId: SERVER, toolName: tool, arguments: args, ...(caller ? { caller } : {}) })}).then((r) => r.result.content[0].text, (e) => e.name)`,
  ) as Promise<string>;
}

/** axe on the whole page, and a screenshot of the screen for a reviewer (test-results/screenshots/). */
async function axe(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${screen}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  await page.screenshot({
    path: `test-results/screenshots/approval-${screen.replace(/\W+/g, '-')}.png`,
    fullPage: true,
  });
}

test('a multi-line argument is shown in a text area and keeps its newlines after an edit; Deny is the default', async ({
  page,
}) => {
  await openPanel(page);
  const command = 'line one\nline two\nrm -rf /';
  const result = call(page, 'run_command', { command });
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('run_command');
  // A destructive tool: Deny is first, primary and focused; no Allow button is the default.
  await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();
  await expect(dialog.locator('.tg-actions button').first()).toHaveText('Deny');
  await expect(dialog.getByRole('button', { name: 'Deny' })).toHaveClass(/tg-primary/);
  await expect(dialog.getByRole('button', { name: 'Allow once' })).not.toHaveClass(/tg-allow/);
  await expect(dialog).toContainText('Asked by you.');
  await expect(dialog).not.toContainText('you (you)');
  await expect(dialog.locator('.tg-countdown')).toHaveText(/^Denied automatically in (10:00|9:\d\d)$/);
  await axe(page, 'destructive tool');

  const field = dialog.getByLabel('command (required)');
  expect(await field.evaluate((element) => element.tagName)).toBe('TEXTAREA');
  await expect(field).toHaveValue(command);
  await field.focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' #');
  await expect(dialog.getByRole('status')).toContainText('(edited)');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  expect(await result).toContain('run_command ran');
  expect(await peer.calls()).toContainEqual({
    tool: 'run_command',
    arguments: { command: 'line one\nline two\nrm -rf / #' },
  });
});

test('on an open-world tool Enter on the focused default denies', async ({ page }) => {
  await openPanel(page);
  const result = call(page, 'send_message', { to: 'ada@example.com', body: 'Enter test' });
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();
  await expect(dialog).toContainText('reaches outside systems');
  await untilArmed(dialog);
  await page.keyboard.press('Enter');
  expect(await result).toBe('DeniedError');
  expect((await peer.calls()).map((c) => c.arguments.body)).not.toContain('Enter test');
});

test('control and invisible characters are shown escaped and flagged, and kept after an edit', async ({
  page,
}) => {
  await openPanel(page);
  const command = 'cat notes\u202Etxt.exe\u200B\r\nrm -rf ~';
  const result = call(page, 'run_command', { command });
  const dialog = page.getByRole('dialog');
  const note = dialog.locator('.tg-hidden-note');
  await expect(note.locator('.tg-warning')).toContainText('U+202E RIGHT-TO-LEFT OVERRIDE');
  await expect(note.locator('.tg-warning')).toContainText('U+200B ZERO WIDTH SPACE');
  await expect(note.locator('.tg-warning')).toContainText('U+000D CARRIAGE RETURN');
  await expect(note.locator('.tg-escaped')).toHaveText('cat notes\\u202Etxt.exe\\u200B\\r\nrm -rf ~');
  await expect(note.locator('mark.tg-hidden-char')).toHaveText(['\\u202E', '\\u200B', '\\r']);
  await expect(dialog.locator('.tg-hidden-summary')).toContainText('U+202E RIGHT-TO-LEFT OVERRIDE');
  await axe(page, 'hidden characters');

  // The JSON view writes them as escapes too (and parses back to the same value).
  await dialog.getByRole('button', { name: 'JSON' }).click();
  await expect(dialog.getByLabel('Arguments as JSON')).toHaveValue(
    '{\n  "command": "cat notes\\u202Etxt.exe\\u200B\\r\\nrm -rf ~"\n}',
  );
  await dialog.getByRole('button', { name: 'Form' }).click();

  const field = dialog.getByLabel('command (required)');
  await field.focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('/tmp');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  expect(await result).toContain('run_command ran');
  expect(await peer.calls()).toContainEqual({
    tool: 'run_command',
    arguments: { command: 'cat notes\u202Etxt.exe\u200B\r\nrm -rf ~/tmp' },
  });
});

test('undeclared arguments are visible in the form, flagged, and refused where the schema forbids them', async ({
  page,
}) => {
  await openPanel(page);
  // Where the schema allows them, they are shown in the form, flagged, and sent as shown.
  const lenient = call(
    page,
    'lookup',
    { word: 'apple', lang: 'en' },
    { kind: 'host', label: 'dictionary app' },
  );
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Asked by the app (dictionary app).');
  const section = dialog.getByRole('group', { name: 'Undeclared arguments' });
  await expect(section.getByLabel('lang (undeclared)')).toHaveValue('"en"');
  await expect(section).toContainText('will be sent as shown');
  await expect(dialog.getByLabel('word')).toHaveValue('apple');
  await axe(page, 'undeclared arguments');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  expect(await lenient).toContain('lookup ran');
  expect(await peer.calls()).toContainEqual({ tool: 'lookup', arguments: { word: 'apple', lang: 'en' } });

  // Where the schema forbids them, a proposal carrying one is refused before anyone is asked...
  const refused = call(page, 'send_message', {
    to: 'ada@example.com',
    body: 'hi',
    bcc: 'eve@attacker.example',
  });
  expect(await refused).toBe('InvalidArgumentsError');
  // ...and one added in the dialog is shown as refused by validation, and blocks Allow until removed.
  const result = call(page, 'send_message', { to: 'ada@example.com', body: 'hello' });
  await dialog.getByRole('button', { name: 'JSON' }).click();
  await dialog
    .getByLabel('Arguments as JSON')
    .fill('{"to": "ada@example.com", "body": "hello", "bcc": "eve@attacker.example"}');
  await dialog.getByRole('button', { name: 'Form' }).click();
  const forbidden = dialog.getByRole('group', { name: 'Undeclared arguments' });
  await expect(forbidden).toContainText('validation will refuse this call');
  await expect(forbidden.getByLabel('bcc (undeclared, refused by validation)')).toHaveValue(
    '"eve@attacker.example"',
  );
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeDisabled();
  await forbidden.getByRole('button', { name: 'Remove argument bcc' }).click();
  await expect(forbidden).toHaveCount(0);
  await expect(dialog.getByRole('status')).toContainText('Arguments match the tool’s schema.');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  expect(await result).toContain('send_message ran');
  const sent = (await peer.calls()).filter((c) => c.tool === 'send_message');
  expect(sent).toEqual([{ tool: 'send_message', arguments: { to: 'ada@example.com', body: 'hello' } }]);
});

test('unchecked arguments: Allow waits for the acknowledgement; the call goes through and the log says so', async ({
  page,
}) => {
  await openPanel(page);
  const result = call(page, 'annotate', { note: 'acknowledged note' });
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('status')).toContainText(
    'Cannot be checked: unsupported JSON Schema dialect',
  );
  const allow = dialog.getByRole('button', { name: 'Allow once' });
  await expect(allow).toBeDisabled();
  const tick = dialog.getByRole('checkbox', {
    name: /^I understand these arguments could not be checked against the tool’s schema \(unsupported JSON Schema dialect/,
  });
  await expect(tick).not.toBeChecked();
  await axe(page, 'unchecked arguments');
  await tick.check();
  await expect(allow).toBeEnabled();
  await expect(dialog.getByRole('button', { name: 'Always allow this tool' })).toBeEnabled();
  await allow.click();
  expect(await result).toContain('annotate ran');
  expect(await peer.calls()).toContainEqual({ tool: 'annotate', arguments: { note: 'acknowledged note' } });

  await page.getByRole('tab', { name: 'Audit log' }).click();
  const row = page.locator('.tg-log-table tbody tr', { hasText: 'annotate' });
  await expect(row).toContainText('Succeeded');
  await row.getByRole('button', { name: /Details/ }).click();
  // Who approved, in words; the stored approver ("you, in the approval dialog, confirming …") is in the raw events.
  await expect(page.getByRole('dialog', { name: /annotate on/ })).toContainText(
    'You approved in the approval dialog, confirming you checked the arguments yourself',
  );
});

test('the countdown shows how long the gate still waits, ticks, and announces the last minute once', async ({
  page,
}) => {
  await openPanel(page, '&approvalTimeoutMs=70000');
  const result = call(page, 'lookup', { word: 'soon' });
  const dialog = page.getByRole('dialog');
  const countdown = dialog.locator('.tg-countdown');
  await expect(countdown).toHaveAttribute('aria-live', 'off');
  await expect(countdown).toHaveText(/^Denied automatically in 1:[01]\d$/);
  const first = await countdown.textContent();
  await expect.poll(() => countdown.textContent()).not.toBe(first);
  const announcement = dialog.locator('p[aria-live=polite]');
  await expect(announcement).toHaveText('');
  await expect(announcement).toHaveText('One minute left: this call will then be denied automatically.', {
    timeout: 25_000,
  });
  await expect(countdown).toHaveText(/^Denied automatically in 0:\d\d$/);
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await result).toBe('DeniedError');
});

// Last: the poisoned definition stays on the server for every later session.
test('a long poisoned addition to a changed definition is shown in full in the diff, with its flag', async ({
  page,
}) => {
  await openPanel(page);
  const first = call(page, 'lookup', { word: 'before' });
  await page.getByRole('dialog').getByRole('button', { name: 'Always allow this tool' }).click();
  expect(await first).toContain('lookup ran');

  const appended = (await peer.poison()).trim();
  expect(appended.length).toBeGreaterThan(300);
  // The panel follows tools/list_changed: wait until it shows the new text before calling again.
  await page.getByRole('tab', { name: 'Tools' }).click();
  await page.getByLabel('Search tools').fill('lookup');
  await page.locator('.tg-tool-button', { hasText: /^lookup\b/ }).click();
  await expect(page.locator('.tg-tool-detail')).toContainText('id_rsa', { timeout: 10_000 });

  const second = call(page, 'lookup', { word: 'after' });
  const dialog = page.getByRole('dialog');
  const diff = dialog.locator('.tg-diff');
  await expect(diff).toContainText('This tool changed since you last approved it');
  await expect(diff.locator('.tg-after').first()).toContainText(appended);
  await expect(diff).not.toContainText('more characters');
  const flags = diff.getByRole('list', { name: 'Warnings about the new description' });
  await expect(flags).toContainText('instruction-like tag <IMPORTANT>');
  await expect(flags).toContainText('credential file');
  await diff.getByText('The new definition in full').click();
  await expect(diff.locator('.tg-full-definition pre')).toContainText(
    `Looks up a word in the dictionary. ${appended}`,
  );
  await axe(page, 'poisoned change');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await second).toBe('DeniedError');
  expect((await peer.calls()).map((c) => c.arguments.word)).not.toContain('after');
});

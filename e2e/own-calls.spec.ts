/**
 * One consent per intent (issue 26), in Chromium through the real widget against a real SDK server
 * (e2e/fixtures/approval/peer.mjs, which reports what ran): the person's click on a tool form's Call
 * button is their approval (no dialog, on record as their click with the arguments sent); a
 * destructive tool gets one compact confirmation, Deny first; a call from anyone else (here the
 * host's model) keeps the full dialog, and so does the person's own when the host requires it
 * (`confirmOwnCalls: 'always'`). The form checks itself as the person types, and a form with
 * something to fix sends nothing and records nothing. Ctrl+Enter runs the call.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type ApprovalPeer, startApprovalPeer } from './fixtures/approval/start-peer.js';
import { untilArmed } from './support/dialogs.js';
import { serveFixture } from './support/fixture-page.js';
import { pickTool } from './support/widget-page.js';

const ORIGIN = 'https://own-calls.test';
const SERVER = 'appr';
test.use({ permissions: ['local-network-access'] });
test.describe.configure({ mode: 'serial' });

let peer: ApprovalPeer;
test.beforeAll(async () => {
  peer = await startApprovalPeer();
});
test.afterAll(async () => {
  await peer?.stop();
});

async function openPanel(page: Page, query = ''): Promise<void> {
  await serveFixture(page, ORIGIN, 'e2e/fixtures/approval/page.ts', 'Toolgate own calls');
  await page.goto(`${ORIGIN}/?server=${encodeURIComponent(peer.url)}&id=${SERVER}${query}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await expect(page.locator(`[data-server="${SERVER}"]`)).toContainText('connected', { timeout: 20_000 });
}

const form = (page: Page) => page.locator('.tg-try');
const callButton = (page: Page) => form(page).getByRole('button', { name: /^Call / });

interface Entry {
  toolName: string;
  outcome: string;
  caller: { kind: string };
  decision?: { verdict: string; source: { kind: string; reason?: string } };
  approvedBy?: string;
  argumentsPreview: string;
}

/** The audit log's entries, newest first. */
function auditEntries(page: Page): Promise<Entry[]> {
  return page.evaluate(async () => {
    const { auditLog } = await (
      window as unknown as {
        toolgate: { ready: Promise<{ auditLog: { query(): Promise<{ entries: object[] }> } }> };
      }
    ).toolgate.ready;
    return (await auditLog.query()).entries as Entry[];
  });
}

/** Calls that ran on the server, by tool and word or command. */
async function ran(tool: string): Promise<unknown[]> {
  return (await peer.calls()).filter((call) => call.tool === tool).map((call) => call.arguments);
}

test("a non-destructive tool runs on the person's click, with no dialog, on record as their click", async ({
  page,
}) => {
  await openPanel(page);
  await pickTool(page, 'lookup');
  await form(page).getByLabel('word (required)').fill('own click');
  await callButton(page).click();
  await expect(form(page).locator('.tg-result')).toContainText('lookup ran with {"word":"own click"}');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await ran('lookup')).toContainEqual({ word: 'own click' });

  const [entry] = await auditEntries(page);
  expect(entry).toMatchObject({
    toolName: 'lookup',
    outcome: 'success',
    caller: { kind: 'person' },
    decision: { verdict: 'allow', source: { kind: 'default', reason: 'person-started' } },
    approvedBy: 'you, with the Call button of the tool’s form',
  });
  expect(JSON.parse(entry!.argumentsPreview)).toEqual({ word: 'own click' });
});

test('a destructive tool asks one compact confirmation, Deny first, and Deny sends nothing', async ({
  page,
}) => {
  await openPanel(page);
  await pickTool(page, 'run_command');
  await form(page).getByLabel('command (required)').fill('rm -rf /tmp/own');
  await callButton(page).click();
  const dialog = page.getByRole('dialog', { name: 'run_command on toolgate-approval-peer?' });
  await untilArmed(dialog);
  await expect(dialog).toContainText('command = rm -rf /tmp/own');
  await expect(dialog).toContainText('says it may delete or overwrite things');
  await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();
  // One step: no countdown, no reason to type, no second copy of the form, no remembering.
  await expect(dialog.getByRole('button')).toHaveText(['Deny', 'Confirm']);
  await expect(dialog.getByRole('textbox')).toHaveCount(0);
  await expect(dialog).not.toContainText('Reason if you deny');
  expect(
    (await new AxeBuilder({ page }).analyze()).violations.map((v) => `${v.id} ${v.nodes[0]?.target}`),
  ).toEqual([]);

  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(form(page).locator('.tg-call-outcome')).toHaveAttribute('data-phase', 'done');
  expect(await ran('run_command')).toEqual([]);
  const [entry] = await auditEntries(page);
  expect(entry).toMatchObject({ toolName: 'run_command', outcome: 'denied' });

  // Confirm runs it, with exactly what the form held.
  await form(page).getByLabel('command (required)').fill('echo confirmed');
  await callButton(page).click();
  await untilArmed(dialog);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(form(page).locator('.tg-result')).toContainText(
    'run_command ran with {"command":"echo confirmed"}',
  );
  expect(await ran('run_command')).toEqual([{ command: 'echo confirmed' }]);
});

test("a call from the host's model keeps the full approval dialog", async ({ page }) => {
  await openPanel(page);
  const outcome = page.evaluate(
    `window.toolgate.call(${JSON.stringify({ serverId: SERVER, toolName: 'lookup', arguments: { word: 'from the model' }, caller: { kind: 'host', label: 'the assistant' } })}).then((r) => r.result.content[0].text, (e) => e.name)`,
  ) as Promise<string>;
  const dialog = page.getByRole('dialog');
  await untilArmed(dialog);
  await expect(dialog).toContainText('Asked by the app (the assistant).');
  await expect(dialog.getByLabel('Reason if you deny (sent back to the caller)')).toBeVisible();
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  expect(await outcome).toBe('lookup ran with {"word":"from the model"}');
});

test("the host can require the full dialog for the person's own calls too", async ({ page }) => {
  await openPanel(page, '&confirmOwnCalls=always');
  await pickTool(page, 'lookup');
  await form(page).getByLabel('word (required)').fill('asked anyway');
  await callButton(page).click();
  const dialog = page.getByRole('dialog');
  await untilArmed(dialog);
  await expect(dialog).toContainText('Asked by you.');
  await expect(dialog.getByRole('button', { name: 'Always allow this tool' })).toBeVisible();
  expect(await ran('lookup')).not.toContainEqual({ word: 'asked anyway' });
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(form(page).locator('.tg-result')).toContainText('lookup ran with {"word":"asked anyway"}');
});

test('the form marks what to fix as the person types, and a form with something to fix records nothing', async ({
  page,
}) => {
  await openPanel(page);
  await pickTool(page, 'send_message');
  const to = form(page).getByLabel('to (required)');
  const body = form(page).getByLabel('body (required)');
  // The Call button says why it waits, and stays in the tab order.
  await expect(form(page).getByText('Fix 2 fields to call.')).toBeVisible();
  await expect(callButton(page)).toHaveAttribute('aria-disabled', 'true');
  await expect(callButton(page)).toHaveAccessibleDescription('Fix 2 fields to call.');

  // Typed then emptied: that field says so at once; the other is not marked before Call.
  await to.fill('ada@example.com');
  await expect(form(page).getByText('Fix 1 field to call.')).toBeVisible();
  await to.fill('');
  await expect(to).toHaveAttribute('aria-invalid', 'true');
  await expect(to).toHaveAccessibleDescription('Is required.');
  await expect(body).not.toHaveAttribute('aria-invalid');

  // Call with two fields to fix: both marked, the first focused, nothing sent, nothing recorded.
  await callButton(page).focus();
  await page.keyboard.press('Enter');
  await expect(body).toHaveAttribute('aria-invalid', 'true');
  await expect(to).toBeFocused();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await auditEntries(page)).toEqual([]);
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(page.getByText(/refused/i)).toHaveCount(0);
  expect(await ran('send_message')).toEqual([]);
});

test('Ctrl+Enter in the form runs the call; a plain Enter in a field does not', async ({ page }) => {
  await openPanel(page);
  await pickTool(page, 'lookup');
  const word = form(page).getByLabel('word (required)');
  await word.fill('by keyboard');
  await word.press('Enter');
  await expect(form(page).locator('.tg-call-outcome')).toHaveCount(0);
  await word.press('Control+Enter');
  await expect(form(page).locator('.tg-result')).toContainText('lookup ran with {"word":"by keyboard"}');
});

/**
 * Plain words (issue 26), in Chromium through the real widget against a real SDK server
 * (e2e/fixtures/approval/peer.mjs): a tool's annotations read as the tool list's marks ("Destructive
 * (the server's claim)") in its detail too; the Tools form tells a denial as "You denied this call",
 * not the gate's sentence for callers; and the audit drawer says who decided on each path the gate
 * records (the own click, the own call's confirmation, the approval dialog, the person's denial),
 * with the approver recorded in plain words ("you, in the approval dialog"), never "person (panel)".
 */
import { expect, type Page, test } from '@playwright/test';
import { type ApprovalPeer, startApprovalPeer } from './fixtures/approval/start-peer.js';
import { untilArmed } from './support/dialogs.js';
import { serveFixture } from './support/fixture-page.js';
import { pickTool } from './support/widget-page.js';

const ORIGIN = 'https://plain-words.test';
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

async function openPanel(page: Page): Promise<void> {
  await serveFixture(page, ORIGIN, 'e2e/fixtures/approval/page.ts', 'Toolgate plain words');
  await page.goto(`${ORIGIN}/?server=${encodeURIComponent(peer.url)}&id=${SERVER}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await expect(page.locator(`[data-server="${SERVER}"]`)).toContainText('connected', { timeout: 20_000 });
}

const form = (page: Page) => page.locator('.tg-try');
const callButton = (page: Page) => form(page).getByRole('button', { name: /^Call / });

/** Opens the audit drawer of the newest entry of `tool` and returns it. */
async function openNewest(page: Page, tool: string, outcome: string) {
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const row = page
    .locator('.tg-log-table tbody tr')
    .filter({ has: page.getByRole('button', { name: new RegExp(`^Details of ${tool}`) }) })
    .filter({ hasText: outcome })
    .first();
  await row.getByRole('button', { name: new RegExp(`^Details of ${tool}`) }).click();
  const drawer = page.getByRole('dialog', { name: new RegExp(`${tool} on`) });
  await expect(drawer).toBeVisible();
  return drawer;
}

test("a tool's detail shows the tool list's marks, and the form tells a denial as yours", async ({
  page,
}) => {
  await openPanel(page);
  await pickTool(page, 'run_command');
  const detail = page.locator('.tg-tool-detail');
  await expect(detail.locator('[data-marks]')).toHaveText("Destructive (the server's claim)");
  await expect(detail).not.toContainText('destructiveHint');
  await expect(detail).not.toContainText('(claimed)');
  // The same words as the row in the list.
  await expect(page.locator('.tg-tool-button', { hasText: /^run_command/ }).locator('.tg-badge')).toHaveText(
    "Destructive (the server's claim)",
  );

  await form(page).getByLabel('command (required)').fill('rm -rf /tmp/plain');
  await callButton(page).click();
  const confirmation = page.getByRole('dialog', { name: 'run_command on toolgate-approval-peer?' });
  await untilArmed(confirmation);
  await expect(confirmation).toContainText("says it may delete or overwrite things (the server's claim)");
  await confirmation.getByRole('button', { name: 'Deny' }).click();
  const outcome = form(page).locator('.tg-call-outcome');
  await expect(outcome).toHaveAttribute('data-phase', 'done');
  await expect(outcome).toContainText('You denied this call');
  await expect(outcome).not.toContainText('The person denied');
  await expect(outcome).not.toContainText(SERVER);

  const denied = await openNewest(page, 'run_command', 'Denied');
  await expect(denied).toContainText('Denied by you');
  await page.keyboard.press('Escape');

  // Confirmed: on record as the person's confirmation of their own call.
  await pickTool(page, 'run_command');
  await form(page).getByLabel('command (required)').fill('echo plain');
  await callButton(page).click();
  await untilArmed(confirmation);
  await confirmation.getByRole('button', { name: 'Confirm' }).click();
  await expect(form(page).locator('.tg-result')).toContainText('run_command ran with');
  const confirmed = await openNewest(page, 'run_command', 'Succeeded');
  await expect(confirmed).toContainText('You confirmed your own call');
});

test('the audit drawer says who decided: your own click, or you in the approval dialog', async ({ page }) => {
  await openPanel(page);
  await pickTool(page, 'lookup');
  await form(page).getByLabel('word (required)').fill('by click');
  await callButton(page).click();
  await expect(form(page).locator('.tg-result')).toContainText('lookup ran with {"word":"by click"}');
  const own = await openNewest(page, 'lookup', 'Succeeded');
  await expect(own).toContainText('Approved by your own click');
  await page.keyboard.press('Escape');

  // A call from the host's model: the full dialog, recorded as the person's answer in it.
  const answered = page.evaluate(
    `window.toolgate.call(${JSON.stringify({ serverId: SERVER, toolName: 'lookup', arguments: { word: 'from the model' }, caller: { kind: 'host', label: 'the assistant' } })}).then((r) => r.result.content[0].text, (e) => e.message)`,
  ) as Promise<string>;
  const dialog = page.getByRole('dialog');
  await untilArmed(dialog);
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  expect(await answered).toBe('lookup ran with {"word":"from the model"}');
  const asked = await openNewest(page, 'lookup', 'Succeeded');
  await expect(asked.locator('dd').nth(1)).toHaveText('You approved in the approval dialog');
  // What is recorded is plain too; the machine fields (the decision) stay as they were.
  const [entry] = await page.evaluate(async () => {
    const { auditLog } = await (
      window as unknown as {
        toolgate: { ready: Promise<{ auditLog: { query(): Promise<{ entries: object[] }> } }> };
      }
    ).toolgate.ready;
    return (await auditLog.query()).entries as Array<{ approvedBy?: string; decision?: { verdict: string } }>;
  });
  expect(entry).toMatchObject({ approvedBy: 'you, in the approval dialog', decision: { verdict: 'ask' } });
});

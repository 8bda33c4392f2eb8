/**
 * Scoped grants (issue 29) in Chromium, through the real widget against a real SDK server (the bank
 * peer, e2e/fixtures/grants/peer.mjs), with calls from a host's model: "this server for this
 * session" covers the server's harmless tools for that caller only, never a destructive one unless
 * ticked, is listed with what it covers and when it ends, and ends with the page (a reload). The
 * read-only reach, revoking, and definition changes by weight (narrowing keeps the grant, wording
 * re-asks, widening re-asks flagged). What ran is read back from the server itself.
 */
import { expect, type Page, test } from '@playwright/test';
import { type BankPeer, startBankPeer } from './fixtures/grants/start-peer.js';
import { modelCall, openBank, siteCall } from './support/bank-page.js';
import { untilArmed } from './support/dialogs.js';
import { axe } from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });
// The definition-change test changes transfer on the shared server.
test.describe.configure({ mode: 'serial' });

let peer: BankPeer;
test.beforeAll(async () => {
  peer = await startBankPeer();
});
test.afterAll(async () => {
  await peer?.stop();
});

const ran = async (tool: string) =>
  (await peer.calls()).filter((c) => c.tool === tool).map((c) => c.arguments);

/** The dialog's server-wide choice for this session (the fixed point: "server" and "this session"). */
const serverForSession = (page: Page) =>
  page.getByRole('dialog').getByRole('button', { name: /server.*this session/ });

test('“Allow server bank for this session” covers its harmless tools for the model only, not destructive ones, and a reload ends it', async ({
  page,
}) => {
  await openBank(page, peer);
  const dialog = page.getByRole('dialog');
  const first = modelCall(page, 'add_note', { text: 'first' });
  await expect(serverForSession(page)).toHaveAccessibleName('Allow server bank for this session');
  await expect(dialog).toContainText('Or allow more, for the app (the assistant) only');
  await axe(page, 'approval dialog with wider choices');
  await serverForSession(page).click();
  expect(await first).toContain('add_note ran');

  // Another harmless tool of bank: no dialog.
  expect(await modelCall(page, 'balance', { account: 'main' })).toContain('balance ran');
  await expect(dialog).toHaveCount(0);

  // A destructive tool is not covered: asked, denied, nothing sent.
  const close = modelCall(page, 'close_account', { account: 'main' });
  await expect(dialog).toContainText('close_account');
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  expect(await close).toBe('DeniedError');
  expect(await ran('close_account')).toEqual([]);

  // Another caller is not covered.
  const site = siteCall(page, 'balance', { account: 'site' });
  await expect(dialog).toContainText('https://a.example');
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  expect(await site).toBe('DeniedError');

  // Listed with its caller, what it covers and when it ends.
  await page.getByRole('tab', { name: 'Approvals' }).click();
  const row = page.locator('.tg-remembered tbody tr[data-type="grant"]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('the assistant');
  await expect(row).toContainText('every tool of the server except those that may destroy things');
  await expect(row).toContainText('ends when this page (tab) is closed or reloaded');
  await axe(page, 'approvals with a server-wide grant');

  // The session ends with the page: after a reload the same call is asked again.
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await expect(page.locator('[data-server="bank"]')).toContainText('connected', { timeout: 20_000 });
  const again = modelCall(page, 'balance', { account: 'after-reload' });
  await expect(dialog).toContainText('balance');
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  expect(await again).toBe('DeniedError');
  expect((await ran('balance')).map((a) => a.account)).toEqual(['main']);
});

test('ticking “destructive too” lets the server-wide grant cover a destructive tool', async ({ page }) => {
  await openBank(page, peer);
  const dialog = page.getByRole('dialog');
  const first = modelCall(page, 'add_note', { text: 'ticked' });
  await dialog.getByLabel(/also cover tools that may destroy things/).check();
  await serverForSession(page).click();
  expect(await first).toContain('add_note ran');
  expect(await modelCall(page, 'close_account', { account: 'old' })).toContain('close_account ran');
  await expect(dialog).toHaveCount(0);
  await page.getByRole('tab', { name: 'Approvals' }).click();
  await expect(page.locator('.tg-remembered tbody tr[data-type="grant"]')).toContainText(
    'every tool of the server, destructive ones too',
  );
});

test('the read-only reach covers only read-only tools, an hour’s grant says when it ends, and revoking asks again', async ({
  page,
}) => {
  await openBank(page, peer);
  const dialog = page.getByRole('dialog');
  const first = modelCall(page, 'balance', { account: 'ro-1' });
  // A new dialog ignores clicks for a moment; the summary is no button that waits for it.
  await untilArmed(dialog);
  await dialog.getByText('Other choices').click();
  await dialog.getByRole('button', { name: 'Allow the read-only tools of bank for this session' }).click();
  expect(await first).toContain('balance ran');
  expect(await modelCall(page, 'balance', { account: 'ro-2' })).toContain('balance ran');

  const note = modelCall(page, 'add_note', { text: 'hour' });
  // A new dialog ignores clicks for a moment; the summary is no button that waits for it.
  await untilArmed(dialog);
  await dialog.getByText('Other choices').click();
  await dialog.getByRole('button', { name: 'Allow add_note for an hour' }).click();
  expect(await note).toContain('add_note ran');
  expect(await modelCall(page, 'add_note', { text: 'hour-2' })).toContain('add_note ran');

  await page.getByRole('tab', { name: 'Approvals' }).click();
  const readOnly = page.locator('.tg-remembered tbody tr', { hasText: 'read-only tools' });
  await expect(readOnly).toContainText('ends when this page');
  await expect(page.locator('.tg-remembered tbody tr', { hasText: 'add_note' })).toContainText(
    /allowed for an hour.*ends at \d/,
  );
  await readOnly.getByRole('button', { name: /^Revoke/ }).click();
  await expect(readOnly).toHaveCount(0);
  const asked = modelCall(page, 'balance', { account: 'ro-3' });
  await expect(dialog).toContainText('balance');
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  expect(await asked).toBe('DeniedError');
});

/** Waits until the panel lists transfer with `maximum` as its amount limit (the change arrived). */
async function untilTransferLimit(page: Page, maximum: number, openWorld: boolean): Promise<void> {
  interface Listed {
    name: string;
    inputSchema: { properties: { amount: { maximum: number } } };
    annotations?: { openWorldHint?: boolean };
  }
  await expect
    .poll(() =>
      page.evaluate(() => {
        const { toolgate } = window as unknown as {
          toolgate: { servers: { value: { id: string; tools: Listed[] }[] } };
        };
        const tool = toolgate.servers.value
          .find((s) => s.id === 'bank')
          ?.tools.find((t) => t.name === 'transfer');
        return [tool?.inputSchema.properties.amount.maximum, tool?.annotations?.openWorldHint];
      }),
    )
    .toEqual([maximum, openWorld]);
}

test('definition changes by weight: narrowing keeps the grant, wording asks again, widening asks flagged', async ({
  page,
}) => {
  await peer.change('base');
  await openBank(page, peer);
  const dialog = page.getByRole('dialog');
  const first = modelCall(page, 'transfer', { amount: 10, to: 'savings' });
  await dialog.getByRole('button', { name: 'Always allow this tool' }).click();
  expect(await first).toContain('transfer ran');

  // Narrowing (a lower limit, required reordered): the grant still holds, no dialog.
  await peer.change('narrowing');
  await untilTransferLimit(page, 50, false);
  expect(await modelCall(page, 'transfer', { amount: 20, to: 'narrowed' })).toContain('transfer ran');
  await expect(dialog).toHaveCount(0);

  // Wording only: shown and asked again, not flagged as widening.
  await peer.change('wording');
  await untilTransferLimit(page, 100, false);
  const worded = modelCall(page, 'transfer', { amount: 30, to: 'worded' });
  await expect(dialog.locator('.tg-change-weight')).toHaveAttribute('data-weight', 'wording');
  await expect(dialog.locator('.tg-diff')).toContainText('instantly');
  await expect(dialog).not.toContainText('Widening');
  await axe(page, 'wording change');
  await dialog.getByRole('button', { name: 'Allow for this session' }).click();
  expect(await worded).toContain('transfer ran');

  // Widening (a higher limit, open world on): asked again and flagged, with what widened.
  await peer.change('widening');
  await untilTransferLimit(page, 10000, true);
  const widened = modelCall(page, 'transfer', { amount: 5000, to: 'widened' });
  const weight = dialog.locator('.tg-change-weight');
  await expect(weight).toHaveAttribute('data-weight', 'widening');
  await expect(weight).toContainText('Widening: this change lets the tool accept or do more');
  await expect(weight).toContainText('maximum');
  await expect(weight).toContainText('openWorldHint');
  await axe(page, 'widening change');
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  expect(await widened).toBe('DeniedError');
  expect((await ran('transfer')).map((a) => a.to)).toEqual(
    expect.arrayContaining(['savings', 'narrowed', 'worded']),
  );
  expect((await ran('transfer')).map((a) => a.to)).not.toContain('widened');
  await peer.change('base');
});

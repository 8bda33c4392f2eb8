/**
 * Batch approval (issue 29) in Chromium: a host's model proposes several calls at once
 * (`host.runMany`), and the person answers them in one dialog, each call with its arguments
 * (editable) and its own Allow or Deny; "Allow all" only when every call may be allowed. Each call
 * is still its own audit entry. What ran is read back from the real server (the bank peer).
 */
import { expect, type Page, test } from '@playwright/test';
import { type BankPeer, startBankPeer } from './fixtures/grants/start-peer.js';
import { modelBatch, modelCall, openBank } from './support/bank-page.js';
import { axe } from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });

let peer: BankPeer;
test.beforeAll(async () => {
  peer = await startBankPeer();
});
test.afterAll(async () => {
  await peer?.stop();
});

const ran = async (tool: string) =>
  (await peer.calls()).filter((c) => c.tool === tool).map((c) => c.arguments);

/** The audit log's entries for `tools`, as the page's log holds them. */
function auditEntries(page: Page) {
  return page.evaluate(async () => {
    const { toolgate } = window as unknown as {
      toolgate: {
        ready: Promise<{
          auditLog: {
            query(): Promise<{ entries: { toolName: string; outcome?: string; arguments?: object }[] }>;
          };
        }>;
      };
    };
    const { auditLog } = await toolgate.ready;
    return (await auditLog.query()).entries.map((e) => ({ tool: e.toolName, outcome: e.outcome }));
  });
}

test('three proposed calls are asked in one dialog, each with its own answer and arguments, and recorded one by one', async ({
  page,
}) => {
  await openBank(page, peer);
  const outcomes = modelBatch(page, [
    { tool: 'balance', args: { account: 'main' } },
    { tool: 'add_note', args: { text: 'proposed' } },
    { tool: 'close_account', args: { account: 'main' } },
  ]);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: '3 calls proposed at once' })).toBeVisible();
  const calls = dialog.locator('.tg-batch > li');
  await expect(calls).toHaveCount(3);
  await expect(calls.nth(0)).toContainText('Call 1: balance on bank');
  await expect(calls.nth(2)).toContainText('This tool says it may destroy things');
  await expect(dialog).toContainText('Asked by the app (the assistant)');
  // Every call is valid as proposed: "Allow all" is offered.
  await expect(dialog.getByRole('button', { name: 'Allow all' })).toBeEnabled();
  await axe(page, 'batch dialog');

  // Allow the first, edit and allow the second, leave the destructive one at Deny.
  await calls.nth(0).getByRole('radio', { name: 'Allow' }).check();
  await calls.nth(1).getByLabel('Arguments of add_note (JSON)').fill('{ "text": "edited in the batch" }');
  await expect(calls.nth(1).getByRole('status')).toContainText('(edited)');
  await calls.nth(1).getByRole('radio', { name: 'Allow' }).check();
  await expect(calls.nth(2).getByRole('radio', { name: 'Deny' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Confirm these choices' }).click();

  const [balance, note, close] = await outcomes;
  expect(balance).toContain('balance ran');
  expect(note).toContain('add_note ran');
  expect(close).toBe('DeniedError');
  await expect(dialog).toHaveCount(0);
  expect(await ran('add_note')).toEqual([{ text: 'edited in the batch' }]);
  expect(await ran('close_account')).toEqual([]);

  // One audit entry per call of the batch.
  await expect
    .poll(async () => (await auditEntries(page)).map((e) => `${e.tool}:${e.outcome}`).sort())
    .toEqual(['add_note:success', 'balance:success', 'close_account:denied']);
});

test('"Allow all" is offered only when every call may be allowed; Deny all denies every one', async ({
  page,
}) => {
  await openBank(page, peer);
  const outcomes = modelBatch(page, [
    { tool: 'balance', args: { account: 'x' } },
    { tool: 'add_note', args: { text: 'valid' } },
  ]);
  const dialog = page.getByRole('dialog');
  const calls = dialog.locator('.tg-batch > li');
  await expect(calls).toHaveCount(2);
  await expect(dialog.getByRole('button', { name: 'Allow all' })).toBeEnabled();
  // Edited to break its schema (its required text gone): it may not be allowed as it stands.
  await calls.nth(1).getByLabel('Arguments of add_note (JSON)').fill('{}');
  await expect(calls.nth(1).getByRole('status')).toContainText('text');
  await expect(dialog.getByRole('button', { name: 'Allow all' })).toBeDisabled();
  await expect(calls.nth(1).getByRole('radio', { name: 'Allow' })).toBeDisabled();
  // Fixing the arguments makes every call allowable.
  await calls.nth(1).getByLabel('Arguments of add_note (JSON)').fill('{ "text": "fixed" }');
  await expect(dialog.getByRole('button', { name: 'Allow all' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Deny all' }).click();
  expect(await outcomes).toEqual(['DeniedError', 'DeniedError']);
  expect(await ran('add_note')).toEqual(expect.not.arrayContaining([{ text: 'fixed' }]));
});

test('calls a grant already covers run without asking; the dialog lists only the rest', async ({ page }) => {
  await openBank(page, peer);
  const dialog = page.getByRole('dialog');
  const first = modelCall(page, 'balance', { account: 'granted' });
  await dialog.getByRole('button', { name: 'Allow for this session' }).click();
  expect(await first).toContain('balance ran');

  const outcomes = modelBatch(page, [
    { tool: 'balance', args: { account: 'in-batch' } },
    { tool: 'add_note', args: { text: 'asked' } },
  ]);
  await expect(dialog.locator('.tg-batch > li')).toHaveCount(1);
  await expect(dialog).toContainText('1 of the 2 calls need your answer');
  await dialog.getByRole('button', { name: 'Allow all' }).click();
  const [balance, note] = await outcomes;
  expect(balance).toContain('balance ran');
  expect(note).toContain('add_note ran');
});

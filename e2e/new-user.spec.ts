/**
 * What a new user tripped over (issue 19, item 4), tried again in Chromium against real servers (our
 * SDK 1.x server, which records what reached it): the Tools form follows its call to its result
 * and shows the result in place; the selected tool and typed arguments survive a tab switch;
 * focus returns to the Call button after Allow, Deny and Escape; the form is a few key presses from
 * the tab list; nothing overflows at 400 px; connection problems come first and tell a server that
 * is down from one whose CORS settings refuse the page; the audit Server filter takes the names the
 * list shows; two servers with one name are told apart. Axe runs on each screen.
 */
import { createServer } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { untilArmed } from './support/dialogs.js';
import { type Peer, startPeer } from './support/peers.js';
import {
  axe,
  focusInPanel,
  horizontalOverflow,
  openTab,
  openWidget,
  pickTool,
  shot,
  WIDGET_ORIGIN,
} from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });
test.describe.configure({ mode: 'serial' });

let sdk: Peer;
test.beforeAll(async () => {
  sdk = await startPeer('sdk1-stateful-sse');
});
test.afterAll(async () => {
  await sdk?.stop();
});

const SDK_NAME = 'toolgate-peer-sdk1';

const form = (page: Page) => page.locator('.tg-try');
const callButton = (page: Page) => form(page).getByRole('button', { name: /^Call / });

test('the Tools form follows its call to its result, shown in place, and keeps tool and arguments across tabs', async ({
  page,
}) => {
  await openWidget(page, [{ url: sdk.url, id: 'sdk' }]);
  await pickTool(page, 'slow');
  await form(page).getByLabel('steps (required)').fill('4');
  await form(page).getByLabel('delayMs (required)').fill('400');
  await callButton(page).click();
  const phase = form(page).locator('.tg-call-phase');
  // The click on Call is the person's approval: no dialog, the form goes on to the server's progress.
  await expect(phase).toContainText(`Running on ${SDK_NAME}`);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(phase).toContainText(/step \d of 4/);
  await expect(form(page).getByRole('progressbar', { name: 'slow progress' })).toBeVisible();
  await shot(page, 'new-user-running');
  await axe(page, 'tools form running');
  // The result lands under the form, not only in Activity.
  await expect(phase).toContainText('Succeeded');
  await expect(form(page).locator('.tg-result')).toContainText('done after 4 steps');
  expect((await sdk.events()).calls).toContainEqual({ tool: 'slow', arguments: { steps: 4, delayMs: 400 } });
  await shot(page, 'new-user-result-in-place');

  // Typed, not called yet: the draft survives a visit to another tab, and so does the result.
  await form(page).getByLabel('steps (required)').fill('7');
  await openTab(page, /Activity/);
  await expect(page.locator('.tg-finished-call').first()).toContainText('done after 4 steps');
  await openTab(page, 'Tools');
  await expect(page.getByRole('heading', { name: 'slow', level: 3 })).toBeVisible();
  await expect(page.getByLabel('Search tools')).toHaveValue('slow');
  await expect(form(page).getByLabel('steps (required)')).toHaveValue('7');
  await expect(form(page).getByLabel('delayMs (required)')).toHaveValue('400');
  await expect(form(page).locator('.tg-result')).toContainText('done after 4 steps');
  await axe(page, 'tools after returning');
});

test('focus returns to the Call button after Allow, Deny and Escape', async ({ page }) => {
  // A host that wants the approval dialog for the person's own calls too.
  await openWidget(page, [{ url: sdk.url, id: 'sdk' }], { query: 'confirmOwnCalls=always' });
  await pickTool(page, 'echo');
  await form(page).getByLabel('message (required)').fill('focus');
  const dialog = page.getByRole('dialog');
  const onCallButton = { tag: 'button', id: '', text: 'Call echo', label: '' };

  await callButton(page).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeFocused();
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => focusInPanel(page)).toEqual(onCallButton);

  await page.keyboard.press('Enter');
  await expect(dialog).toBeFocused();
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => focusInPanel(page)).toEqual(onCallButton);
  await expect(form(page).locator('.tg-call-phase')).toContainText(/denied/i);

  await page.keyboard.press('Enter');
  await expect(dialog).toBeFocused();
  await untilArmed(dialog);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => focusInPanel(page)).toEqual(onCallButton);
  // Not the host page's body: focus is inside the panel's shadow root.
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TOOLGATE-PANEL');
  expect((await sdk.events()).calls.filter((c) => c.arguments.message === 'focus')).toHaveLength(1);
});

test("a tool's form is a few key presses from the tab list", async ({ page }) => {
  await openWidget(page, [{ url: sdk.url, id: 'sdk' }]);
  await openTab(page, 'Tools');
  await expect(page.getByRole('tab', { name: 'Tools' })).toBeFocused();
  let presses = 0;
  const press = async (key: string) => {
    presses++;
    await page.keyboard.press(key);
  };
  await press('Tab');
  await expect(page.getByLabel('Search tools')).toBeFocused();
  await page.keyboard.type('echo');
  await press('Tab');
  // The whole list is one Tab stop; Enter opens the tool and moves focus to it.
  await expect(page.locator('.tg-tool-button', { hasText: /^echo\b/ })).toBeFocused();
  await press('Enter');
  await expect(page.getByRole('heading', { name: 'echo', level: 3 })).toBeFocused();
  await press('Tab');
  await expect(form(page).getByLabel('message (required)')).toBeFocused();
  expect(presses).toBeLessThanOrEqual(4);

  // Arrow keys move through the list without leaving it.
  await page.getByLabel('Search tools').fill('');
  await page.getByLabel('Search tools').focus();
  await page.keyboard.press('Tab');
  const first = await focusInPanel(page);
  expect(first?.tag).toBe('button');
  await page.keyboard.press('ArrowDown');
  await expect.poll(async () => (await focusInPanel(page))?.text).not.toBe(first?.text);
  expect((await focusInPanel(page))?.tag).toBe('button');
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByLabel('Search tools')).toBeFocused();
});

test('at 400 px nothing overflows: every tab, the audit table included', async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 900 });
  await openWidget(page, [{ url: `${sdk.url}?a-rather-long-query=${'x'.repeat(60)}`, id: 'sdk' }]);
  const call = page.evaluate(() =>
    (window as unknown as { toolgate: { call(...a: unknown[]): Promise<unknown> } }).toolgate.call({
      serverId: 'sdk',
      toolName: 'echo',
      arguments: { message: `a long message without spaces ${'y'.repeat(120)}` },
    }),
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  await call;
  for (const tab of ['Servers', 'Tools', /Activity/, 'Audit log', 'Approvals', 'Rules', 'Inspect'] as const) {
    await openTab(page, tab);
    if (tab === 'Audit log') await expect(page.locator('.tg-log-table tbody tr')).toHaveCount(1);
    expect(await horizontalOverflow(page), String(tab)).toEqual({ page: 0, panel: 0 });
  }
  // The table became one card per entry, each cell labelled.
  await openTab(page, 'Audit log');
  const row = page.locator('.tg-log-table tbody tr').first();
  await expect(row.locator('td[data-label="Server"]')).toHaveText(SDK_NAME);
  const box = await row.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(400);
  await axe(page, 'audit log at 400 px');
  await shot(page, 'new-user-audit-400px');
});

/** A port nobody listens on: a server that is down. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

test('connection problems come first, and "down" and "blocked by CORS" say different things', async ({
  page,
}) => {
  const noCors = await startPeer('sdk1-stateful-sse', { cors: false });
  try {
    const down = `http://127.0.0.1:${await closedPort()}/mcp`;
    await openWidget(
      page,
      [
        { url: sdk.url, id: 'fine' },
        { url: down, id: 'down' },
        { url: noCors.url, id: 'strict' },
      ],
      { failing: ['down', 'strict'] },
    );
    const problems = page.getByRole('region', { name: 'Connection problems' });
    await expect(problems.getByRole('heading')).toHaveText('2 servers could not connect');
    // Above the list (and above the add form), whatever the list's length.
    const order = await page.evaluate(() => {
      const root = document.querySelector('toolgate-panel')!.shadowRoot!;
      const top = root.querySelector('.tg-connect-problems')!;
      const list = root.querySelector('.tg-server-list')!;
      return top.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING;
    });
    expect(order).toBeTruthy();
    const downProblem = problems.locator('[data-problem="down"]');
    await expect(downProblem).toContainText('not answering');
    await expect(downProblem).toContainText(`did not answer at ${down}`);
    await expect(downProblem).toContainText('Check that it is running');
    await expect(downProblem).not.toContainText('CORS');
    const corsProblem = problems.locator('[data-problem="strict"]');
    await expect(corsProblem).toContainText('blocked by CORS');
    await expect(corsProblem).toContainText(
      `its CORS settings do not let this page (${WIDGET_ORIGIN}) use it`,
    );
    await expect(corsProblem).not.toContainText('did not answer');
    await corsProblem.getByText('Technical details').click();
    await expect(corsProblem).toContainText('Access-Control-Allow-Origin');
    await axe(page, 'connection problems');
    await shot(page, 'new-user-connection-problems');
    // Retry is next to each problem; the down server is still down.
    await downProblem.getByRole('button', { name: 'Retry' }).click();
    await expect(page.locator('[data-server="down"] .tg-badge')).toContainText('failed', { timeout: 20_000 });
    await expect(downProblem).toContainText('not answering');
  } finally {
    await noCors.stop();
  }
});

test('two servers with one name are told apart, and the audit Server picker names them as the list does', async ({
  page,
}) => {
  await openWidget(page, [
    { url: sdk.url, id: 'first' },
    { url: `${sdk.url}?second`, id: 'second' },
  ]);
  await expect(page.locator('[data-server="first"] strong')).toHaveText(`${SDK_NAME} (first)`);
  await expect(page.locator('[data-server="second"] strong')).toHaveText(`${SDK_NAME} (second)`);
  for (const id of ['first', 'second']) {
    const call = page.evaluate(
      (serverId) =>
        (window as unknown as { toolgate: { call(...a: unknown[]): Promise<unknown> } }).toolgate.call({
          serverId: serverId,
          toolName: 'echo',
          arguments: { message: `to ${serverId}` },
        }),
      id,
    );
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`${SDK_NAME}`);
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await call;
  }
  await openTab(page, 'Tools');
  // Each row's first line: its title, and its server's name (for a reader; the eye has the group's heading).
  await expect(page.locator('.tg-tool-button', { hasText: /^echo\b/ }).locator('.tg-tool-line')).toHaveText([
    `echo · ${SDK_NAME} (first)`,
    `echo · ${SDK_NAME} (second)`,
  ]);
  await expect(page.locator('.tg-tool-group')).toHaveText([`${SDK_NAME} (first)`, `${SDK_NAME} (second)`]);
  await openTab(page, /Activity/);
  await expect(page.locator('.tg-finished-call h3')).toContainText([
    `echo on ${SDK_NAME} (second)`,
    `echo on ${SDK_NAME} (first)`,
  ]);

  await openTab(page, 'Audit log');
  const rows = page.locator('.tg-log-table tbody tr');
  await expect(rows).toHaveCount(2);
  // The server picker names each server as the lists do: the shared name with what tells them apart.
  const server = page.getByRole('combobox', { name: 'Server', exact: true });
  await expect(server.locator('option')).toHaveText([
    'All servers',
    `${SDK_NAME} (first)`,
    `${SDK_NAME} (second)`,
  ]);
  await server.selectOption({ label: `${SDK_NAME} (second)` });
  await expect(rows).toHaveCount(1);
  await expect(rows.first().locator('td[data-label="Server"]')).toHaveText(`${SDK_NAME} (second)`);
  await server.selectOption({ label: 'All servers' });
  await expect(rows).toHaveCount(2);
  // The search finds a server by its id; a word nobody has finds nothing, and says so.
  const search = page.getByRole('searchbox', { name: 'Search the log' });
  await search.fill('first');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().locator('td[data-label="Server"]')).toHaveText(`${SDK_NAME} (first)`);
  await search.fill('nobody');
  await expect(rows).toHaveCount(0);
  await expect(page.getByText('Nothing in the log matches “nobody”.')).toBeVisible();
  await axe(page, 'audit filtered by name');
  await shot(page, 'new-user-same-name');
});

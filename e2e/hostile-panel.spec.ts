/**
 * Misbehaving servers as a person meets them in the panel (issue 17, items 5, 7 and 8), in Chromium
 * against a real SDK 1.x server told to misbehave (e2e/peers/hostile-catalog.mjs): pagination that
 * loops or never ends stops at a bound and says so next to the server; tools left out and bad names
 * are listed with their reasons; a 100,000-value enum is a search, not 100,000 options; a flood of
 * questions is one dialog at a time with "Decline all", and questions whose call ended (finished,
 * cancelled, timed out) leave the screen. Each case checks what the person sees, what the server
 * saw, axe on the new screens, and that the IndexedDB audit log still verifies.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { DEFAULT_MAX_PAGES } from '../src/client/catalog.js';
import { untilArmed } from './support/dialogs.js';
import { type HostileServer, openHostilePanel } from './support/hostile-panel.js';
import { type Peer, type PeerEvents, startPeer } from './support/peers.js';

const ORIGIN = 'https://hostile-panel.test';
test.use({ permissions: ['local-network-access'] });
test.describe.configure({ mode: 'serial' });

let peer: Peer;
test.beforeAll(async () => {
  peer = await startPeer('hostile-catalog');
});
test.afterAll(async () => {
  await peer?.stop();
});

const openPanel = (page: Page, servers: HostileServer[], options: { timeoutMs?: number } = {}) =>
  openHostilePanel(page, peer, { origin: ORIGIN, title: 'Hostile servers' }, servers, options);

async function axe(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${screen}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screenshots/hostile-${name}.png`, fullPage: true });
}

/** The JSON-RPC requests the server received on one case's endpoint. */
async function received(caseName: string, method: string): Promise<PeerEvents['messages']> {
  const { messages } = await peer.events();
  return messages.filter((m) => m.path === `/mcp/${caseName}` && m.method === method);
}

/** The answers the server got to the questions `tool` asked, after the first `skip`. */
async function answersTo(tool: string, skip = 0): Promise<string[]> {
  const { elicitations } = await peer.events();
  return elicitations
    .filter((e) => e.tool === tool)
    .slice(skip)
    .map((e) => String(e.answer.action));
}

async function auditVerifies(page: Page): Promise<void> {
  const verification = await page.evaluate(() =>
    (window as unknown as { verifyAudit(): Promise<{ ok: boolean } | undefined> }).verifyAudit(),
  );
  expect(verification).toMatchObject({ ok: true });
}

async function allowOnce(page: Page): Promise<void> {
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
}

test('pagination that loops or never ends stops at a bound, keeps what came, and says so next to the server', async ({
  page,
}) => {
  await openPanel(page, [
    { case: 'cursor-loop', id: 'loop' },
    { case: 'endless-pages', id: 'endless' },
    { case: 'plain', id: 'plain' },
  ]);
  const loop = page.locator('[data-server="loop"]');
  await expect(loop.locator('.tg-badge')).toHaveText(
    /^connected · 3 tools · older protocol \(\d{4}-\d{2}-\d{2}\) · 1 warning$/,
  );
  await expect(loop.getByRole('list', { name: 'About this server’s tool list' })).toHaveText(
    'The tool list is incomplete: tools/list returned cursor "a" twice (a pagination loop); stopped after 3 pages with 3 tools.',
  );
  const endless = page.locator('[data-server="endless"]');
  await expect(endless.locator('.tg-badge')).toHaveText(
    new RegExp(
      `^connected · ${DEFAULT_MAX_PAGES} tools · older protocol \\(\\d{4}-\\d{2}-\\d{2}\\) · 1 warning$`,
    ),
  );
  await expect(endless.locator('.tg-catalog-warnings')).toContainText(
    `The tool list is incomplete: tools/list still had more pages after ${DEFAULT_MAX_PAGES}; stopped with ${DEFAULT_MAX_PAGES} tools`,
  );
  await expect(page.locator('[data-server="plain"] .tg-catalog-warnings')).toHaveCount(0);

  // The server side: the loop was asked for its three pages once each, the endless one up to the bound.
  expect((await received('cursor-loop', 'tools/list')).length).toBe(3);
  expect((await received('endless-pages', 'tools/list')).length).toBe(DEFAULT_MAX_PAGES);
  await axe(page, 'servers with catalog warnings');
  await shot(page, 'pagination-servers');

  // What was received is usable, and the Tools view marks the servers whose lists are incomplete.
  await page.getByRole('tab', { name: 'Tools' }).click();
  const markers = page.getByRole('list', { name: 'Tool list warnings' });
  // Servers are labelled by the name they give (hostile-catalog-<case>).
  await expect(markers.getByRole('listitem')).toHaveText([
    '⚠ hostile-catalog-cursor-loop: 1 warning about its tool list (see Servers)',
    '⚠ hostile-catalog-endless-pages: 1 warning about its tool list (see Servers)',
  ]);
  await page.getByLabel('Search tools').fill(`page_${DEFAULT_MAX_PAGES - 1}_tool`);
  await expect(page.locator('.tg-tool-button')).toHaveCount(1);
  await axe(page, 'tools with markers');
  await auditVerifies(page);
});

test('tools left out and names that break the rules are listed with their reasons; a left-out tool is never sent', async ({
  page,
}) => {
  await openPanel(page, [{ case: 'bad-catalog', id: 'bad' }]);
  const row = page.locator('[data-server="bad"]');
  await expect(row.locator('.tg-badge')).toHaveText(
    /^connected · 2 tools · older protocol \(\d{4}-\d{2}-\d{2}\) · 2 warnings$/,
  );
  const warnings = row.getByRole('list', { name: 'About this server’s tool list' }).getByRole('listitem');
  await expect(warnings).toHaveText([
    '2 tools were left out because their definitions are invalid: "no_schema" (it has no inputSchema (an object is required): the server must fix its tool definition); "string_schema" (inputSchema is a string, not an object: the server must fix its tool definition).',
    '1 tool name breaks the MCP naming rules: "get user" (the name has characters other than A-Z a-z 0-9 _ - .).',
  ]);
  await axe(page, 'servers with excluded tools');
  await shot(page, 'bad-catalog');

  await page.getByRole('tab', { name: 'Tools' }).click();
  const badRow = page.locator('.tg-tool-button', { hasText: 'get user' });
  await expect(badRow.locator('.tg-badge-danger')).toHaveText('⚠ bad name');
  await expect(page.locator('.tg-tool-button', { hasText: 'echo' }).locator('.tg-badge-danger')).toHaveCount(
    0,
  );
  await badRow.click();
  await expect(page.getByRole('list', { name: "Problems with this tool's listing" })).toContainText(
    'This name breaks the MCP naming rules: the name has characters other than A-Z a-z 0-9 _ - .',
  );
  await axe(page, 'tool with a bad name');

  const refused = await page.evaluate(() =>
    (window as unknown as { toolgate: { call(request: object): Promise<unknown> } }).toolgate
      .call({ serverId: 'bad', toolName: 'no_schema', arguments: {} })
      .then(
        () => 'ran',
        (error: Error) => error.message,
      ),
  );
  expect(refused).toContain('lists "no_schema" but Toolgate excluded it: it has no inputSchema');
  expect(await received('bad-catalog', 'tools/call')).toEqual([]);
  await auditVerifies(page);
});

test('a 100,000-value enum is a search with a count, not 100,000 options, and works with the keyboard', async ({
  page,
}) => {
  await openPanel(page, [{ case: 'big-enum', id: 'enum' }]);
  await page.getByRole('tab', { name: 'Tools' }).click();
  await page.locator('.tg-tool-button', { hasText: 'pick' }).click();
  const form = page.locator('.tg-try');
  const search = form.getByRole('combobox', { name: 'choice (required)' });
  await expect(search).toBeVisible();
  await expect(form.getByRole('status').first()).toHaveText('100,000 values: type to search.');
  // No <select> with every value anywhere in the panel.
  expect(await page.locator('toolgate-panel option').count()).toBe(0);

  await search.fill('value-9999');
  await expect(form.getByRole('status').first()).toHaveText('11 of 100,000 values match.');
  const listbox = form.getByRole('listbox');
  await expect(listbox.getByRole('option')).toHaveCount(11);
  await search.fill('1');
  await expect(form.getByRole('status').first()).toContainText(
    'values match; the first 50 are listed, type more to narrow.',
  );
  await expect(listbox.getByRole('option')).toHaveCount(50);
  await axe(page, 'big enum search');
  await shot(page, 'big-enum');

  // Keyboard only: type, arrow to the second match, Enter picks it (and does not submit the form).
  await search.fill('value-9999');
  await page.keyboard.press('ArrowDown');
  await expect(listbox.getByRole('option', { selected: true })).toHaveText('value-99990');
  await page.keyboard.press('Enter');
  await expect(form.getByText('Chosen: value-99990')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await form.getByRole('button', { name: /^Call / }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Chosen: value-99990')).toBeVisible();
  // Escape in the search closes its list, not the approval dialog.
  const inDialog = dialog.getByRole('combobox', { name: /choice/ });
  await untilArmed(dialog);
  await inDialog.focus();
  await expect(inDialog).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(inDialog).toHaveAttribute('aria-expanded', 'false');
  await expect(dialog).toBeVisible();
  await axe(page, 'approval with a big enum');
  // The validator does not take a 100,000-value enum (its own cap): the person acknowledges that.
  await dialog.getByLabel(/I understand these arguments could not be checked/).check();
  await dialog.getByRole('button', { name: 'Allow once' }).click();

  // The result is shown under the form that made the call.
  await expect(form.getByRole('status').last()).toContainText('Succeeded');
  expect((await peer.events()).calls).toContainEqual({ tool: 'pick', arguments: { choice: 'value-99990' } });
  await auditVerifies(page);
});

type Window = {
  toolgate: {
    call(request: object): Promise<unknown>;
    elicitations: { value: unknown[] };
  };
  stopCall?: AbortController;
  callOutcome?: Promise<string>;
};

/** Starts a call from the host page (it outlives this evaluate); `callOutcome` ends with its text or error name. */
async function startCall(page: Page, tool: string, count: number, cancellable = false): Promise<void> {
  await page.evaluate(
    ({ tool, count, cancellable }) => {
      const w = window as unknown as Window;
      w.stopCall = new AbortController();
      w.callOutcome = w.toolgate
        .call({
          serverId: 'ask',
          toolName: tool,
          arguments: { count },
          signal: cancellable ? w.stopCall.signal : undefined,
        })
        .then(
          (r) => (r as { result: { content: { text: string }[] } }).result.content[0]!.text,
          (error: Error) => error.name,
        );
    },
    { tool, count, cancellable },
  );
  await allowOnce(page);
}

const outcome = (page: Page) => page.evaluate(() => (window as unknown as Window).callOutcome);
const queued = (page: Page) =>
  page.evaluate(() => (window as unknown as Window).toolgate.elicitations.value.length);

test('a flood of questions is one dialog at a time with the count waiting, and "Decline all"', async ({
  page,
}) => {
  await openPanel(page, [{ case: 'questions', id: 'ask' }]);
  const before = (await answersTo('flood')).length;
  await startCall(page, 'flood', 12);

  const dialog = page.getByRole('dialog', { name: 'hostile-catalog-questions asks for input' });
  await expect(dialog.getByRole('status')).toHaveText('11 more questions are waiting.');
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await axe(page, 'question flood');
  await shot(page, 'question-flood');

  // Answered one by one, the next takes its place.
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect(dialog.getByRole('status')).toHaveText('10 more questions are waiting.');
  await dialog.getByRole('button', { name: 'Decline all 11 from hostile-catalog-questions' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  expect(await outcome(page)).toBe('answers: {"accept":1,"decline":11}');
  const answers = await answersTo('flood', before);
  expect(answers.filter((a) => a === 'decline')).toHaveLength(11);
  expect(answers.filter((a) => a === 'accept')).toHaveLength(1);
  await auditVerifies(page);
});

test('"Decline all" declines only that server’s questions; another server’s wait their turn', async ({
  page,
}) => {
  await openPanel(page, [
    { case: 'questions', id: 'ask' },
    { case: 'questions', id: 'other' },
  ]);
  const before = (await answersTo('flood')).length;
  await startCall(page, 'flood', 3);
  await expect(page.getByRole('dialog').getByRole('status')).toHaveText('2 more questions are waiting.');
  const other = page.evaluate(() =>
    (window as unknown as Window).toolgate
      .call({ serverId: 'other', toolName: 'flood', arguments: { count: 2 } })
      .then((r) => (r as { result: { content: { text: string }[] } }).result.content[0]!.text),
  );
  // The other server's call is approved first (an approval comes before any question)...
  await allowOnce(page);
  // ...then its questions queue behind the first server's (both servers share a name: ids tell them apart).
  const dialog = page.getByRole('dialog', { name: 'hostile-catalog-questions (ask) asks for input' });
  await expect(dialog.getByRole('status')).toHaveText(
    '4 more questions are waiting (2 from hostile-catalog-questions (ask)).',
  );
  await dialog.getByRole('button', { name: 'Decline all 3 from hostile-catalog-questions (ask)' }).click();
  expect(await outcome(page)).toBe('answers: {"decline":3}');

  const next = page.getByRole('dialog', { name: 'hostile-catalog-questions (other) asks for input' });
  await expect(next.getByRole('status')).toHaveText('1 more question is waiting.');
  await next.getByRole('button', { name: 'Accept' }).click();
  await next.getByRole('button', { name: 'Accept' }).click();
  expect(await other).toBe('answers: {"accept":2}');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const answers = await answersTo('flood', before);
  expect(answers.filter((a) => a === 'decline')).toHaveLength(3);
  expect(answers.filter((a) => a === 'accept')).toHaveLength(2);
  await auditVerifies(page);
});

test('questions whose call finished are withdrawn, never left on screen', async ({ page }) => {
  await openPanel(page, [{ case: 'questions', id: 'ask' }]);
  const before = (await answersTo('ask-then-finish')).length;
  await startCall(page, 'ask-then-finish', 3);
  expect(await outcome(page)).toBe('asked 3 questions and finished');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await queued(page)).toBe(0);
  // The questions did arrive: the server got an answer to each, "cancel", from the withdrawal.
  await expect.poll(() => answersTo('ask-then-finish', before)).toEqual(['cancel', 'cancel', 'cancel']);
  await auditVerifies(page);
});

test('questions whose call the host cancelled are withdrawn, and the server is told of the cancel', async ({
  page,
}) => {
  await openPanel(page, [{ case: 'questions', id: 'ask' }]);
  const before = (await answersTo('flood')).length;
  const cancelsBefore = (await peer.events()).cancellations.length;
  await startCall(page, 'flood', 4, true);
  const dialog = page.getByRole('dialog', { name: 'hostile-catalog-questions asks for input' });
  await expect(dialog.getByRole('status')).toHaveText('3 more questions are waiting.');

  await page.evaluate(() => (window as unknown as Window).stopCall?.abort());
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await outcome(page)).toBe('RequestCancelledError');
  expect(await queued(page)).toBe(0);
  await expect
    .poll(async () => (await peer.events()).cancellations.slice(cancelsBefore).map((c) => c.via))
    .toContain('notification');
  await expect.poll(() => answersTo('flood', before)).toEqual(['cancel', 'cancel', 'cancel', 'cancel']);
  await auditVerifies(page);
});

test('questions whose call timed out are withdrawn', async ({ page }) => {
  // Long enough to see the questions on a busy machine before the timeout withdraws them.
  await openPanel(page, [{ case: 'questions', id: 'ask' }], { timeoutMs: 6_000 });
  const before = (await answersTo('flood')).length;
  await startCall(page, 'flood', 2);
  const dialog = page.getByRole('dialog', { name: 'hostile-catalog-questions asks for input' });
  await expect(dialog.getByRole('status')).toHaveText('1 more question is waiting.');
  // Nobody answers: the call's timeout ends it, and its questions go with it.
  await expect(page.getByRole('dialog')).toHaveCount(0, { timeout: 20_000 });
  expect(await outcome(page)).toBe('RequestTimeoutError');
  expect(await queued(page)).toBe(0);
  await expect.poll(() => answersTo('flood', before)).toEqual(['cancel', 'cancel']);
  await auditVerifies(page);
});

/**
 * The audit log, table first, in the widget against two real SDK servers: the first entry row above
 * the settings at 1280 and 400 px; one search box over tool, server, caller and arguments (and a
 * plain "nothing matches"); outcome chips with counts that filter; server and tool pickers filled
 * from the log; a row's drawer with who asked, the arguments, the decision in words and the raw
 * events folded, closed by Escape with focus back on the row; export confirmed with the file's
 * name and counts. The calls come from the host app (caller kind `host`), so each one goes through
 * the approval dialog whatever the panel does with the person's own calls.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { serveFixture } from './support/fixture-page.js';
import { type Peer, startPeer } from './support/peers.js';

const ORIGIN = 'https://audit-table.test';
test.use({ permissions: ['local-network-access'] });

let alpha: Peer;
let beta: Peer;
test.beforeAll(async () => {
  [alpha, beta] = await Promise.all([startPeer('sdk1-stateful-json'), startPeer('sdk1-stateless-json')]);
});
test.afterAll(async () => {
  await Promise.all([alpha?.stop(), beta?.stop()]);
});

async function openPanel(page: Page): Promise<void> {
  await serveFixture(page, ORIGIN, 'e2e/fixtures/widget/page.ts', 'Toolgate audit table');
  const servers = [
    { url: alpha.url, id: 'alpha' },
    { url: beta.url, id: 'beta' },
  ];
  const query = servers.map((s) => `server=${encodeURIComponent(s.url)}&id=${s.id}`).join('&');
  await page.goto(`${ORIGIN}/?${query}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  for (const s of servers)
    await expect(page.locator(`[data-server="${s.id}"]`)).toContainText('connected', { timeout: 20_000 });
}

/** A call from the host app under `label`, answered in the approval dialog. */
async function hostCall(
  page: Page,
  call: { serverId: string; toolName: string; arguments: Record<string, unknown>; label: string },
  answer: 'Allow once' | 'Deny',
): Promise<void> {
  const done = page.evaluate(
    (c) =>
      (
        window as unknown as {
          toolgate: { call(request: object): Promise<unknown> };
        }
      ).toolgate
        .call({
          serverId: c.serverId,
          toolName: c.toolName,
          arguments: c.arguments,
          caller: { kind: 'host', label: c.label },
        })
        .then(
          () => 'ok',
          (error: Error) => error.name,
        ),
    call,
  );
  await page.getByRole('dialog').getByRole('button', { name: answer, exact: true }).click();
  await done;
}

/** Four entries, seven events: three calls sent (requested + result each), one denied (one refusal). */
async function recordFour(page: Page): Promise<void> {
  const notes = 'Notes assistant';
  const mail = 'Mail helper';
  await hostCall(
    page,
    { serverId: 'alpha', toolName: 'echo', arguments: { message: 'first hello' }, label: notes },
    'Allow once',
  );
  await hostCall(
    page,
    { serverId: 'alpha', toolName: 'add', arguments: { a: 2, b: 3 }, label: notes },
    'Allow once',
  );
  await hostCall(
    page,
    { serverId: 'beta', toolName: 'echo', arguments: { message: 'never sent' }, label: mail },
    'Deny',
  );
  await hostCall(page, { serverId: 'beta', toolName: 'fail', arguments: {}, label: mail }, 'Allow once');
}

async function axe(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${screen}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
}

test('the table comes first: search, chips, pickers, a drawer per row, export confirmed', async ({
  page,
}) => {
  await openPanel(page);
  await recordFour(page);
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const rows = page.locator('.tg-log-table tbody tr');
  await expect(rows).toHaveCount(4);

  // Table first: the first entry row stands above what the log keeps (its settings).
  const retention = page.getByRole('spinbutton', { name: 'Keep newest' });
  await expect(retention).toBeVisible();
  const rowTop = (await rows.first().boundingBox())!.y;
  expect(rowTop).toBeLessThan((await retention.boundingBox())!.y);
  expect(rowTop).toBeLessThan((await page.getByRole('heading', { name: 'Settings' }).boundingBox())!.y);

  // Plain words: outcomes and callers, never raw values; the time is compact, the full one its title.
  await expect(rows.first()).toContainText('Tool error');
  await expect(rows.first()).toContainText('The app (Mail helper)');
  await expect(rows.first()).not.toContainText('tool-error');
  await expect(rows.first().locator('td[data-label="When"]')).toHaveText(/just now|min ago/);
  await expect(rows.first().locator('td[data-label="When"]')).toHaveAttribute('title', /\d{4}/);
  // Entries and events, explained once.
  await expect(page.locator('.tg-audit-about')).toContainText('4 entries, 7 events. An entry is one call');

  // One search box: arguments, tool, caller; and a search that finds nothing says so.
  const search = page.getByRole('searchbox', { name: 'Search the log' });
  await search.fill('first hello');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('echo');
  await search.fill('notes');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'The app (Notes assistant)' })).toHaveCount(2);
  // The chips count what the search finds: two successes, nothing denied.
  const chipList = page.getByRole('list', { name: /^Outcomes/ });
  await expect(chipList.getByRole('button')).toHaveText(['All 2', '✓ Succeeded 2']);
  await search.fill('fail');
  await expect(rows).toHaveCount(1);
  // A server by the name the table shows (the log keeps its id): both words of "… (beta)".
  await search.fill('peer beta');
  await expect(rows).toHaveCount(2);
  await expect(rows.locator('td[data-label="Server"]')).toHaveText([
    'toolgate-peer-sdk1 (beta)',
    'toolgate-peer-sdk1 (beta)',
  ]);
  await expect(chipList.getByRole('button')).toHaveText(['All 2', '✕ Tool error 1', '⊘ Denied 1']);
  await search.fill('zebra');
  await expect(rows).toHaveCount(0);
  await expect(page.getByText('Nothing in the log matches “zebra”.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(search).toHaveValue('');
  await expect(rows).toHaveCount(4);

  // Outcome chips: counts, a mark beside the colour, and they filter (together with "All").
  const chips = page.getByRole('list', { name: /^Outcomes/ });
  const succeeded = chips.getByRole('button', { name: /Succeeded 2$/ });
  const denied = chips.getByRole('button', { name: /Denied 1$/ });
  await expect(chips.getByRole('button', { name: 'All 4' })).toHaveAttribute('aria-pressed', 'true');
  await expect(chips.getByRole('button', { name: /Tool error 1$/ })).toBeVisible();
  await expect(denied.locator('[aria-hidden=true]')).toHaveText('⊘');
  await denied.click();
  await expect(denied).toHaveAttribute('aria-pressed', 'true');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-outcome', 'denied');
  await succeeded.click();
  await expect(rows).toHaveCount(3);
  await chips.getByRole('button', { name: 'All 4' }).click();
  await expect(rows).toHaveCount(4);

  // Server and tool pickers, filled from the log.
  const server = page.getByRole('combobox', { name: 'Server' });
  const tool = page.getByRole('combobox', { name: 'Tool' });
  await expect(tool.locator('option')).toHaveText(['All tools', 'add', 'echo', 'fail']);
  await expect(server.locator('option')).toHaveCount(3);
  await server.selectOption('beta');
  await expect(rows).toHaveCount(2);
  await tool.selectOption('echo');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Denied');
  await server.selectOption('');
  await expect(rows).toHaveCount(2);
  await tool.selectOption('');
  await expect(rows).toHaveCount(4);

  // A row opens its drawer: who asked, the arguments, the result, the decision, raw events folded.
  const echoRow = rows.filter({ hasText: 'Notes assistant' }).filter({ hasText: 'echo' });
  await echoRow.locator('td[data-label="Server"]').click();
  const drawer = page.getByRole('dialog', { name: /echo on/ });
  await expect(drawer).toBeVisible();
  await expect(drawer).toContainText('The app (Notes assistant)');
  await expect(drawer).toContainText('"message": "first hello"');
  await expect(drawer).toContainText('Echo: first hello');
  await expect(drawer).toContainText('You approved');
  await expect(drawer).toContainText('Server time');
  const raw = drawer.locator('details.tg-audit-raw');
  await expect(raw).not.toHaveAttribute('open');
  await expect(raw.locator(':scope > summary')).toContainText('Raw chain events (2)');
  await raw.locator(':scope > summary').click();
  await expect(raw).toContainText('pending');
  await axe(page, 'audit drawer');
  await page.screenshot({ path: 'test-results/screenshots/audit-drawer-1280.png' });
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await expect(echoRow.getByRole('button', { name: /^Details of echo/ })).toBeFocused();

  // From the keyboard: the denied row's button, Enter, the decision in words, Escape back to it.
  const deniedButton = rows.filter({ hasText: 'Denied' }).getByRole('button', { name: /^Details of echo/ });
  await deniedButton.focus();
  await page.keyboard.press('Enter');
  const deniedDrawer = page.getByRole('dialog', { name: /echo on/ });
  await expect(deniedDrawer).toContainText('Denied by you');
  await expect(deniedDrawer).toContainText('"message": "never sent"');
  await expect(deniedDrawer).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(deniedButton).toBeFocused();

  // Export: asked once, naming the file and the counts; then said done.
  await page.getByRole('button', { name: 'Export…' }).click();
  const question = page.locator('#tg-audit-export-question');
  await expect(question).toHaveText(
    /^Export 4 entries \(7 events\) to toolgate-audit-\d{4}-\d{2}-\d{2}\.jsonl\?$/,
  );
  const fileName = /to (\S+)\?$/.exec((await question.textContent()) ?? '')![1]!;
  await page.getByRole('radio', { name: /One JSON document/ }).check();
  await expect(question).toContainText(fileName.replace(/\.jsonl$/, '.json?'));
  await page.getByRole('radio', { name: /JSON Lines/ }).check();
  await axe(page, 'audit export question');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  expect((await download).suggestedFilename()).toBe(fileName);
  await expect(page.locator('.tg-audit-export-done')).toContainText(
    `Exported 4 entries (7 events) to ${fileName}.`,
  );
  await axe(page, 'audit table');
  await page.screenshot({ path: 'test-results/screenshots/audit-table-1280.png', fullPage: true });
});

test('at 400 px and dark the first entry still comes before the settings, and the drawer takes the width', async ({
  page,
}) => {
  await page.setViewportSize({ width: 400, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await openPanel(page);
  await hostCall(
    page,
    { serverId: 'beta', toolName: 'fail', arguments: {}, label: 'Mail helper' },
    'Allow once',
  );
  await hostCall(
    page,
    { serverId: 'beta', toolName: 'echo', arguments: { message: 'no' }, label: 'Mail helper' },
    'Deny',
  );
  await hostCall(
    page,
    { serverId: 'alpha', toolName: 'echo', arguments: { message: 'narrow' }, label: 'Notes assistant' },
    'Allow once',
  );
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const row = page.locator('.tg-log-table tbody tr').first();
  await expect(row).toContainText('Succeeded');
  // Every chip's colour reads on the dark background (axe checks the contrast), pressed or not.
  await page
    .getByRole('list', { name: /^Outcomes/ })
    .getByRole('button', { name: /Denied 1$/ })
    .click();
  await expect(page.locator('.tg-log-table tbody tr')).toHaveCount(1);
  await axe(page, 'audit table, dark, 400 px');
  await page
    .getByRole('list', { name: /^Outcomes/ })
    .getByRole('button', { name: 'All 3' })
    .click();
  const retention = page.getByRole('spinbutton', { name: 'Keep newest' });
  expect((await row.boundingBox())!.y).toBeLessThan((await retention.boundingBox())!.y);
  await row.getByRole('button', { name: /^Details of echo/ }).click();
  const drawer = page.getByRole('dialog', { name: /echo on/ });
  await expect(drawer).toContainText('"message": "narrow"');
  const box = (await drawer.boundingBox())!;
  const panel = (await page.locator('toolgate-panel').boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(panel.width - 1);
  await axe(page, 'audit drawer at 400 px');
  await page.screenshot({ path: 'test-results/screenshots/audit-drawer-400.png' });
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screenshots/audit-table-400.png', fullPage: true });
});

test('an open drawer follows its call: running, then how it ended', async ({ page }) => {
  await openPanel(page);
  await page.evaluate(() => {
    const stop = new AbortController();
    Object.assign(window, { stopSleep: () => stop.abort() });
    void (window as unknown as { toolgate: { call(request: object): Promise<unknown> } }).toolgate
      .call({
        serverId: 'alpha',
        toolName: 'sleep',
        arguments: { ms: 600_000 },
        caller: { kind: 'host', label: 'Notes assistant' },
        signal: stop.signal,
      })
      .catch(() => undefined);
  });
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once', exact: true }).click();
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const row = page.locator('.tg-log-table tbody tr[data-outcome="pending"]');
  await expect(row).toContainText('Running');
  await row.getByRole('button', { name: /^Details of sleep/ }).click();
  const drawer = page.getByRole('dialog', { name: /sleep on/ });
  await expect(drawer).toContainText('Still running.');
  await page.evaluate(() => (window as unknown as { stopSleep(): void }).stopSleep());
  await expect(drawer.locator('.tg-outcome')).toContainText('Cancelled');
  await expect(drawer).not.toContainText('Still running.');
  await expect(drawer.locator('details.tg-audit-raw > summary')).toContainText('Raw chain events (2)');
  await page.keyboard.press('Escape');
  await expect(page.locator('.tg-log-table tbody tr').first()).toHaveAttribute('data-outcome', 'cancelled');
});

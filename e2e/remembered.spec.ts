/**
 * Remembered approvals belong to one caller, and the person can see and revoke them: the widget in
 * Chromium against our SDK 1.x server, with calls made as two web sites. The server's own record of
 * calls is the evidence of what ran. Also the panel's lifecycle: moving <toolgate-panel> keeps its
 * session, and closing it settles a waiting approval instead of leaving the caller hanging.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { serveFixture } from './support/fixture-page.js';
import { type Peer, startPeer } from './support/peers.js';

const ORIGIN = 'https://widget.test';
test.use({ permissions: ['local-network-access'] });

let sdk: Peer;
test.beforeAll(async () => {
  sdk = await startPeer('sdk1-stateful-sse');
});
test.afterAll(async () => {
  await sdk?.stop();
});

async function openPanel(page: Page): Promise<void> {
  await serveFixture(page, ORIGIN, 'e2e/fixtures/widget/page.ts', 'Toolgate widget');
  await page.goto(`${ORIGIN}/?server=${encodeURIComponent(sdk.url)}&id=sdk`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await expect(page.locator('[data-server="sdk"]')).toContainText('connected', { timeout: 20_000 });
}

/** Starts a call to echo as a web site; resolves with the echoed text or the error's name. */
function callAsSite(page: Page, origin: string, message: string): Promise<string> {
  return page.evaluate(
    ([site, text]) =>
      (
        window as unknown as {
          toolgate: {
            call(request: object): Promise<{ result: { content: { text: string }[] } }>;
          };
        }
      ).toolgate
        .call({
          serverId: 'sdk',
          toolName: 'echo',
          arguments: { message: text },
          caller: { kind: 'site', label: site },
        })
        .then(
          (r) => r.result.content[0]!.text,
          (e: Error) => e.name,
        ),
    [origin, message] as const,
  );
}

const sentMessages = async () => (await sdk.events()).calls.map((c) => c.arguments.message);

test('an approval remembered for one site covers that site only, is listed, and revoking it asks again', async ({
  page,
}) => {
  await openPanel(page);
  const dialog = page.getByRole('dialog');

  const first = callAsSite(page, 'https://a.example', 'a-1');
  await expect(dialog).toContainText(/Asked by the web site \(?https:\/\/a\.example/);
  await dialog.getByRole('button', { name: 'Allow for this session' }).click();
  expect(await first).toBe('Echo: a-1');

  // Site A again: remembered, no dialog.
  expect(await callAsSite(page, 'https://a.example', 'a-2')).toBe('Echo: a-2');
  await expect(dialog).toHaveCount(0);

  // Site B is not covered by A's approval: asked, denied, nothing sent.
  const other = callAsSite(page, 'https://b.example', 'b-1');
  await expect(dialog).toContainText(/Asked by the web site \(?https:\/\/b\.example/);
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await other).toBe('DeniedError');
  expect(await sentMessages()).toEqual(expect.arrayContaining(['a-1', 'a-2']));
  expect(await sentMessages()).not.toContain('b-1');

  // The Approvals tab lists A's approval by caller, server, tool and scope.
  await page.getByRole('tab', { name: 'Approvals' }).click();
  const row = page.locator('.tg-remembered tbody tr', { hasText: 'https://a.example' });
  await expect(row).toContainText('sdk');
  await expect(row).toContainText('echo');
  await expect(row).toContainText('allowed for this session');
  await expect(page.locator('.tg-remembered tbody tr', { hasText: 'https://b.example' })).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);

  await row.getByRole('button', { name: /^Revoke/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Revoked' })).toContainText('https://a.example');
  await expect(row).toHaveCount(0);

  // Revoked: site A is asked again.
  const afterRevoke = callAsSite(page, 'https://a.example', 'a-3');
  await expect(dialog).toContainText(/Asked by the web site \(?https:\/\/a\.example/);
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await afterRevoke).toBe('DeniedError');
  expect(await sentMessages()).not.toContain('a-3');
});

test('a rule is listed with who it covers and can be deleted from the Approvals tab', async ({ page }) => {
  await openPanel(page);
  await page.evaluate(async () => {
    const { toolgate } = window as unknown as {
      toolgate: { ready: Promise<{ policy: { saveRule(r: object): Promise<unknown> } }> };
    };
    const { policy } = await toolgate.ready;
    await policy.saveRule({
      verdict: 'allow',
      server: 'sdk',
      tool: 'echo',
      caller: { kind: 'site', label: 'https://c.example' },
    });
  });
  await page.getByRole('tab', { name: 'Approvals' }).click();
  const row = page.locator('.tg-remembered tbody tr[data-type="rule"]', { hasText: 'https://c.example' });
  await expect(row).toContainText('rule: allow');
  expect(await callAsSite(page, 'https://c.example', 'c-1')).toBe('Echo: c-1');
  await row.getByRole('button', { name: 'Delete rule' }).click();
  await expect(row).toHaveCount(0);
  const asked = callAsSite(page, 'https://c.example', 'c-2');
  await expect(page.getByRole('dialog')).toContainText(/Asked by the web site \(?https:\/\/c\.example/);
  await page.getByRole('dialog').getByRole('button', { name: 'Deny' }).click();
  expect(await asked).toBe('DeniedError');
  expect(await sentMessages()).toContain('c-1');
  expect(await sentMessages()).not.toContain('c-2');
});

test('moving <toolgate-panel> keeps its session; closing it settles a waiting approval on record', async ({
  page,
}) => {
  await openPanel(page);
  const moved = await page.evaluate(async () => {
    const panel = document.querySelector('toolgate-panel') as HTMLElement & { ready: Promise<unknown> };
    const before = await panel.ready;
    const tabs = () => panel.shadowRoot?.querySelectorAll('[role="tab"]').length ?? 0;
    const tabsBefore = tabs();
    const aside = document.createElement('aside');
    document.body.append(aside);
    aside.append(panel); // disconnected and connected again in one step
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = await panel.ready;
    return { same: before === after, tabs: tabs(), tabsBefore };
  });
  // Still the same session, with every tab it had.
  expect(moved).toEqual({ same: true, tabs: moved.tabsBefore, tabsBefore: moved.tabsBefore });
  expect(moved.tabs).toBeGreaterThan(4);
  // The moved panel still works: its connection was not closed.
  const call = callAsSite(page, 'https://a.example', 'after-move');
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  expect(await call).toBe('Echo: after-move');

  // A call waits for approval; the panel closes; the caller gets a denial and nothing is sent.
  const waiting = page.evaluate(() =>
    (window as unknown as { toolgate: { call(request: object): Promise<unknown> } }).toolgate
      .call({ serverId: 'sdk', toolName: 'echo', arguments: { message: 'while-closing' } })
      .then(
        () => 'sent',
        (e: Error) => `${e.name}: ${e.message}`,
      ),
  );
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.evaluate(() => (window as unknown as { toolgate: { close(): Promise<void> } }).toolgate.close());
  expect(await waiting).toMatch(/^DeniedError: .*closed/);
  expect(await sentMessages()).not.toContain('while-closing');
  const refused = await page.evaluate(() =>
    (window as unknown as { toolgate: { call(request: object): Promise<unknown> } }).toolgate
      .call({ serverId: 'sdk', toolName: 'echo', arguments: { message: 'after-close' } })
      .then(
        () => 'sent',
        (e: Error) => e.message,
      ),
  );
  expect(refused).toContain('closed');
});

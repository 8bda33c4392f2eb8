/**
 * Screenshots of each view of the widget (issue 26), at 1280 and 400 px, light and dark, compared
 * with the baselines in e2e/__screenshots__/screenshots.spec.ts/, and axe on each of those states.
 * One page carries the state from view to view (real SDK servers, real calls), and each view is
 * shot at both widths and themes in place.
 *
 * After a change to how a view looks, regenerate the baselines (and look at them before committing):
 *   npx playwright test e2e/screenshots.spec.ts e2e/extension-screenshots.spec.ts --update-snapshots --workers=1
 *
 * What would differ between runs is frozen, never tolerated: the page's clock stands still in UTC
 * and en-US (times, durations and "just now" read the same), a loopback address's port reads
 * "PORT" (pinPorts), text is in DejaVu Sans (forceOneFont), animations and the caret are off
 * (playwright.config.ts), and each shot waits for a settled view (settled).
 */
import { type Browser, expect, type Page, test } from '@playwright/test';
import { type ApprovalPeer, startApprovalPeer } from './fixtures/approval/start-peer.js';
import { type OidcProtected, startOidcProtected } from './peers/oidc-protected.mjs';
import { untilArmed } from './support/dialogs.js';
import { type Peer, startPeer } from './support/peers.js';
import { forceOneFont, shootEveryWay } from './support/screenshots.js';
import { openSignInPage, signInSiteForFile } from './support/sign-in-site.js';
import { openTab, openWidget } from './support/widget-page.js';

// Each test shoots one view eight ways (two widths, two themes, axe on each): more than the
// default minute on a loaded machine.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

/** A dialog or drawer stands over the viewport: shot as the viewport shows it, not the whole page. */
const OVERLAY = { fullPage: false };

/**
 * The page's clock stands still (its timers run): times, durations and relative times read the same
 * in every run. It moves a minute before each call, so the calls keep their order in the log.
 */
const START = Date.parse('2026-03-02T09:30:00Z');
let minutes = 0;
/** The widget's page, which carries the state from view to view. */
let page: Page;
const nextMinute = () => page.clock.setFixedTime(START + ++minutes * 60_000);

async function openPage(browser: Browser): Promise<Page> {
  // Times are shown in the browser's zone and language: the same on every machine.
  const context = await browser.newContext({
    permissions: ['local-network-access'],
    timezoneId: 'UTC',
    locale: 'en-US',
  });
  const opened = await context.newPage();
  await opened.clock.setFixedTime(START);
  return opened;
}

test.describe('the widget’s views', () => {
  let sdk: Peer;
  let risky: ApprovalPeer;
  let skills: Peer;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    // Nothing listens on port 2 (below 1024, and not one Chrome refuses): the same failure every run.
    const offline = 'http://127.0.0.1:2/mcp';
    [sdk, risky, skills] = await Promise.all([
      startPeer('sdk1-stateful-sse'),
      startApprovalPeer(),
      startPeer('skills'),
    ]);
    page = await openPage(browser);
    await page.setViewportSize({ width: 1280, height: 900 });
    await openWidget(
      page,
      [
        { url: sdk.url, id: 'everyday', label: 'Everyday tools' },
        { url: risky.url, id: 'risky', label: 'Risky tools' },
        { url: skills.url, id: 'docs', label: 'Docs skills' },
        { url: offline, id: 'offline', label: 'Offline server' },
      ],
      { failing: ['offline'] },
    );
    await forceOneFont(page);
  });
  test.afterAll(async () => {
    await page?.context().close();
    await Promise.all([sdk?.stop(), risky?.stop(), skills?.stop()]);
  });

  /** A call from the host's model (the full approval dialog); resolves with 'ok' or the error's name. */
  async function modelCall(serverId: string, toolName: string, args: object): Promise<string> {
    await nextMinute();
    return page.evaluate(
      ([server, tool, input]) =>
        (window as unknown as { toolgate: { call(request: object): Promise<unknown> } }).toolgate
          .call({
            serverId: server,
            toolName: tool,
            arguments: input,
            caller: { kind: 'host', label: 'Writing assistant' },
          })
          .then(
            () => 'ok',
            (error: Error) => error.name,
          ),
      [serverId, toolName, args] as const,
    );
  }

  async function pickTool(tool: string, server: string): Promise<void> {
    await openTab(page, 'Tools');
    await page.getByLabel('Search tools').fill(tool);
    await page.locator('.tg-tool-button', { hasText: new RegExp(`^${tool}\\b.*${server}`) }).click();
    await expect(page.getByRole('heading', { name: tool, level: 3 })).toBeVisible();
  }

  test('Servers: three connected, one failed', async () => {
    await openTab(page, 'Servers');
    await expect(page.locator('[data-server="offline"]')).toBeVisible();
    await shootEveryWay(page, 'servers');
  });

  test('the approval dialog for a call from the host’s model', async () => {
    await openTab(page, 'Tools');
    const called = modelCall('everyday', 'echo', { message: 'Draft the weekly note' });
    const dialog = page.getByRole('dialog');
    await untilArmed(dialog);
    await expect(dialog).toContainText('Writing assistant');
    await shootEveryWay(page, 'approval-dialog', OVERLAY);
    // Remembered for the session: the Approvals tab lists it.
    await dialog.getByRole('button', { name: 'Allow for this session' }).click();
    expect(await called).toBe('ok');
    // And one the person denies, for Activity and the audit log.
    const denied = modelCall('everyday', 'add', { a: 2, b: 3 });
    await dialog.getByRole('button', { name: 'Deny' }).click();
    expect(await denied).toBe('DeniedError');
  });

  test('the compact confirmation of the person’s own call to a destructive tool', async () => {
    await pickTool('run_command', 'Risky tools');
    await page.locator('.tg-try').getByLabel('command (required)').fill('rm -rf /tmp/old-drafts');
    await nextMinute();
    await page
      .locator('.tg-try')
      .getByRole('button', { name: /^Call / })
      .click();
    const dialog = page.getByRole('dialog');
    await untilArmed(dialog);
    await expect(dialog.getByRole('button')).toHaveText(['Deny', 'Confirm']);
    await shootEveryWay(page, 'own-call-confirmation', OVERLAY);
    await dialog.getByRole('button', { name: 'Deny' }).click();
    await expect(dialog).toHaveCount(0);
  });

  test('Tools: a tool selected, its form and a result', async () => {
    await pickTool('echo', 'Everyday tools');
    await page
      .locator('.tg-try')
      .getByLabel(/^message/)
      .fill('Hello from the form');
    await nextMinute();
    await page.locator('.tg-try').getByRole('button', { name: 'Call echo' }).click();
    await expect(page.locator('.tg-try .tg-result')).toContainText('Echo: Hello from the form', {
      timeout: 20_000,
    });
    // The whole list beside the selected tool: every server's group, with its marks.
    await page.getByLabel('Search tools').fill('');
    await page.getByLabel('Search tools').blur();
    await shootEveryWay(page, 'tools');
  });

  test('Activity: finished calls, one denied', async () => {
    await openTab(page, /Activity/);
    await expect(page.locator('.tg-finished-call')).toHaveCount(4);
    await shootEveryWay(page, 'activity');
  });

  test('Audit log: the table, then an entry’s drawer', async () => {
    await openTab(page, 'Audit log');
    const rows = page.locator('.tg-log-table tbody tr');
    await expect(rows).toHaveCount(4);
    await shootEveryWay(page, 'audit-log');
    // The person's own echo: a call that ran, with its result.
    await rows.filter({ hasText: 'echo' }).filter({ hasText: 'You' }).click();
    const drawer = page.locator('.tg-audit-drawer');
    await expect(drawer).toBeVisible();
    await shootEveryWay(page, 'audit-drawer', OVERLAY);
    await drawer.getByRole('button', { name: 'Close' }).click();
    await expect(drawer).toHaveCount(0);
  });

  test('Approvals: a remembered grant', async () => {
    await openTab(page, 'Approvals');
    await expect(page.locator('.tg-remembered tbody tr')).toHaveCount(1);
    await shootEveryWay(page, 'approvals');
  });

  test('Inspect: a request paired with its response', async () => {
    await openTab(page, 'Inspect');
    const list = page.getByRole('list', { name: 'JSON-RPC messages' });
    const call = list.locator('li[data-method="tools/call"]', { hasText: '(echo)' }).first();
    await call.locator('summary').click();
    await expect(call.locator('.tg-message')).toHaveCount(2);
    await shootEveryWay(page, 'inspect');
  });

  test('Skills: what a server publishes', async () => {
    await openTab(page, 'Skills');
    await expect(page.locator('section[data-server="docs"] [data-skill]').first()).toBeVisible({
      timeout: 20_000,
    });
    await shootEveryWay(page, 'skills');
  });
});

test.describe('signing in', () => {
  const site = signInSiteForFile('e2e/fixtures/sign-in-modes/page.ts', 'Sign-in screenshots');
  let oidc: OidcProtected | undefined;
  test.afterAll(async () => {
    await oidc?.close();
  });

  test('the sign-in card on Servers, then the dialog it opens', async ({ browser }) => {
    oidc = await startOidcProtected();
    const signIn = await openPage(browser);
    await signIn.setViewportSize({ width: 1280, height: 900 });
    await openSignInPage(signIn, site, { server: oidc.urls.good, audit: 'screenshots-sign-in' });
    await forceOneFont(signIn);
    const card = signIn.locator('[data-sign-in-card="notes"]');
    await expect(card.getByRole('button', { name: /^Sign in to / })).toBeVisible({ timeout: 20_000 });
    await shootEveryWay(signIn, 'sign-in-card');
    await card.getByRole('button', { name: /^Sign in to / }).click();
    const dialog = signIn.getByRole('dialog', { name: 'Sign in to Notes?' });
    await expect(dialog).toContainText('mcp:tools');
    await shootEveryWay(signIn, 'sign-in-dialog', OVERLAY);
    await signIn.context().close();
  });
});

/**
 * Signing in where popups are blocked: the sign-in continues in the page's own tab. The popup is
 * blocked by Chromium itself: the host's go-ahead resolves at once, outside any click, so
 * window.open returns null; the panel then offers "Continue in this tab". The tab goes to
 * oidc-provider (its own login and consent pages), comes back through the callback page to the
 * panel's page, which finishes the sign-in from what the tab kept in sessionStorage and connects.
 * Also the host's choice `mode: 'redirect'`, and a call that was waiting for a step-up when the
 * page left: shown as interrupted, never sent again by itself. Real parts: oidc-provider and an
 * SDK server requiring bearer tokens, on 127.0.0.1.
 */
import { expect, type Page, test } from '@playwright/test';
import { type OidcProtected, startOidcProtected } from './peers/oidc-protected.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './support/chromium.js';
import {
  callNotes,
  closeAfterEach,
  exportedLog,
  logInAndConsent,
  openSignInPage,
  signInFromCard,
  signInSiteForFile,
} from './support/sign-in-site.js';

// Playwright turns Chromium's popup blocker off by default; these tests need it on, as people have it.
test.use({
  launchOptions: {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    ignoreDefaultArgs: ['--disable-popup-blocking'],
  },
});

const site = signInSiteForFile('e2e/fixtures/sign-in-modes/page.ts', 'Sign-in modes');
let peer: OidcProtected | undefined;
closeAfterEach(() => peer);

const openPanel = (page: Page, query: Record<string, string>) => openSignInPage(page, site, query);

/** The person's part at oidc-provider, in this tab: log in (the first time), consent. */
async function signInHere(page: Page, issuer: string): Promise<void> {
  await page.waitForURL((url) => url.origin === issuer);
  await logInAndConsent(page);
}

const keptRecords = (page: Page) =>
  page.evaluate(() =>
    Object.keys(sessionStorage).filter((name) => name.startsWith('toolgate-oauth-redirect')),
  );

test('Chromium blocks the popup; "Continue in this tab" signs in through a redirect and back, and a call works', async ({
  page,
  context,
}) => {
  peer = await startOidcProtected();
  const issuer = new URL(peer.issuer).origin;
  let popups = 0;
  context.on('page', () => popups++);
  const start = { server: peer.urls.good, confirm: 'host' };
  // Nothing evaluated in the page before the popup is tried: Playwright's evaluations carry user
  // activation, which would let it through. The page says on its console when it prompts.
  const prompted = page.waitForEvent('console', (message) => message.text() === 'sign-in prompt: blocked');
  await page.goto(`${site.origin}/?${new URLSearchParams(start)}`);
  await prompted;
  const dialog = page.getByRole('dialog', { name: 'Continue signing in to Notes in this tab?' });
  await expect(dialog).toContainText('The browser blocked the sign-in window');
  await expect(dialog).toContainText(issuer);
  // What the sign-in keeps to finish rests in the tab, not in the address it goes to.
  await dialog.getByRole('button', { name: 'Continue in this tab' }).click();
  await signInHere(page, issuer);
  const authorization = peer.seen.authorizations.at(-1);
  expect(authorization?.resource).toBe(peer.urls.good);

  await page.waitForURL((url) => url.origin === site.origin && url.pathname === '/');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  const row = page.locator('[data-server="notes"]');
  await expect(row).toContainText('connected', { timeout: 20_000 });
  await expect(row).toContainText(`Signed in at ${issuer}`);
  expect(popups).toBe(0);
  expect(new URL(page.url()).searchParams.has('code')).toBe(false);
  // The kept record was used once and is gone.
  expect(await keptRecords(page)).toEqual([]);
  expect(peer.seen.tokenRequests).toEqual([{ grantType: 'authorization_code', resource: peer.urls.good }]);

  const called = callNotes(page, 'whoami', {});
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  expect(await called).toBe('ok');
  const lastCall = peer.seen.mcp.filter((request) => request.path === '/mcp').at(-1);
  expect(lastCall?.authorization).toMatch(/^Bearer \S{10,}/);
});

test("mode: 'redirect' says the tab leaves, and a call waiting for a step-up is shown as interrupted, not sent again", async ({
  page,
}) => {
  peer = await startOidcProtected();
  const issuer = new URL(peer.issuer).origin;
  const query = { server: peer.urls.good, mode: 'redirect', audit: `redirect-${crypto.randomUUID()}` };
  await openPanel(page, query);
  await signInFromCard(page);
  const dialog = page.getByRole('dialog', { name: 'Sign in to Notes?' });
  await expect(dialog).toContainText(`This tab goes to ${issuer}`);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await signInHere(page, issuer);
  await page.waitForURL((url) => url.origin === site.origin && url.pathname === '/');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  const row = page.locator('[data-server="notes"]');
  await expect(row).toContainText('connected', { timeout: 20_000 });
  await expect(row).toContainText(`Signed in at ${issuer}`);

  // add_note needs more scope: the approved call meets a 403 and waits for the step-up sign-in.
  void callNotes(page, 'add_note', { text: 'from before the redirect' }).catch(() => undefined);
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Sign in to Notes?' });
  await expect(stepUp).toContainText('mcp:write');
  await expect(stepUp).toContainText('not sent again by itself');
  await stepUp.getByRole('button', { name: 'Sign in' }).click();
  await signInHere(page, issuer);
  await page.waitForURL((url) => url.origin === site.origin && url.pathname === '/');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await expect(row).toContainText('connected', { timeout: 20_000 });
  await expect(row).toContainText(`Signed in at ${issuer}`);
  expect(peer.seen.authorizations.at(-1)?.scopes).toContain('mcp:write');

  // The log of this origin says the call was interrupted; the server never ran it.
  const exported = await exportedLog(page);
  const lines = exported
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const sent = lines.find(
    (line) => line.kind === 'pending' && JSON.stringify(line.body).includes('add_note'),
  );
  expect(sent).toBeDefined();
  const after = lines.filter((line) => line.invocationId === sent?.invocationId).map((line) => line.kind);
  expect(after).toEqual(['pending', 'interrupted']);

  // Run again by the person, it goes through with the new scope; the server holds that note only.
  const again = callNotes(page, 'add_note', { text: 'run again' });
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  expect(await again).toBe('ok');
  const read = callNotes(page, 'read_notes', {});
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  const notes = await read;
  expect(notes).toContain('run again');
  expect(notes).not.toContain('from before the redirect');
});

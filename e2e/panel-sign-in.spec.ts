/**
 * Signing in from the panel: a server whose config carries `auth` asks for authorization; the panel
 * shows "Sign in to <server>?" with the authorization server's origin and the scopes, the person
 * clicks Sign in, logs in and consents in oidc-provider's own popup pages, and the server connects.
 * The panel shows the signed-in state with Sign out; the audit log records the sign-in, never the
 * token. Real parts: oidc-provider and an SDK server requiring bearer tokens, on 127.0.0.1.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type OidcProtected, startOidcProtected } from './peers/oidc-protected.mjs';
import {
  callNotes,
  closeAfterEach,
  exportedLog,
  openSignInPage,
  signInAtOidcProvider,
  signInFromCard,
  signInSiteForFile,
} from './support/sign-in-site.js';

// The sign-in-modes page with no options: the plain panel with one server that needs signing in.
const site = signInSiteForFile('e2e/fixtures/sign-in-modes/page.ts', 'Panel sign-in');
let peer: OidcProtected | undefined;
closeAfterEach(() => peer);

const openPanel = (page: Page, server: string) => openSignInPage(page, site, { server });

test('the panel asks, signs in through the popup, shows the signed-in server, calls, records, signs out', async ({
  page,
  context,
}) => {
  peer = await startOidcProtected();
  await openPanel(page, peer.urls.good);
  const issuer = new URL(peer.issuer).origin;

  // No dialog on load: the server's card offers the sign-in, and the person's click opens it.
  await signInFromCard(page);
  const dialog = page.getByRole('dialog', { name: 'Sign in to Notes?' });
  await expect(dialog).toContainText(issuer);
  await expect(dialog).toContainText('mcp:tools');
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  // Nothing opened before the person's click.
  expect(context.pages()).toHaveLength(1);
  await signInAtOidcProvider(context, () => dialog.getByRole('button', { name: 'Sign in' }).click());

  const row = page.locator('[data-server="notes"]');
  await expect(row).toContainText('connected', { timeout: 20_000 });
  await expect(row).toContainText(`Signed in at ${issuer}`);

  // A call through the gate carries the token issued for this server.
  const called = callNotes(page, 'whoami', {});
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  expect(await called).toBe('ok');
  const withToken = peer.seen.mcp.filter((request) => request.path === '/mcp' && request.authorization);
  expect(withToken.length).toBeGreaterThan(0);
  const token = withToken[0]!.authorization!.slice('Bearer '.length);

  // The audit log says who signed in to which server, never the token.
  const exported = await exportedLog(page);
  expect(exported).toContain('auth/sign-in');
  expect(exported).not.toContain(token);

  await row.getByRole('button', { name: 'Sign out of Notes' }).click();
  await expect(row).not.toContainText('Signed in at');
  await expect.poll(() => peer!.seen.revocations).toBeGreaterThan(0);
});

test('"Not now" leaves the server unconnected, saying so, and nothing opens', async ({ page, context }) => {
  peer = await startOidcProtected();
  await openPanel(page, peer.urls.good);
  await signInFromCard(page);
  const dialog = page.getByRole('dialog', { name: 'Sign in to Notes?' });
  await dialog.getByRole('button', { name: 'Not now' }).click();
  const row = page.locator('.tg-server, [data-server="notes"]').first();
  const notSignedIn = page.getByRole('region', { name: 'Not signed in' });
  await expect(notSignedIn).toContainText(/chose not to sign in/, { timeout: 20_000 });
  // A choice, not a failure: nothing under "could not connect", and the row says what it is.
  await expect(page.getByRole('region', { name: 'Connection problems' })).toHaveCount(0);
  await expect(row).toContainText('needs sign-in');
  await expect(row).not.toContainText('Signed in at');
  expect(context.pages()).toHaveLength(1);
  expect(peer.seen.authorizations).toHaveLength(0);
  // Signing in later asks again, and only asks.
  await notSignedIn.getByRole('button', { name: 'Sign in to Notes' }).click();
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  expect(context.pages()).toHaveLength(1);
});

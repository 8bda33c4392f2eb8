/**
 * A step-up sign-in during a call outlasts the call's idle timeout: the panel's calls time out after
 * 2 s without an answer; add_note meets a 403 insufficient_scope (it needs mcp:write), the panel asks
 * the person to sign in again, and the person takes longer than the timeout to click. The call's
 * timer stops while the person is asked (src/protocol/person-wait.ts), so the call goes through
 * once they have signed in, instead of "timed out". Real parts: oidc-provider and an SDK server
 * requiring bearer tokens, on 127.0.0.1.
 */
import { expect, test } from '@playwright/test';
import { type OidcProtected, startOidcProtected } from './peers/oidc-protected.mjs';
import {
  callNotes,
  closeAfterEach,
  openSignInPage,
  signInAtOidcProvider,
  signInFromCard,
  signInSiteForFile,
} from './support/sign-in-site.js';

const site = signInSiteForFile('e2e/fixtures/sign-in-modes/page.ts', 'Sign-in modes');
let peer: OidcProtected | undefined;
closeAfterEach(() => peer);

const CALL_TIMEOUT_MS = 2_000;

test('the person signs in more slowly than the call times out, and the call still goes through', async ({
  page,
  context,
}) => {
  peer = await startOidcProtected();
  await openSignInPage(page, site, { server: peer.urls.good, timeout: String(CALL_TIMEOUT_MS) });
  await signInFromCard(page);
  const first = page.getByRole('dialog', { name: 'Sign in to Notes?' });
  await signInAtOidcProvider(context, () => first.getByRole('button', { name: 'Sign in' }).click());
  const row = page.locator('[data-server="notes"]');
  await expect(row).toContainText('connected', { timeout: 20_000 });

  await page.getByRole('tab', { name: 'Activity', exact: true }).click();
  const called = callNotes(page, 'add_note', { text: 'written after a slow sign-in' });
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Sign in to Notes?' });
  await expect(stepUp).toContainText('mcp:write');
  // Activity says what the call waits for (behind the dialog).
  await expect(page.locator('.tg-running-call')).toContainText('waiting for sign-in');
  // The person reads, hesitates: twice the call's timeout passes before they click.
  await page.waitForTimeout(CALL_TIMEOUT_MS * 2);
  await expect(stepUp).toBeVisible();
  await signInAtOidcProvider(context, () => stepUp.getByRole('button', { name: 'Sign in' }).click());

  expect(await called).toBe('ok');
  await expect(page.locator('.tg-running-call')).toHaveCount(0);
  expect(peer.seen.authorizations.at(-1)?.scopes).toContain('mcp:write');
});

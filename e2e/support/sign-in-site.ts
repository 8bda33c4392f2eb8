/**
 * Helpers shared by the sign-in suites: a real HTTP site on 127.0.0.1 serving one bundled page at
 * `/` and at `/callback.html` (the redirect URI), and the person's part in oidc-provider's popup.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, expect } from '@playwright/test';
import { bundle } from './bundle.js';
import { type StaticServer, serveStatic } from './static-server.js';

export type SignInSite = StaticServer;

/** Serves `entry` (bundled) as the page at `/` and `/callback.html`, with `title`. */
export async function serveSignInSite(entry: string, title: string): Promise<SignInSite> {
  const page = `<!doctype html><html lang="en"><meta charset="utf-8"><title>${title}</title><main><h1>${title}</h1></main><script type="module" src="/page.js"></script></html>`;
  const dir = await mkdtemp(join(tmpdir(), 'toolgate-sign-in-'));
  await writeFile(join(dir, 'page.js'), await bundle(entry));
  await writeFile(join(dir, 'index.html'), page);
  await writeFile(join(dir, 'callback.html'), page);
  const site = await serveStatic(dir);
  return {
    ...site,
    async stop() {
      await site.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `click` opens oidc-provider's popup; the person logs in (the first time in this browser) and
 * consents; resolves once the popup has closed itself.
 */
export async function signInAtOidcProvider(
  context: BrowserContext,
  click: () => Promise<void>,
): Promise<void> {
  const opened = context.waitForEvent('page');
  await click();
  const popup = await opened;
  const closed = popup.waitForEvent('close');
  const login = popup.locator('input[name="login"]');
  const consent = popup.getByRole('button', { name: 'Continue' });
  await expect(login.or(consent)).toBeVisible();
  if (await login.isVisible()) {
    await login.fill('ada');
    await popup.locator('input[name="password"]').fill('any password');
    await popup.getByRole('button', { name: 'Sign-in' }).click();
  }
  await consent.click();
  await closed;
}

/**
 * Helpers shared by the sign-in suites: a real HTTP site on 127.0.0.1 serving one bundled page at
 * `/` and at `/callback.html` (the redirect URI), the hooks every such spec file repeats (the site
 * for the file, the peer server closed after each test), the person's part at oidc-provider (in
 * its popup or in the page's own tab), and a call through the page's gate.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
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
  await logInAndConsent(popup);
  await closed;
}

/** The person's part on oidc-provider's pages shown in `page`: log in (the first time), consent. */
export async function logInAndConsent(page: Page): Promise<void> {
  const login = page.locator('input[name="login"]');
  const consent = page.getByRole('button', { name: 'Continue' });
  await expect(login.or(consent)).toBeVisible();
  if (await login.isVisible()) {
    await login.fill('ada');
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
  }
  await consent.click();
}

/**
 * Serves the sign-in site for every test of the calling spec file: started before the first test,
 * stopped after the last. The returned object reads the running site, so tests use it as the site.
 */
export function signInSiteForFile(entry: string, title: string): SignInSite {
  let site: SignInSite | undefined;
  test.beforeAll(async () => {
    site = await serveSignInSite(entry, title);
  });
  test.afterAll(async () => {
    await site?.stop();
  });
  const running = (): SignInSite => {
    if (!site) throw new Error(`The sign-in site for ${entry} is not running: use it inside a test.`);
    return site;
  };
  return {
    get origin() {
      return running().origin;
    },
    get requests() {
      return running().requests;
    },
    stop: () => running().stop(),
  };
}

/**
 * Closes, after each test, the peer server `current` names (the one the test started, if any);
 * one closed already is not closed again when a later test starts none.
 */
export function closeAfterEach(current: () => { close(): Promise<void> } | undefined): void {
  const closed = new WeakSet<object>();
  test.afterEach(async () => {
    const peer = current();
    if (!peer || closed.has(peer)) return;
    closed.add(peer);
    await peer.close();
  });
}

/** Opens the site's page with `query` and waits until its panel says it is ready. */
export async function openSignInPage(
  page: Page,
  site: SignInSite,
  query: Record<string, string>,
): Promise<void> {
  await page.goto(`${site.origin}/?${new URLSearchParams(query)}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
}

/** The page's audit log (window.toolgate's), exported as NDJSON text. */
export const exportedLog = (page: Page): Promise<string> =>
  page.evaluate(async () => {
    const { auditLog } = await (
      window as unknown as {
        toolgate: { ready: Promise<{ auditLog: { exportBlob(f: string): Promise<Blob> } }> };
      }
    ).toolgate.ready;
    return (await auditLog.exportBlob('ndjson')).text();
  });

/**
 * Calls `tool` of the page's "notes" server through the gate (window.toolgate): 'ok' once a write
 * went through, read_notes' result as JSON, or the error's message.
 */
export const callNotes = (page: Page, tool: string, args: object): Promise<string> =>
  page.evaluate(
    ([name, input]) =>
      (window as unknown as { toolgate: { call(request: object): Promise<unknown> } }).toolgate
        .call({ serverId: 'notes', toolName: name, arguments: input })
        .then(
          (result) => (name === 'read_notes' ? JSON.stringify(result) : 'ok'),
          (error: Error) => error.message,
        ),
    [tool, args] as const,
  );

/**
 * A sign-in asked for while the page loads waits on its server's card in Servers (no dialog opens
 * by itself): the person's "Sign in to <server>" there opens the dialog.
 */
export async function signInFromCard(page: Page, server = 'notes'): Promise<void> {
  await page
    .locator(`[data-sign-in-card="${server}"]`)
    .getByRole('button', { name: /^Sign in to / })
    .click({ timeout: 20_000 });
}

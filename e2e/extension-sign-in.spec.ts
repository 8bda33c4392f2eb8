/**
 * Signing in from the extension (issue 15): the built extension, loaded unpacked, against
 * oidc-provider fronting an official-SDK MCP server that requires bearer tokens. The side panel asks
 * "Sign in to <server>?"; only the person's "Sign in" lets the service worker open
 * chrome.identity.launchWebAuthFlow, whose window shows oidc-provider's own login and consent
 * pages and ends at https://<extension-id>.chromiumapp.org/oauth. Then a call carries the token,
 * the token is refreshed without asking anyone, and Sign out revokes it.
 *
 * And a server that sends no CORS headers: refused, until the person lets Toolgate reach its origin
 * from the panel; that grant never turns the origin on as a site, and taking it back refuses again.
 */
import { expect, type Page, test } from '@playwright/test';
import { type OidcProtected, startOidcProtected } from './peers/oidc-protected.mjs';
import { type LoadedExtension, launchWithExtension } from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';
import { signInAtOidcProvider } from './support/sign-in-site.js';

// Sign-ins, token lifetimes and reconnects through a worker: more steps than the default minute allows.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

let extension: LoadedExtension;
let peer: OidcProtected | undefined;
let plain: Peer | undefined;

test.beforeAll(async () => {
  extension = await launchWithExtension();
});
test.afterAll(async () => {
  await Promise.all([extension?.close(), peer?.close(), plain?.stop()]);
});

/** The id the panel gives a server added by URL: its host and path. */
const idOf = (url: string) => `${new URL(url).host}${new URL(url).pathname}`;
const tokensAt = (path: string) =>
  peer!.seen.mcp
    .filter((request) => request.path === path && request.authorization)
    .map((r) => r.authorization);

/** Every record of the extension's audit database, as one JSON text (read in an extension page). */
async function dumpAuditLog(): Promise<string> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open('toolgate-audit');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const stores = [...db.objectStoreNames];
  const all = await Promise.all(
    stores.map(
      (name) =>
        new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(name).objectStore(name).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        }),
    ),
  );
  db.close();
  return JSON.stringify(all);
}

async function addServer(panel: Page, url: string): Promise<void> {
  await panel.getByRole('tab', { name: 'Servers' }).click();
  await panel.getByLabel('Server URL').fill(url);
  await panel.getByRole('button', { name: 'Add server' }).click();
}

/** The person calls the tool titled `title` from the Tools tab and allows it once; resolves with the result's text. */
async function callFromPanel(panel: Page, title: string): Promise<string> {
  await panel.getByRole('tab', { name: 'Tools' }).click();
  await panel.getByLabel('Search tools').fill(title);
  await panel.locator('.tg-tool-button', { hasText: title }).click();
  const form = panel.locator('.tg-try');
  await form.getByRole('button', { name: /^Call / }).click();
  await panel.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  const result = form.locator('.tg-result');
  await expect(result).toBeVisible({ timeout: 20_000 });
  return (await result.textContent()) ?? '';
}

test('signs in through Chrome’s web auth flow after the panel’s yes, calls with the token, refreshes, signs out', async () => {
  peer = await startOidcProtected({ accessTokenSeconds: 4 });
  const { context, extensionId } = extension;
  const panel = await extension.openPanel();
  const id = idOf(peer.urls.good);
  const issuer = new URL(peer.issuer).origin;
  const pagesBefore = context.pages().length;

  await addServer(panel, peer.urls.good);
  const dialog = panel.getByRole('dialog', { name: `Sign in to ${id}?` });
  await expect(dialog).toContainText(issuer, { timeout: 20_000 });
  await expect(dialog).toContainText('mcp:tools');
  // Nothing opened, and the authorization server was not asked, before the person's click.
  expect(context.pages()).toHaveLength(pagesBefore);
  expect(peer.seen.authorizations).toHaveLength(0);

  await signInAtOidcProvider(context, () => dialog.getByRole('button', { name: 'Sign in' }).click());
  const row = panel.locator(`[data-server="${id}"]`);
  await expect(row).toContainText('connected', { timeout: 20_000 });
  await expect(row).toContainText(`Signed in at ${issuer}`);
  // The extension registered itself (no Client ID Metadata Document: it serves no https) with its
  // chromiumapp.org redirect URI, and asked for a token for this very server.
  expect(peer.seen.registrations).toBe(1);
  expect(peer.seen.authorizations).toEqual([
    { scopes: expect.arrayContaining(['mcp:tools']), resource: peer.urls.good },
  ]);

  expect(await callFromPanel(panel, 'Who am I')).toContain('mcp:tools');
  const first = tokensAt('/mcp').at(-1);
  expect(first).toMatch(/^Bearer /);

  // The token lives 4 s: later calls go out with a refreshed one, and nobody is asked again.
  let windows = 0;
  context.on('page', () => windows++);
  await expect
    .poll(
      async () => {
        await callFromPanel(panel, 'Read notes');
        return tokensAt('/mcp').at(-1);
      },
      {
        timeout: 30_000,
        intervals: [1_000],
      },
    )
    .not.toBe(first);
  expect(windows).toBe(0);
  expect(peer.seen.authorizations).toHaveLength(1);
  expect(peer.seen.tokenRequests).toContainEqual({ grantType: 'refresh_token', resource: peer.urls.good });

  // The worker keeps tokens in chrome.storage.session (memory, the extension's own contexts only).
  const worker = await extension.serviceWorker();
  const kept = await worker.evaluate(async () => Object.keys(await chrome.storage.session.get(null)));
  expect(kept.some((key) => key.startsWith('auth tokens '))).toBe(true);

  // The audit log (the extension's IndexedDB) records the sign-in, never a token.
  const tokens = new Set(tokensAt('/mcp').map((header) => header!.slice('Bearer '.length)));
  const audit = await panel.evaluate(dumpAuditLog);
  expect(audit).toContain('auth/sign-in');
  for (const token of tokens) expect(audit).not.toContain(token);

  await panel.getByRole('tab', { name: 'Servers' }).click();
  await row.getByRole('button', { name: /^Sign out of / }).click();
  await expect(row).not.toContainText('Signed in at');
  await expect.poll(() => peer!.seen.revocations).toBeGreaterThan(0);
  const after = await worker.evaluate(async () => Object.keys(await chrome.storage.session.get(null)));
  expect(after.some((key) => key.startsWith('auth tokens '))).toBe(false);
  expect(extensionId).toMatch(/^[a-p]{32}$/);
  // Removed, so a later worker start does not ask to sign in to it again.
  await row.getByRole('button', { name: 'Remove' }).click();
  await panel.close();
});

test('a sign-in outlives the worker: Chrome stops it, the next one connects with the kept token, asking nobody', async () => {
  const lasting = await startOidcProtected();
  try {
    const { context } = extension;
    const panel = await extension.openPanel();
    const id = idOf(lasting.urls.good);
    await addServer(panel, lasting.urls.good);
    const dialog = panel.getByRole('dialog', { name: `Sign in to ${id}?` });
    await signInAtOidcProvider(context, () => dialog.getByRole('button', { name: 'Sign in' }).click());
    const row = panel.locator(`[data-server="${id}"]`);
    await expect(row).toContainText('connected', { timeout: 20_000 });
    let windows = 0;
    context.on('page', () => windows++);

    const worker = await extension.serviceWorker();
    await worker.evaluate(() => Object.assign(globalThis, { beforeTheStop: true }));
    const devtools = await context.newCDPSession(panel);
    await devtools.send('ServiceWorker.enable');
    await devtools.send('ServiceWorker.stopAllWorkers');
    // The open panel reconnects at once, which starts a new worker (one without the mark).
    await expect
      .poll(async () =>
        (await extension.serviceWorker()).evaluate(() => 'beforeTheStop' in globalThis).catch(() => true),
      )
      .toBe(false);
    await devtools.detach();

    await expect(row).toContainText('connected', { timeout: 20_000 });
    const before = lasting.seen.mcp.filter((request) => request.authorization).length;
    expect(await callFromPanel(panel, 'Who am I')).toContain('mcp:tools');
    // The new worker's requests carried the kept token; nobody was sent to sign in again.
    expect(lasting.seen.mcp.filter((request) => request.authorization).length).toBeGreaterThan(before);
    expect(windows).toBe(0);
    expect(lasting.seen.authorizations).toHaveLength(1);
    await panel.getByRole('tab', { name: 'Servers' }).click();
    await row.getByRole('button', { name: 'Remove' }).click();
    await panel.close();
  } finally {
    await lasting.close();
  }
});

test('"Not now" opens nothing and leaves the server unconnected, saying why; Retry asks again', async () => {
  const panel = await extension.openPanel();
  const url = peer!.urls.refuses;
  const before = extension.context.pages().length;
  const authorizations = peer!.seen.authorizations.length;
  await addServer(panel, url);
  const dialog = panel.getByRole('dialog', { name: `Sign in to ${idOf(url)}?` });
  await dialog.getByRole('button', { name: 'Not now' }).click();
  await expect(panel.getByText(/chose not to sign in/).first()).toBeVisible({ timeout: 20_000 });
  expect(extension.context.pages()).toHaveLength(before);
  expect(peer!.seen.authorizations).toHaveLength(authorizations);
  // Retry asks again (and only asks: the window still waits for a yes).
  await panel
    .getByRole('button', { name: /^Retry / })
    .first()
    .click();
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  expect(extension.context.pages()).toHaveLength(before);
  await dialog.getByRole('button', { name: 'Not now' }).click();
  await expect(dialog).toHaveCount(0);
  await panel
    .locator(`[data-server="${idOf(url)}"]`)
    .getByRole('button', { name: 'Remove' })
    .click();
  await panel.close();
});

test('a server without CORS headers is refused until the person lets Toolgate reach its origin', async () => {
  plain = await startPeer('sdk1-stateful-json', { cors: false });
  const origin = new URL(plain.url).origin;
  const panel = await extension.openPanel();
  await addServer(panel, plain.url);
  const row = panel.locator(`[data-server="${idOf(plain.url)}"]`);
  await expect(row).toContainText('failed', { timeout: 20_000 });
  await expect(panel.getByText(/CORS settings do not let this page/).first()).toBeVisible();
  expect((await plain.events()).messages).toHaveLength(0);

  // The person answers Chrome's prompt (given beforehand: Playwright cannot click it), then clicks.
  await extension.allowOriginInSettings(origin);
  await panel.getByRole('button', { name: `Allow Toolgate to reach ${origin}` }).click();
  await expect(panel.getByRole('status').filter({ hasText: `may now reach ${origin}` })).toBeVisible();
  await expect(row).toContainText('connected', { timeout: 20_000 });
  await panel.getByRole('tab', { name: 'Tools' }).click();
  await panel.getByLabel('Search tools').fill('echo');
  await panel.locator('.tg-tool-button', { hasText: /^echo\b/ }).click();
  await panel.locator('.tg-try').getByLabel('message (required)').fill('past CORS');
  await panel
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();
  await panel.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  await expect(panel.locator('.tg-try .tg-result')).toContainText('past CORS', { timeout: 20_000 });

  // Reaching a server is not turning its site on: no page API there, listed apart, revocable.
  await panel.getByRole('tab', { name: 'Sites' }).click();
  const list = panel.getByRole('list', { name: 'Servers reached without CORS' });
  await expect(list).toContainText(origin);
  await expect(panel.getByText('No site is turned on.')).toBeVisible();
  const worker = await extension.serviceWorker();
  await expect
    .poll(() => worker.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).length))
    .toBe(0);

  await list.getByRole('button', { name: `Stop reaching ${origin}` }).click();
  await expect(panel.getByText(/^None\. When a server/)).toBeVisible();
  // Connected again from scratch, the server is refused as before the grant.
  await panel.getByRole('tab', { name: 'Servers' }).click();
  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(row).toHaveCount(0);
  await addServer(panel, plain.url);
  await expect(row).toContainText('failed', { timeout: 20_000 });
  await expect(panel.getByRole('button', { name: `Allow Toolgate to reach ${origin}` })).toBeVisible();
  await panel.close();
});

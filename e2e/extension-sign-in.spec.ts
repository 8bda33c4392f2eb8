/**
 * Signing in from the extension (issue 15): the built extension, loaded unpacked, against
 * oidc-provider fronting an official-SDK MCP server that requires bearer tokens. The side panel asks
 * "Sign in to <server>?"; only the person's "Sign in" lets the service worker open
 * chrome.identity.launchWebAuthFlow, whose window shows oidc-provider's own login and consent
 * pages and ends at https://<extension-id>.chromiumapp.org/oauth. Then a call carries the token,
 * the token is refreshed without asking anyone, and Sign out revokes it.
 *
 * Then the rest of a sign-in's life: a step-up for a tool that needs another scope (the panel asks
 * again), a token revoked at the authorization server (sent once, refused, asked again), and a
 * token that expired while Chrome had stopped the worker (the next worker refreshes it with the
 * kept registration, asking nobody), and a DPoP-bound token proven by the next worker with the key
 * pair kept in its IndexedDB.
 *
 * And a server that sends no CORS headers: refused, until the person lets Toolgate reach its origin
 * from the panel; that grant never turns the origin on as a site, and taking it back refuses again.
 * The same for an authorization server that sends none: its origin is offered, then the sign-in
 * goes through.
 */
import { expect, type Page, test } from '@playwright/test';
import { type OidcProtected, startOidcProtected } from './peers/oidc-protected.mjs';
import { type LoadedExtension, launchWithExtension } from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';
import { callFromPanel, serverIdOf, serverLabelOf, startPanelCall } from './support/side-panel.js';
import { signInAtOidcProvider } from './support/sign-in-site.js';
import { fillServerUrl } from './support/widget-page.js';

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
  await fillServerUrl(panel, url);
  await panel.getByRole('button', { name: 'Add server' }).click();
}

test('signs in through Chrome’s web auth flow after the panel’s yes, calls with the token, refreshes, signs out', async () => {
  peer = await startOidcProtected({ accessTokenSeconds: 4 });
  const { context, extensionId } = extension;
  const panel = await extension.openPanel();
  const id = serverIdOf(peer.urls.good);
  const issuer = new URL(peer.issuer).origin;
  const pagesBefore = context.pages().length;

  await addServer(panel, peer.urls.good);
  const dialog = panel.getByRole('dialog', { name: `Sign in to ${serverLabelOf(peer.urls.good)}?` });
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
    const id = serverIdOf(lasting.urls.good);
    await addServer(panel, lasting.urls.good);
    const dialog = panel.getByRole('dialog', { name: `Sign in to ${serverLabelOf(lasting.urls.good)}?` });
    await signInAtOidcProvider(context, () => dialog.getByRole('button', { name: 'Sign in' }).click());
    const row = panel.locator(`[data-server="${id}"]`);
    await expect(row).toContainText('connected', { timeout: 20_000 });
    let windows = 0;
    context.on('page', () => windows++);

    await restartWorker(panel);

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

test('a DPoP-bound sign-in outlives the worker: the next one proves the kept token with the key kept in IndexedDB', async () => {
  const bound = await startOidcProtected();
  try {
    const panel = await extension.openPanel();
    const id = serverIdOf(bound.urls.dpop);
    await addServer(panel, bound.urls.dpop);
    const dialog = panel.getByRole('dialog', { name: `Sign in to ${serverLabelOf(bound.urls.dpop)}?` });
    await signInAtOidcProvider(extension.context, () =>
      dialog.getByRole('button', { name: 'Sign in' }).click(),
    );
    const row = panel.locator(`[data-server="${id}"]`);
    await expect(row).toContainText('connected', { timeout: 20_000 });
    // The server checked a DPoP proof for each request: the token is bound to one key.
    const first = bound.seen.dpopVerified.at(-1)!;
    expect(first.jkt).toMatch(/^[\w-]{43}$/);

    await restartWorker(panel);
    await expect(row).toContainText('connected', { timeout: 20_000 });
    const verified = bound.seen.dpopVerified.length;
    expect(await callFromPanel(panel, 'Who am I')).toContain('mcp:tools');
    // The new worker proved the kept token with the same key: nobody signed in again.
    expect(bound.seen.dpopVerified.length).toBeGreaterThan(verified);
    expect(new Set(bound.seen.dpopVerified.map((seen) => `${seen.jkt} ${seen.token}`))).toEqual(
      new Set([`${first.jkt} ${first.token}`]),
    );
    expect(bound.seen.authorizations).toHaveLength(1);
    await removeServer(panel, bound.urls.dpop);
    await panel.close();
  } finally {
    await bound.close();
  }
});

/** Adds the server, answers its "Sign in" and logs in at oidc-provider; resolves when it is connected. */
async function signInFresh(panel: Page, server: OidcProtected): Promise<void> {
  const id = serverIdOf(server.urls.good);
  await addServer(panel, server.urls.good);
  const dialog = panel.getByRole('dialog', { name: `Sign in to ${serverLabelOf(server.urls.good)}?` });
  await signInAtOidcProvider(extension.context, () =>
    dialog.getByRole('button', { name: 'Sign in' }).click(),
  );
  await expect(panel.locator(`[data-server="${id}"]`)).toContainText('connected', { timeout: 20_000 });
}

async function removeServer(panel: Page, url: string): Promise<void> {
  await panel.getByRole('tab', { name: 'Servers' }).click();
  await panel
    .locator(`[data-server="${serverIdOf(url)}"]`)
    .getByRole('button', { name: 'Remove' })
    .click();
}

/** Chrome stops the worker (as it does an idle one); resolves once the panel's reconnect started a new one. */
async function restartWorker(panel: Page): Promise<void> {
  const worker = await extension.serviceWorker();
  await worker.evaluate(() => Object.assign(globalThis, { beforeTheStop: true }));
  const devtools = await extension.context.newCDPSession(panel);
  await devtools.send('ServiceWorker.enable');
  await devtools.send('ServiceWorker.stopAllWorkers');
  await expect
    .poll(async () =>
      (await extension.serviceWorker()).evaluate(() => 'beforeTheStop' in globalThis).catch(() => true),
    )
    .toBe(false);
  await devtools.detach();
}

test('steps up for a tool that needs another scope: the panel asks again, naming it, and the call completes', async () => {
  const notes = await startOidcProtected();
  try {
    const panel = await extension.openPanel();
    await signInFresh(panel, notes);
    // Connected, the server goes by the name it gave (protected-demo).
    const dialog = panel.getByRole('dialog', { name: 'Sign in to protected-demo?' });

    const result = await startPanelCall(panel, 'Add a note', {
      fill: { 'text (required)': 'from the extension' },
    });
    // The 403 insufficient_scope names mcp:write: asked in the panel, nothing opened before the yes.
    await expect(dialog).toContainText('mcp:write', { timeout: 20_000 });
    await expect(dialog).toContainText(new URL(notes.issuer).origin);
    expect(notes.seen.authorizations).toHaveLength(1);
    await signInAtOidcProvider(extension.context, () =>
      dialog.getByRole('button', { name: 'Sign in' }).click(),
    );
    await expect(result).toContainText('noted (1 in all)', { timeout: 20_000 });

    expect(
      notes.seen.authorizations.map((request) => request.scopes.filter((scope) => scope.startsWith('mcp:'))),
    ).toEqual([['mcp:tools'], ['mcp:tools', 'mcp:write']]);
    expect(notes.seen.authorizations.every((request) => request.resource === notes.urls.good)).toBe(true);
    // The same registration both times, and the stepped-up token reads what it wrote.
    expect(notes.seen.registrations).toBe(1);
    expect(await callFromPanel(panel, 'Read notes')).toContain('from the extension');
    await removeServer(panel, notes.urls.good);
    await panel.close();
  } finally {
    await notes.close();
  }
});

test('a token revoked at the authorization server is sent once, refused, and the panel asks to sign in again', async () => {
  const notes = await startOidcProtected();
  try {
    const panel = await extension.openPanel();
    await signInFresh(panel, notes);
    expect(await callFromPanel(panel, 'Who am I')).toContain('mcp:tools');
    const revoked = notes.seen.mcp.filter((request) => request.authorization).at(-1)?.authorization;
    expect(revoked).toMatch(/^Bearer /);

    // The person withdraws the grant at the authorization server: access and refresh tokens die.
    await notes.revokeGrants();
    const mark = notes.seen.mcp.length;
    const refreshesBefore = notes.seen.tokenRequests.length;
    const result = await startPanelCall(panel, 'Who am I');
    const dialog = panel.getByRole('dialog', { name: 'Sign in to protected-demo?' });
    await expect(dialog).toBeVisible({ timeout: 20_000 });
    // The refresh was tried (and refused) before asking; the dead token went out once, no more.
    expect(notes.seen.tokenRequests.slice(refreshesBefore)).toContainEqual({
      grantType: 'refresh_token',
      resource: notes.urls.good,
    });
    await signInAtOidcProvider(extension.context, () =>
      dialog.getByRole('button', { name: 'Sign in' }).click(),
    );
    await expect(result).toContainText('mcp:tools', { timeout: 20_000 });

    const after = notes.seen.mcp.slice(mark);
    expect(after.filter((request) => request.authorization === revoked)).toHaveLength(1);
    expect(after.at(-1)?.authorization).toMatch(/^Bearer \S+$/);
    expect(after.at(-1)?.authorization).not.toBe(revoked);
    expect(notes.seen.authorizations).toHaveLength(2);
    await removeServer(panel, notes.urls.good);
    await panel.close();
  } finally {
    await notes.close();
  }
});

test('a token that expired while Chrome had stopped the worker is refreshed by the next one, with the kept registration, asking nobody', async () => {
  const notes = await startOidcProtected({ accessTokenSeconds: 3 });
  try {
    const panel = await extension.openPanel();
    await signInFresh(panel, notes);
    let windows = 0;
    extension.context.on('page', () => windows++);
    const refreshes = () => notes.seen.tokenRequests.filter((r) => r.grantType === 'refresh_token').length;
    const before = refreshes();
    const kept = notes.seen.mcp.filter((request) => request.authorization).at(-1)?.authorization;
    // Let the token expire (3 s), then Chrome stops the worker; the panel's reconnect starts another.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    await restartWorker(panel);

    expect(await callFromPanel(panel, 'Who am I')).toContain('mcp:tools');
    // The new worker refreshed with the client registered before the stop: no new registration,
    // no new authorization, no window.
    expect(refreshes()).toBeGreaterThan(before);
    expect(notes.seen.registrations).toBe(1);
    expect(notes.seen.authorizations).toHaveLength(1);
    expect(windows).toBe(0);
    const latest = notes.seen.mcp.filter((request) => request.authorization).at(-1)?.authorization;
    expect(latest).toMatch(/^Bearer /);
    expect(latest).not.toBe(kept);
    await removeServer(panel, notes.urls.good);
    await panel.close();
  } finally {
    await notes.close();
  }
});

test('an authorization server that sends no CORS headers: the panel offers to reach its origin, then the sign-in goes through', async () => {
  // oidc-provider with every Access-Control-* header stripped from its answers (the peer's
  // authorizationServerCors: false): the MCP server answers CORS, its authorization server does not.
  const closed = await startOidcProtected({ authorizationServerCors: false });
  try {
    const asOrigin = new URL(closed.issuer).origin;
    const mcpOrigin = new URL(closed.urls.good).origin;
    const panel = await extension.openPanel();
    const id = serverIdOf(closed.urls.good);
    await addServer(panel, closed.urls.good);
    const row = panel.locator(`[data-server="${id}"]`);
    await expect(row).toContainText('failed', { timeout: 20_000 });
    // The sign-in fails where it did before (the worker cannot read the metadata), saying where.
    await expect(
      panel.getByText(/failed \(discovering its authorization server\): could not fetch/),
    ).toContainText(`${asOrigin}/.well-known/`);
    const allow = panel.getByRole('button', { name: `Allow Toolgate to reach ${asOrigin}` });
    await expect(allow).toBeVisible();
    await expect(panel.getByText(/goes through the authorization server at/)).toContainText(asOrigin);
    // The MCP server itself answers CORS: only the authorization server's origin is offered.
    await expect(panel.getByRole('button', { name: `Allow Toolgate to reach ${mcpOrigin}` })).toHaveCount(0);
    expect(closed.seen.registrations).toBe(0);
    expect(closed.seen.authorizations).toHaveLength(0);

    // The person answers Chrome's prompt (given beforehand: Playwright cannot click it), then clicks.
    await extension.allowOriginInSettings(asOrigin);
    await allow.click();
    // What the click came to shows in the card only until the server connects again (it is then
    // gone with the card): the sign-in asking again is what proves it.
    // The sign-in starts again by itself and asks, as any sign-in does.
    const dialog = panel.getByRole('dialog', { name: `Sign in to ${serverLabelOf(closed.urls.good)}?` });
    await expect(dialog).toContainText(asOrigin, { timeout: 20_000 });
    await signInAtOidcProvider(extension.context, () =>
      dialog.getByRole('button', { name: 'Sign in' }).click(),
    );
    await expect(row).toContainText('connected', { timeout: 20_000 });
    expect(await callFromPanel(panel, 'Who am I')).toContain('mcp:tools');
    expect(closed.seen.registrations).toBe(1);
    expect(closed.seen.tokenRequests).toContainEqual({
      grantType: 'authorization_code',
      resource: closed.urls.good,
    });
    await expect(allow).toHaveCount(0);

    // Listed with the servers reached without CORS, and revocable the same way.
    await panel.getByRole('tab', { name: 'Sites' }).click();
    const list = panel.getByRole('list', { name: 'Servers reached without CORS' });
    await expect(list).toContainText(asOrigin);
    await list.getByRole('button', { name: `Stop reaching ${asOrigin}` }).click();
    await expect(panel.getByRole('button', { name: `Stop reaching ${asOrigin}` })).toHaveCount(0);
    await removeServer(panel, closed.urls.good);
    await panel.close();
  } finally {
    await closed.close();
  }
});

test('"Not now" opens nothing and leaves the server not signed in, saying why; "Sign in to" asks again', async () => {
  const panel = await extension.openPanel();
  const url = peer!.urls.refuses;
  const before = extension.context.pages().length;
  const authorizations = peer!.seen.authorizations.length;
  await addServer(panel, url);
  const dialog = panel.getByRole('dialog', { name: `Sign in to ${serverLabelOf(url)}?` });
  await dialog.getByRole('button', { name: 'Not now' }).click();
  const notSignedIn = panel.getByRole('region', { name: 'Not signed in' });
  await expect(notSignedIn).toContainText(/chose not to sign in/, { timeout: 20_000 });
  // A choice, not a failure: nothing under "could not connect".
  await expect(panel.getByRole('region', { name: 'Connection problems' })).toHaveCount(0);
  expect(extension.context.pages()).toHaveLength(before);
  expect(peer!.seen.authorizations).toHaveLength(authorizations);
  // Signing in later asks again (and only asks: the window still waits for a yes).
  await notSignedIn.getByRole('button', { name: /^Sign in to / }).click();
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  expect(extension.context.pages()).toHaveLength(before);
  await dialog.getByRole('button', { name: 'Not now' }).click();
  await expect(dialog).toHaveCount(0);
  await panel
    .locator(`[data-server="${serverIdOf(url)}"]`)
    .getByRole('button', { name: 'Remove' })
    .click();
  await panel.close();
});

test('a server without CORS headers is refused until the person lets Toolgate reach its origin', async () => {
  plain = await startPeer('sdk1-stateful-json', { cors: false });
  const origin = new URL(plain.url).origin;
  const panel = await extension.openPanel();
  await addServer(panel, plain.url);
  const row = panel.locator(`[data-server="${serverIdOf(plain.url)}"]`);
  await expect(row).toContainText('failed', { timeout: 20_000 });
  await expect(panel.getByText(/CORS settings do not let this page/).first()).toBeVisible();
  expect((await plain.events()).messages).toHaveLength(0);

  // The person answers Chrome's prompt (given beforehand: Playwright cannot click it), then clicks.
  await extension.allowOriginInSettings(origin);
  await panel.getByRole('button', { name: `Allow Toolgate to reach ${origin}` }).click();
  // The fix sits in the failure's card, which goes when the server connects: the connection proves it.
  await expect(row).toContainText('connected', { timeout: 20_000 });
  await panel.getByRole('tab', { name: 'Tools' }).click();
  await panel.getByLabel('Search tools').fill('echo');
  await panel.locator('.tg-tool-button', { hasText: /^echo\b/ }).click();
  await panel.locator('.tg-try').getByLabel('message (required)').fill('past CORS');
  await panel
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();
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

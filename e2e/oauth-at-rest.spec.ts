/**
 * Tokens at rest, when the host opts in (`auth.keepSignedIn`): the panel signs in once through
 * oidc-provider's popup, the page reloads, and the server connects again signed in, with no prompt
 * and no new authorization. What rests in Chromium's real IndexedDB is read raw from the page:
 * no token in it, and the key it is sealed with cannot be exported. Real parts: oidc-provider and
 * an SDK server requiring bearer tokens, on 127.0.0.1.
 */
import { expect, type Page, test } from '@playwright/test';
import { type OidcProtected, startOidcProtected } from './peers/oidc-protected.mjs';
import {
  closeAfterEach,
  openSignInPage,
  signInAtOidcProvider,
  signInFromCard,
  signInSiteForFile,
} from './support/sign-in-site.js';

const site = signInSiteForFile('e2e/fixtures/sign-in-modes/page.ts', 'Sign-in modes');
let peer: OidcProtected | undefined;
closeAfterEach(() => peer);

const openPanel = (page: Page, query: Record<string, string>) => openSignInPage(page, site, query);

/** Every record of the store as text: strings as they are, bytes decoded as latin1 and as UTF-8. */
const rawRecords = (page: Page, database: string) =>
  page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const store = db.transaction('sealed').objectStore('sealed');
    const read = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const keys = (await read(store.getAllKeys())).map(String);
    const values = await read(store.getAll());
    const texts: string[] = [];
    let keyInfo: { extractable: boolean; exported: string } | undefined;
    const privateKeys: { extractable: boolean; exported: string }[] = [];
    const tryExport = (format: 'raw' | 'pkcs8', key: CryptoKey) =>
      crypto.subtle.exportKey(format, key).then(
        () => 'exported',
        (error: Error) => `refused: ${error.name}`,
      );
    for (const value of values) {
      if (value instanceof CryptoKey) {
        keyInfo = { extractable: value.extractable, exported: await tryExport('raw', value) };
        continue;
      }
      // A DPoP key pair, kept as the CryptoKey objects themselves.
      const privateKey = (value as Partial<CryptoKeyPair> | null)?.privateKey;
      if (privateKey instanceof CryptoKey) {
        privateKeys.push({
          extractable: privateKey.extractable,
          exported: await tryExport('pkcs8', privateKey),
        });
        continue;
      }
      texts.push(
        JSON.stringify(value, (_key, field) => {
          if (field instanceof ArrayBuffer || ArrayBuffer.isView(field)) {
            const bytes =
              field instanceof ArrayBuffer
                ? new Uint8Array(field)
                : new Uint8Array(field.buffer, field.byteOffset, field.byteLength);
            return `${String.fromCharCode(...bytes)} ${new TextDecoder().decode(bytes)}`;
          }
          return field;
        }),
      );
    }
    db.close();
    return { keys, texts, keyInfo, privateKeys };
  }, database);

test('kept at rest: a reload stays signed in, IndexedDB holds no plaintext token, the key cannot be exported', async ({
  page,
  context,
}) => {
  peer = await startOidcProtected();
  const database = `tg-at-rest-${crypto.randomUUID()}`;
  const query = { server: peer.urls.good, keep: database };
  await openPanel(page, query);
  const issuer = new URL(peer.issuer).origin;
  await signInFromCard(page);
  const dialog = page.getByRole('dialog', { name: 'Sign in to Notes?' });
  await signInAtOidcProvider(context, () => dialog.getByRole('button', { name: 'Sign in' }).click());
  const row = page.locator('[data-server="notes"]');
  await expect(row).toContainText('connected', { timeout: 20_000 });
  await expect(row).toContainText(`Signed in at ${issuer}`);

  const withToken = peer.seen.mcp.filter((request) => request.path === '/mcp' && request.authorization);
  const token = withToken[0]!.authorization!.slice('Bearer '.length);
  expect(token.length).toBeGreaterThan(10);

  const stored = await rawRecords(page, database);
  // The key, the tokens and the client's registration: three records.
  expect(stored.keys.length).toBeGreaterThanOrEqual(2);
  expect(stored.keyInfo).toEqual({ extractable: false, exported: 'refused: InvalidAccessError' });
  const everything = stored.texts.join('\n');
  expect(everything).not.toContain(token);
  expect(everything).not.toContain('mcp:tools');
  expect(everything).not.toContain(peer.issuer);

  // The next page: signed in from the sealed store, nobody asked, nothing authorized again.
  const authorizations = peer.seen.authorizations.length;
  const registrations = peer.seen.registrations;
  await openPanel(page, query);
  await expect(row).toContainText('connected', { timeout: 20_000 });
  await expect(row).toContainText(`Signed in at ${issuer}`);
  await expect(page.getByRole('dialog', { name: 'Sign in to Notes?' })).toHaveCount(0);
  expect(context.pages()).toHaveLength(1);
  expect(peer.seen.authorizations).toHaveLength(authorizations);
  expect(peer.seen.registrations).toBe(registrations);
  const afterReload = peer.seen.mcp.filter((request) => request.path === '/mcp').at(-1);
  expect(afterReload?.authorization).toBe(`Bearer ${token}`);
});

test('without the opt-in, nothing rests: a reload asks again', async ({ page, context }) => {
  peer = await startOidcProtected();
  await openPanel(page, { server: peer.urls.good });
  await signInFromCard(page);
  const dialog = page.getByRole('dialog', { name: 'Sign in to Notes?' });
  await signInAtOidcProvider(context, () => dialog.getByRole('button', { name: 'Sign in' }).click());
  await expect(page.locator('[data-server="notes"]')).toContainText('connected', { timeout: 20_000 });
  const databases = await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name));
  expect(databases).not.toContain('toolgate-auth');

  await openPanel(page, { server: peer.urls.good });
  // Asked again, on the server's card (no dialog opens by itself on load).
  await expect(page.locator('[data-sign-in-card="notes"]')).toBeVisible({ timeout: 20_000 });
});

test('a DPoP-bound token kept at rest is proven after a reload, by the same key, which cannot be exported', async ({
  page,
  context,
}) => {
  peer = await startOidcProtected();
  const database = `tg-at-rest-dpop-${crypto.randomUUID()}`;
  const query = { server: peer.urls.dpop, keep: database };
  await openPanel(page, query);
  await signInFromCard(page);
  const dialog = page.getByRole('dialog', { name: 'Sign in to Notes?' });
  await signInAtOidcProvider(context, () => dialog.getByRole('button', { name: 'Sign in' }).click());
  const row = page.locator('[data-server="notes"]');
  await expect(row).toContainText('connected', { timeout: 20_000 });

  // The server checked a DPoP proof for every request it answered: token bound to one key.
  const first = peer.seen.dpopVerified.at(-1);
  expect(first?.jkt).toMatch(/^[\w-]{43}$/);
  const sent = peer.seen.mcp.filter((request) => request.path === '/dpop/mcp' && request.authorization);
  expect(sent.at(-1)?.authorization).toBe(`DPoP ${first!.token}`);
  expect(sent.every((request) => request.authorization!.startsWith('DPoP '))).toBe(true);
  const stored = await rawRecords(page, database);
  expect(stored.privateKeys).toEqual([{ extractable: false, exported: 'refused: InvalidAccessError' }]);

  // The next page proves the same token with the same key, read back from IndexedDB: nobody asked.
  const authorizations = peer.seen.authorizations.length;
  const verified = peer.seen.dpopVerified.length;
  await openPanel(page, query);
  await expect(row).toContainText('connected', { timeout: 20_000 });
  await expect(page.getByRole('dialog', { name: 'Sign in to Notes?' })).toHaveCount(0);
  expect(peer.seen.authorizations).toHaveLength(authorizations);
  expect(peer.seen.dpopVerified.length).toBeGreaterThan(verified);
  expect(peer.seen.dpopVerified.slice(verified)).toEqual(
    Array(peer.seen.dpopVerified.length - verified).fill({ token: first!.token, jkt: first!.jkt }),
  );
});

test('signing out of a server that is not connected (down, after a reload) forgets its tokens at rest', async ({
  page,
  context,
}) => {
  const started = await startOidcProtected();
  peer = started;
  const database = `tg-at-rest-forget-${crypto.randomUUID()}`;
  const query = { server: started.urls.good, keep: database };
  await openPanel(page, query);
  await signInFromCard(page);
  const dialog = page.getByRole('dialog', { name: 'Sign in to Notes?' });
  await signInAtOidcProvider(context, () => dialog.getByRole('button', { name: 'Sign in' }).click());
  await expect(page.locator('[data-server="notes"]')).toContainText('connected', { timeout: 20_000 });
  const tokenRecords = async () =>
    (await rawRecords(page, database)).keys.filter((key) => key.includes(`tokens ${started.urls.good}`));
  expect(await tokenRecords()).toHaveLength(1);

  // The server goes down; the next visit cannot connect, so no session holds the tokens.
  peer = undefined;
  await started.close();
  await openPanel(page, query);
  await page.waitForFunction(
    () =>
      (
        window as unknown as { toolgate: { servers: { value: { id: string; state: string }[] } } }
      ).toolgate.servers.value.find((server) => server.id === 'notes')?.state === 'failed',
    undefined,
    { timeout: 20_000 },
  );
  // What Forget does for a signed-in server: sign out, here without a connection.
  await page.evaluate(() =>
    (window as unknown as { toolgate: { signOut(id: string): Promise<void> } }).toolgate.signOut('notes'),
  );
  expect(await tokenRecords()).toEqual([]);
});

/**
 * Signing in at a real, certified authorization server: oidc-provider in front of MCP servers
 * built with the official SDK that require bearer tokens for their resource (e2e/peers/
 * oidc-protected.mjs, the same parts `npm start` runs). The page connects with connect()'s `auth`
 * option; the person clicks "Sign in", logs in and consents in the popup (oidc-provider's own
 * pages), and the callback page on the page's origin hands the answer back. Page, authorization
 * server and MCP servers are real HTTP servers on 127.0.0.1: every cross-origin exchange passes
 * the browser's CORS checks. What the servers saw is read from their own records.
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { FORGED_STATE, type OidcProtected, startOidcProtected } from './peers/oidc-protected.mjs';
import { closeAfterEach, signInAtOidcProvider, signInSiteForFile } from './support/sign-in-site.js';

const site = signInSiteForFile('e2e/fixtures/oidc/page.ts', 'oidc-provider sign-in');
let peer: OidcProtected | undefined;
closeAfterEach(() => peer);

async function openPage(page: Page): Promise<string[]> {
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(message.text()));
  await page.goto(`${site.origin}/`);
  await page.waitForFunction(() => 'oidcApi' in window);
  return consoleLines;
}

/**
 * The person's part: click "Sign in" (its text is checked first), then in oidc-provider's popup
 * log in (the first time in this browser) and consent; the popup closes itself.
 */
async function signInThroughPopup(page: Page, context: BrowserContext, expected: RegExp): Promise<void> {
  const button = page.locator('#sign-in');
  await expect(button).toHaveText(expected);
  await signInAtOidcProvider(context, () => button.click());
}

/** Connects the page to the server's good resource as 'notes', the person signing in through the popup. */
async function connectSignedIn(
  page: Page,
  context: BrowserContext,
  server: OidcProtected,
  expected: RegExp,
): Promise<void> {
  const connecting = page.evaluate(([url]) => window.oidcApi.connect(url, 'notes'), [
    server.urls.good,
  ] as const);
  await signInThroughPopup(page, context, expected);
  expect(await connecting).toEqual({ ok: true });
}

const tokensAt = (server: OidcProtected, path: string) =>
  server.seen.mcp.flatMap((request) =>
    request.path === path && request.authorization ? [request.authorization.slice('Bearer '.length)] : [],
  );

test('signs in at oidc-provider through the popup, calls a tool; the audit log says who signed in, never the token', async ({
  page,
  context,
}) => {
  peer = await startOidcProtected();
  const consoleLines = await openPage(page);
  const issuer = new URL(peer.issuer).origin;

  const connecting = page.evaluate(([url]) => window.oidcApi.connect(url, 'notes'), [
    peer.urls.good,
  ] as const);
  await signInThroughPopup(
    page,
    context,
    new RegExp(`^Sign in to ${peer.urls.good} at ${issuer} \\(mcp:tools`),
  );
  expect(await connecting).toEqual({ ok: true });
  const called = await page.evaluate(() => window.oidcApi.call('notes', 'whoami'));

  expect(called.ok).toBe(true);
  expect(called.text).toMatch(/^client \S+ with .*mcp:tools/);
  expect(peer.seen.registrations).toBe(1);
  expect(peer.seen.authorizations).toHaveLength(1);
  expect(peer.seen.authorizations[0]?.resource).toBe(peer.urls.good);
  expect(peer.seen.tokenRequests).toEqual([{ grantType: 'authorization_code', resource: peer.urls.good }]);
  // Only the first request went without a token; every later one carried the token issued for /mcp.
  const requests = peer.seen.mcp.filter((request) => request.path === '/mcp');
  expect(requests[0]?.authorization).toBeNull();
  const tokens = tokensAt(peer, '/mcp');
  expect(tokens.length).toBe(requests.length - 1);
  expect(new Set(tokens).size).toBe(1);
  expect(await page.evaluate(() => window.oidcApi.signedIn('notes'))).toBe(true);

  await expect
    .poll(() => page.evaluate(() => window.oidcApi.audit()))
    .toEqual([{ toolName: 'auth/sign-in', serverId: 'notes', outcome: 'success', caller: 'person' }]);
  const exported = await page.evaluate(() => window.oidcApi.auditExport());
  expect(exported).toContain(peer.issuer);
  const token = tokens[0] ?? '';
  expect(token.length).toBeGreaterThan(10);
  expect(exported).not.toContain(token);
  expect(consoleLines.join('\n')).not.toContain(token);
  expect(JSON.stringify(await page.evaluate(() => window.oidcApi.events()))).not.toContain(token);
});

test('refreshes an expiring token without asking the person, with the same resource', async ({
  page,
  context,
}) => {
  peer = await startOidcProtected({ accessTokenSeconds: 4 });
  await openPage(page);
  await connectSignedIn(page, context, peer, /mcp:tools/);
  const first = tokensAt(peer, '/mcp').at(-1);
  let popups = 0;
  context.on('page', () => popups++);

  // The token lives 4 s; the client refreshes a quarter of its life before it ends.
  await expect
    .poll(
      () =>
        page
          .evaluate(() => window.oidcApi.call('notes', 'whoami'))
          .then(() => tokensAt(peer!, '/mcp').at(-1)),
      {
        timeout: 20_000,
        intervals: [1_000],
      },
    )
    .not.toBe(first);

  expect(popups).toBe(0);
  expect(peer.seen.authorizations).toHaveLength(1);
  expect(peer.seen.tokenRequests.filter((request) => request.grantType === 'refresh_token')).toContainEqual({
    grantType: 'refresh_token',
    resource: peer.urls.good,
  });
  const events = await page.evaluate(() => window.oidcApi.events().map((event) => event.type));
  expect(events).toContain('refreshed');
  expect(events.filter((type) => type === 'signed-in')).toHaveLength(1);
  expect((await page.evaluate(() => window.oidcApi.call('notes', 'read_notes'))).ok).toBe(true);
});

test('steps up for a tool that needs another scope: a second consent, then the call goes through', async ({
  page,
  context,
}) => {
  peer = await startOidcProtected();
  await openPage(page);
  await connectSignedIn(page, context, peer, /\(mcp:tools( offline_access)?\)$/);

  const writing = page.evaluate(() =>
    window.oidcApi.call('notes', 'add_note', { text: 'from the e2e suite' }),
  );
  await signInThroughPopup(page, context, /\(mcp:tools .*mcp:write\)$/);
  expect(await writing).toEqual({ ok: true, text: 'noted (1 in all)' });
  expect(await page.evaluate(() => window.oidcApi.call('notes', 'read_notes'))).toEqual({
    ok: true,
    text: 'from the e2e suite',
  });
  expect(
    peer.seen.authorizations.map((request) => request.scopes.filter((scope) => scope.startsWith('mcp:'))),
  ).toEqual([['mcp:tools'], ['mcp:tools', 'mcp:write']]);
  expect(peer.seen.authorizations.every((request) => request.resource === peer?.urls.good)).toBe(true);
});

test('signs out: the grant is revoked at oidc-provider, and the next call asks the person again', async ({
  page,
  context,
}) => {
  peer = await startOidcProtected();
  await openPage(page);
  await connectSignedIn(page, context, peer, /mcp:tools/);
  const before = tokensAt(peer, '/mcp').at(-1);

  await page.evaluate(() => window.oidcApi.signOut('notes'));
  expect(peer.seen.revocations).toBe(1);
  expect(await page.evaluate(() => window.oidcApi.signedIn('notes'))).toBe(false);

  const calling = page.evaluate(() => window.oidcApi.call('notes', 'whoami'));
  await signInThroughPopup(page, context, /mcp:tools/);
  expect((await calling).ok).toBe(true);
  expect(peer.seen.authorizations).toHaveLength(2);
  expect(tokensAt(peer, '/mcp').at(-1)).not.toBe(before);
  await expect
    .poll(() =>
      page.evaluate(() => window.oidcApi.audit().then((lines) => lines.map((line) => line.toolName))),
    )
    .toEqual(['auth/sign-in', 'auth/sign-out', 'auth/sign-in']);
});

test('a token revoked at the authorization server is not used again: the person signs in anew', async ({
  page,
  context,
}) => {
  peer = await startOidcProtected();
  await openPage(page);
  await connectSignedIn(page, context, peer, /mcp:tools/);
  const revoked = tokensAt(peer, '/mcp').at(-1);

  await peer.revokeGrants();
  const calling = page.evaluate(() => window.oidcApi.call('notes', 'whoami'));
  // The refresh token died with the grant: only the person can give access again.
  await signInThroughPopup(page, context, /mcp:tools/);
  expect((await calling).ok).toBe(true);

  expect(peer.seen.authorizations).toHaveLength(2);
  const after = peer.seen.mcp.slice(
    peer.seen.mcp.findLastIndex((request) => request.authorization === `Bearer ${revoked}`) + 1,
  );
  expect(after.length).toBeGreaterThan(0);
  expect(after.every((request) => request.authorization !== `Bearer ${revoked}`)).toBe(true);
  expect(after.at(-1)?.authorization).toMatch(/^Bearer \S+$/);
});

test.describe('bad input: a readable error naming the server and the step, and no token where it does not belong', () => {
  test('resource metadata that is not JSON', async ({ page }) => {
    peer = await startOidcProtected();
    await openPage(page);
    const outcome = await page.evaluate(([url]) => window.oidcApi.connect(url, 'portal'), [
      peer.urls.notJson,
    ] as const);

    expect(outcome.ok).toBe(false);
    expect(outcome.error?.name).toBe('AuthorizationError');
    expect(outcome.error?.step).toBe('discovery');
    expect(outcome.error?.message).toContain(
      `Signing in to ${peer.urls.notJson} failed (discovering its authorization server)`,
    );
    expect(outcome.error?.message).toContain(
      `the resource metadata at ${new URL(peer.urls.notJson).origin}/.well-known/oauth-protected-resource/not-json/mcp is unusable: the answer is not JSON (text/html`,
    );
    expect(peer.seen.registrations).toBe(0);
    expect(peer.seen.authorizations).toHaveLength(0);
    await expect(page.locator('#sign-in')).toHaveCount(0);
  });

  test('resource metadata naming another resource: its token is never sent there', async ({
    page,
    context,
  }) => {
    peer = await startOidcProtected();
    await openPage(page);
    // The person holds a token for /mcp ...
    await connectSignedIn(page, context, peer, /mcp:tools/);
    // ... and another server on the same origin claims to be /mcp.
    const outcome = await page.evaluate(([url]) => window.oidcApi.connect(url, 'other'), [
      peer.urls.elsewhere,
    ] as const);

    expect(outcome.error?.step).toBe('discovery');
    expect(outcome.error?.message).toContain(`Signing in to ${peer.urls.elsewhere} failed`);
    expect(outcome.error?.message).toContain(`is for ${peer.urls.good}, not for this server`);
    const toElsewhere = peer.seen.mcp.filter((request) => request.path === '/elsewhere/mcp');
    expect(toElsewhere.length).toBeGreaterThan(0);
    expect(toElsewhere.every((request) => request.authorization === null)).toBe(true);
    expect(peer.seen.authorizations).toHaveLength(1);
  });

  test('an authorization server on plain http, not on this machine', async ({ page }) => {
    peer = await startOidcProtected();
    await openPage(page);
    const outcome = await page.evaluate(([url]) => window.oidcApi.connect(url, 'plain'), [
      peer.urls.plainHttp,
    ] as const);

    expect(outcome.error?.step).toBe('discovery');
    expect(outcome.error?.message).toContain(`Signing in to ${peer.urls.plainHttp} failed`);
    expect(outcome.error?.message).toContain('http://auth.example.com');
    expect(outcome.error?.message).toContain('neither https nor on this machine');
    await expect(page.locator('#sign-in')).toHaveCount(0);
  });

  test('an answer with a state this sign-in never sent is discarded, nothing exchanged', async ({
    page,
    context,
  }) => {
    peer = await startOidcProtected();
    peer.forgeState(true);
    await openPage(page);
    const connecting = page.evaluate(([url]) => window.oidcApi.connect(url, 'notes'), [
      peer.urls.good,
    ] as const);
    await signInThroughPopup(page, context, /mcp:tools/);
    const outcome = await connecting;

    expect(outcome.error?.step).toBe('authorization');
    expect(outcome.error?.message).toContain(`Signing in to ${peer.urls.good} failed (authorization)`);
    expect(outcome.error?.message).toContain('"state"');
    expect(outcome.error?.message).not.toContain(FORGED_STATE);
    expect(peer.seen.tokenRequests).toHaveLength(0);
    expect(tokensAt(peer, '/mcp')).toHaveLength(0);
  });

  test('a server that refuses every token: one sign-in, then an error instead of a loop', async ({
    page,
    context,
  }) => {
    peer = await startOidcProtected();
    await openPage(page);
    const connecting = page.evaluate(([url]) => window.oidcApi.connect(url, 'refuses'), [
      peer.urls.refuses,
    ] as const);
    await signInThroughPopup(page, context, /mcp:tools/);
    const outcome = await connecting;

    expect(outcome.error?.step).toBe('retry');
    expect(outcome.error?.message).toContain(
      `Signing in to ${peer.urls.refuses} failed (using the new access token)`,
    );
    expect(peer.seen.authorizations).toHaveLength(1);
    // The fresh token was tried once, then nothing more was sent.
    expect(tokensAt(peer, '/refuses/mcp')).toHaveLength(1);
    await expect(page.locator('#sign-in')).toHaveCount(0);
  });
});

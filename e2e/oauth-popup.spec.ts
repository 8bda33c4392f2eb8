/**
 * Signing in from a page in Chromium, the browser's way: the OAuth fetch layer under Toolgate's
 * client meets a 401 from a real MCP server that requires bearer tokens (official SDK), asks the
 * person (a "Sign in" button; the test clicks it), opens the authorization server (the SDK's own,
 * which approves at once, as a person would) in a popup, and the callback page on the app's origin
 * posts the URL back to its opener and closes. Page, callback page, MCP server and authorization
 * server are four real HTTP servers on 127.0.0.1; every cross-origin exchange passes the browser's
 * CORS checks. What the servers saw is read from their own records.
 */
import { expect, test } from '@playwright/test';
import type { SignInOutcome } from './fixtures/oauth/page.js';
import { type ProtectedServer, startProtectedServer } from './peers/oauth-protected.mjs';
import { closeAfterEach, signInSiteForFile } from './support/sign-in-site.js';

const site = signInSiteForFile('e2e/fixtures/oauth/page.ts', 'Sign-in test');
let server: ProtectedServer | undefined;
closeAfterEach(() => server);

test('signs in through a popup opened by the click, then calls the tool with the token', async ({
  page,
  context,
}) => {
  server = await startProtectedServer({ cors: true });
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(message.text()));
  await page.goto(`${site.origin}/`);
  await page.waitForFunction(() => 'oauthApi' in window);

  const outcome = page.evaluate(([url]) => window.oauthApi.signInAndCall(url, 'whoami'), [
    server.url,
  ] as const);
  const button = page.locator('#sign-in');
  await expect(button).toContainText(`Sign in to ${server.url} at ${new URL(server.issuer).origin}`);
  const popupOpened = context.waitForEvent('page');
  await button.click();
  const popup = await popupOpened;
  const popupClosed = popup.waitForEvent('close');
  const result: SignInOutcome = await outcome;
  await popupClosed;

  expect(result.error).toBeUndefined();
  expect(result.text).toMatch(/^client \S+ with mcp:tools$/);
  expect(result.signedInAfter).toBe(true);
  expect(result.signedInAfterSignOut).toBe(false);
  expect(result.events.map((event) => event.type)).toEqual(['signed-in', 'signed-out']);
  // The callback page was loaded from the app's own server (with the code), then the popup closed.
  expect(site.requests).toContain('/callback.html');
  expect(server.seen.authorizations).toEqual([{ scopes: ['mcp:tools'], resource: server.url }]);
  const tokens = server.seen.mcp.flatMap((request) => (request.authorization ? [request.authorization] : []));
  expect(tokens.length).toBeGreaterThan(0);
  expect(new Set(tokens).size).toBe(1);
  // Neither the page's console nor its events ever showed the token.
  const token = (tokens[0] ?? '').slice('Bearer '.length);
  expect(token.length).toBeGreaterThan(10);
  expect(consoleLines.join('\n')).not.toContain(token);
  expect(JSON.stringify(result)).not.toContain(token);
});

test('steps up in a second popup when a tool needs another scope', async ({ page, context }) => {
  server = await startProtectedServer({ cors: true });
  await page.goto(`${site.origin}/`);
  await page.waitForFunction(() => 'oauthApi' in window);

  const outcome = page.evaluate(([url]) => window.oauthApi.signInAndCall(url, 'write'), [
    server.url,
  ] as const);
  for (const scopes of ['mcp:tools', 'mcp:tools mcp:write']) {
    const button = page.locator('#sign-in');
    await expect(button).toContainText(`(${scopes})`);
    const popupOpened = context.waitForEvent('page');
    await button.click();
    await (await popupOpened).waitForEvent('close');
  }
  const result = await outcome;

  expect(result.error).toBeUndefined();
  expect(result.text).toBe('written');
  expect(server.seen.authorizations.map((request) => request.scopes)).toEqual([
    ['mcp:tools'],
    ['mcp:tools', 'mcp:write'],
  ]);
});

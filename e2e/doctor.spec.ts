/**
 * The connection doctor (issue 30), in Chromium against servers broken on purpose: a failed
 * connection offers "Diagnose"; the report names the failing step, the missing header and the
 * page's exact origin; the Express snippet it hands over, applied to a real Express server, makes
 * the doctor pass and the server connect.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { type OidcProtected, startOidcProtected } from './peers/oidc-protected.mjs';
import { type Peer, startPeer } from './support/peers.js';
import {
  closeAfterEach,
  openSignInPage,
  signInAtOidcProvider,
  signInSiteForFile,
} from './support/sign-in-site.js';
import { axe, openWidget, WIDGET_ORIGIN } from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });

const peers: Peer[] = [];
test.afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.stop()));
});
async function peer(...args: Parameters<typeof startPeer>): Promise<Peer> {
  const started = await startPeer(...args);
  peers.push(started);
  return started;
}

/** Presses Diagnose on the failure card of `id` and waits for the finished report. */
async function diagnoseFailure(page: Page, id: string): Promise<Locator> {
  const card = page.locator(`[data-problem="${id}"]`);
  await card.getByRole('button', { name: 'Diagnose', exact: true }).click();
  const report = card.locator('[data-doctor]');
  await expect(report.getByRole('list', { name: 'Diagnosis steps' })).toBeVisible({ timeout: 30_000 });
  return report;
}

const step = (report: Locator, id: string) => report.locator(`[data-step="${id}"]`);

/** Opens the folded snippet `id` of the report's fix, as its owner would, and reads it. */
async function openSnippet(report: Locator, id: string): Promise<string> {
  const block = report.locator(`[data-fix="${id}"]`);
  await block.locator('summary').click();
  return block.locator('pre').innerText();
}

test('a server without CORS: the CORS step fails, naming Access-Control-Allow-Origin and the exact origin', async ({
  page,
}) => {
  const broken = await peer('modern', { cors: false });
  await openWidget(page, [{ url: broken.url, id: 'nocors' }], { failing: ['nocors'] });
  const report = await diagnoseFailure(page, 'nocors');
  await expect(step(report, 'reachability')).toHaveAttribute('data-outcome', 'pass');
  await expect(step(report, 'cors')).toHaveAttribute('data-outcome', 'fail');
  await expect(step(report, 'cors')).toContainText(`Access-Control-Allow-Origin: ${WIDGET_ORIGIN}`);
  await expect(step(report, 'tools-list')).toHaveAttribute('data-outcome', 'skipped');
  const fix = report.getByRole('region', { name: "The fix for the server's owner" });
  await expect(fix).toContainText('Access-Control-Allow-Origin');
  await expect(fix.locator('[data-fix="headers"] pre')).toContainText(
    `Access-Control-Allow-Origin: ${WIDGET_ORIGIN}`,
  );
  await expect(fix.locator('[data-fix="headers"] pre')).toContainText(
    'Access-Control-Expose-Headers: mcp-session-id, www-authenticate',
  );
  // Each way servers are built is folded under its name; opened, it has its Copy button.
  await fix.getByText('Node: the official SDK with Express (the cors middleware)').click();
  await expect(fix.getByRole('button', { name: /Copy: Node: the official SDK with Express/ })).toBeVisible();
  for (const name of [
    'Python: the official SDK (FastMCP)',
    'Cloudflare Workers',
    'nginx in front',
    'Caddy in front',
  ])
    await expect(fix.locator('summary', { hasText: name })).toBeVisible();
  await report
    .locator('details')
    .first()
    .evaluate((details) => {
      (details as HTMLDetailsElement).open = true;
    });
  await axe(page, 'the doctor report');
});

test('a failed add offers Diagnose at its field', async ({ page }) => {
  const broken = await peer('modern', { cors: false });
  await openWidget(page, []); // with no server yet, the add form is open
  await page.getByLabel(/^Server URL/).fill(broken.url);
  await page.getByRole('button', { name: 'Add server', exact: true }).click();
  const atField = page.locator('.tg-add-failed');
  await expect(atField).toContainText('could not connect', { timeout: 20_000 });
  await atField.getByRole('button', { name: 'Diagnose', exact: true }).click();
  const report = atField.locator('[data-doctor]');
  await expect(report.getByRole('list', { name: 'Diagnosis steps' })).toBeVisible({ timeout: 30_000 });
  await expect(step(report, 'cors')).toHaveAttribute('data-outcome', 'fail');
  await expect(report).toContainText(`Access-Control-Allow-Origin: ${WIDGET_ORIGIN}`);
});

test('CORS that hides mcp-session-id: the session header step names Access-Control-Expose-Headers', async ({
  page,
}) => {
  const hidden = await peer('sdk1-stateful-json', { exposeSessionHeader: false });
  await openWidget(page, [{ url: hidden.url, id: 'hidden' }], { failing: ['hidden'] });
  const report = await diagnoseFailure(page, 'hidden');
  await expect(step(report, 'cors')).toHaveAttribute('data-outcome', 'pass');
  await expect(step(report, 'preflight')).toHaveAttribute('data-outcome', 'pass');
  await expect(step(report, 'protocol')).toHaveAttribute('data-outcome', 'pass');
  await expect(step(report, 'session-header')).toHaveAttribute('data-outcome', 'fail');
  await expect(step(report, 'session-header')).toContainText('Access-Control-Expose-Headers: mcp-session-id');
  await expect(step(report, 'session-header')).toContainText(WIDGET_ORIGIN);
});

test('the Express snippet, applied to a real Express server, makes the doctor pass and the server connect', async ({
  page,
}) => {
  const bare = await peer('express-cors');
  await openWidget(page, [{ url: bare.url, id: 'express' }], { failing: ['express'] });
  const report = await diagnoseFailure(page, 'express');
  await expect(step(report, 'cors')).toHaveAttribute('data-outcome', 'fail');
  const snippet = await openSnippet(report, 'express');
  // The snippet's options object, exactly as the page shows it, configures the fixed server.
  const options = JSON.parse(snippet.slice(snippet.indexOf('cors(') + 5, snippet.lastIndexOf('));')));
  expect(options.origin).toBe(WIDGET_ORIGIN);
  const fixed = await peer('express-cors', { corsOptions: options });

  await openWidget(page, [{ url: fixed.url, id: 'fixed' }]);
  const row = page.locator('[data-server="fixed"]');
  await row.getByRole('button', { name: 'Diagnose', exact: true }).click();
  const fixedReport = row.locator('[data-doctor]');
  await expect(fixedReport.getByRole('list', { name: 'Diagnosis steps' })).toBeVisible({ timeout: 30_000 });
  for (const id of ['reachability', 'cors', 'preflight', 'protocol', 'session-header', 'tools-list'])
    await expect(step(fixedReport, id)).toHaveAttribute('data-outcome', 'pass');
  await expect(step(fixedReport, 'tools-list')).toContainText('listed 1 tool');
  await expect(fixedReport.getByRole('region', { name: "The fix for the server's owner" })).toHaveCount(0);
});

test('the Hono snippet, applied to a real Hono server, makes the doctor pass and the server connect', async ({
  page,
}) => {
  const bare = await peer('hono-cors');
  await openWidget(page, [{ url: bare.url, id: 'hono' }], { failing: ['hono'] });
  const report = await diagnoseFailure(page, 'hono');
  await expect(step(report, 'cors')).toHaveAttribute('data-outcome', 'fail');
  const snippet = await openSnippet(report, 'hono');
  const options = JSON.parse(snippet.slice(snippet.indexOf('cors(') + 5, snippet.lastIndexOf('));')));
  expect(options.origin).toBe(WIDGET_ORIGIN);
  const fixed = await peer('hono-cors', { corsOptions: options });

  await openWidget(page, [{ url: fixed.url, id: 'fixed' }]);
  const row = page.locator('[data-server="fixed"]');
  await row.getByRole('button', { name: 'Diagnose', exact: true }).click();
  const fixedReport = row.locator('[data-doctor]');
  await expect(fixedReport.getByRole('list', { name: 'Diagnosis steps' })).toBeVisible({ timeout: 30_000 });
  for (const id of ['reachability', 'cors', 'preflight', 'protocol', 'session-header', 'tools-list'])
    await expect(step(fixedReport, id)).toHaveAttribute('data-outcome', 'pass');
});

test('a server agreeing on a protocol version nobody speaks: the protocol step fails, naming it', async ({
  page,
}) => {
  const { corsOptions } = await import('../src/client/doctor/cors-fix.js');
  const wrong = await peer('express-cors', {
    corsOptions: corsOptions(WIDGET_ORIGIN),
    wrongVersion: '1999-01-01',
  });
  await openWidget(page, [{ url: wrong.url, id: 'wrong' }], { failing: ['wrong'] });
  const report = await diagnoseFailure(page, 'wrong');
  await expect(step(report, 'preflight')).toHaveAttribute('data-outcome', 'pass');
  await expect(step(report, 'protocol')).toHaveAttribute('data-outcome', 'fail');
  await expect(step(report, 'protocol')).toContainText('1999-01-01');
  await expect(step(report, 'tools-list')).toHaveAttribute('data-outcome', 'skipped');
});

test('an OAuth-protected server: the 401, its resource metadata and its authorization server are read', async ({
  page,
}) => {
  const { startProtectedServer } = await import('./peers/oauth-protected.mjs');
  const server = await startProtectedServer({ cors: true });
  try {
    await openWidget(page, [{ url: server.url, id: 'locked' }], { failing: ['locked'] });
    const row = page.locator('[data-server="locked"]');
    await row.getByRole('button', { name: 'Diagnose', exact: true }).click();
    const report = row.locator('[data-doctor]');
    await expect(report.getByRole('list', { name: 'Diagnosis steps' })).toBeVisible({ timeout: 30_000 });
    await expect(step(report, 'authorization')).toHaveAttribute('data-outcome', 'pass');
    await expect(step(report, 'resource-metadata')).toHaveAttribute('data-outcome', 'pass');
    await expect(step(report, 'authorization-server')).toHaveAttribute('data-outcome', 'pass');
    await expect(step(report, 'authorization-server')).toContainText(server.issuer);
    // This page gives the server no sign-in settings: the registration step says so, and what is offered.
    await expect(step(report, 'registration')).toHaveAttribute('data-outcome', 'fail');
    await expect(step(report, 'registration')).toContainText('accepts Dynamic Client Registration');
    await expect(step(report, 'registration')).toContainText('no sign-in settings');
    await expect(step(report, 'tools-list')).toHaveAttribute('data-outcome', 'skipped');
  } finally {
    await server.close();
  }
});

/** Opens Diagnose in the row of a server that failed to connect, and waits for the report. */
async function diagnoseRow(page: Page, id: string): Promise<Locator> {
  const row = page.locator(`[data-server="${id}"]`);
  await row.getByRole('button', { name: 'Diagnose', exact: true }).click();
  const report = row.locator('[data-doctor]');
  await expect(report.getByRole('list', { name: 'Diagnosis steps' })).toBeVisible({ timeout: 30_000 });
  return report;
}

test('an authorization server without CORS: its step fails, naming Access-Control-Allow-Origin for this origin', async ({
  page,
}) => {
  const server = await peer('misbehaving-auth', { args: ['--as-no-cors'] });
  await openWidget(page, [{ url: server.url, id: 'as' }], { failing: ['as'] });
  const report = await diagnoseRow(page, 'as');
  await expect(step(report, 'resource-metadata')).toHaveAttribute('data-outcome', 'pass');
  const as = step(report, 'authorization-server');
  await expect(as).toHaveAttribute('data-outcome', 'fail');
  await expect(as).toContainText(
    `answers, but not to pages: it must send Access-Control-Allow-Origin: ${WIDGET_ORIGIN}`,
  );
  await expect(step(report, 'registration')).toHaveAttribute('data-outcome', 'skipped');
});

test('protected-resource metadata on the wrong path: the step says where it is and where it must be', async ({
  page,
}) => {
  const server = await peer('misbehaving-auth', { args: ['--prm-misplaced'] });
  const origin = new URL(server.url).origin;
  await openWidget(page, [{ url: server.url, id: 'prm' }], { failing: ['prm'] });
  const report = await diagnoseRow(page, 'prm');
  await expect(step(report, 'authorization')).toHaveAttribute('data-outcome', 'pass');
  const prm = step(report, 'resource-metadata');
  await expect(prm).toHaveAttribute('data-outcome', 'fail');
  await expect(prm).toContainText(
    `is at ${origin}/mcp/.well-known/oauth-protected-resource, where clients do not look`,
  );
  await expect(prm).toContainText(`serve it at ${origin}/.well-known/oauth-protected-resource/mcp`);
});

test('a 401 loop: the token configured for the server is refused again; the doctor sent it and shows it nowhere', async ({
  page,
}) => {
  const server = await peer('misbehaving-auth', { args: ['--refuse-tokens'] });
  // A token its own authorization server issued (client credentials), pasted as a custom header.
  const prm = await (
    await fetch(`${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp`)
  ).json();
  const issued = await fetch(new URL('token', prm.authorization_servers[0]), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const token: string = (await issued.json()).access_token;

  await openWidget(page, []);
  await page.getByLabel(/^Server URL/).fill(server.url);
  await page.getByText('Custom headers').click();
  await page.getByLabel(/One per line/).fill(`Authorization: Bearer ${token}`);
  await page.getByRole('button', { name: 'Add server', exact: true }).click();
  const atField = page.locator('.tg-add-failed');
  await expect(atField).toContainText('could not connect', { timeout: 20_000 });
  await atField.getByRole('button', { name: 'Diagnose', exact: true }).click();
  const report = atField.locator('[data-doctor]');
  await expect(report.getByRole('list', { name: 'Diagnosis steps' })).toBeVisible({ timeout: 30_000 });
  const auth = step(report, 'authorization');
  await expect(auth).toHaveAttribute('data-outcome', 'fail');
  await expect(auth).toContainText('A 401 loop');
  await expect(auth).toContainText('invalid_token');
  for (const details of await report.locator('details').all())
    await details.evaluate((element) => {
      (element as HTMLDetailsElement).open = true;
    });
  await expect(auth).toContainText('authorization: [redacted: configured for this server]');
  expect(await report.innerText()).not.toContain(token);
});

test('the Workers snippet, wrapped around a real Worker handler (on Node), makes the doctor pass and the server connect', async ({
  page,
}) => {
  const upstream = await peer('modern', { cors: false });
  const bare = await peer('workers-cors', { args: ['--upstream', upstream.url] });
  await openWidget(page, [{ url: bare.url, id: 'worker' }], { failing: ['worker'] });
  const report = await diagnoseFailure(page, 'worker');
  await expect(step(report, 'cors')).toHaveAttribute('data-outcome', 'fail');
  // The snippet exactly as the page shows it, pasted into the Worker's module.
  const snippet = await openSnippet(report, 'workers');
  expect(snippet).toContain(`"Access-Control-Allow-Origin": "${WIDGET_ORIGIN}"`);
  const file = join(mkdtempSync(join(tmpdir(), 'toolgate-snippet-')), 'snippet.mjs');
  writeFileSync(file, snippet);
  const fixed = await peer('workers-cors', { args: ['--upstream', upstream.url, '--snippet-file', file] });

  await openWidget(page, [{ url: fixed.url, id: 'fixed' }]);
  const fixedReport = await diagnoseRow(page, 'fixed');
  for (const id of ['reachability', 'cors', 'preflight', 'protocol', 'tools-list'])
    await expect(step(fixedReport, id)).toHaveAttribute('data-outcome', 'pass');
  await expect(fixedReport.getByRole('region', { name: "The fix for the server's owner" })).toHaveCount(0);
});

test.describe('after a sign-in', () => {
  const site = signInSiteForFile('e2e/fixtures/sign-in-modes/page.ts', 'Doctor after a sign-in');
  let oidc: OidcProtected | undefined;
  closeAfterEach(() => oidc);

  test('a server that refuses the token it just asked for: the authorization step names the 401 loop', async ({
    page,
    context,
  }) => {
    oidc = await startOidcProtected();
    await openSignInPage(page, site, { server: oidc.urls.refuses });
    const card = page.locator('[data-sign-in-card="notes"]');
    await card.getByRole('button', { name: 'Sign in to Notes' }).click({ timeout: 20_000 });
    const dialog = page.getByRole('dialog', { name: 'Sign in to Notes?' });
    await signInAtOidcProvider(context, () => dialog.getByRole('button', { name: 'Sign in' }).click());
    await expect(page.locator('[data-server="notes"] .tg-badge')).toContainText('failed', {
      timeout: 20_000,
    });
    expect(oidc.seen.authorizations).toHaveLength(1);

    const report = await diagnoseRow(page, 'notes');
    const auth = step(report, 'authorization');
    await expect(auth).toHaveAttribute('data-outcome', 'fail');
    await expect(auth).toContainText('A 401 loop: the last sign-in got a token');
    await expect(step(report, 'resource-metadata')).toHaveAttribute('data-outcome', 'pass');
    await expect(step(report, 'registration')).toHaveAttribute('data-outcome', 'pass');
    await expect(step(report, 'registration')).toContainText('Dynamic Client Registration');
  });
});

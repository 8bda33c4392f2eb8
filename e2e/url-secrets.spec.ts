/**
 * Redirects and URL secrets in Chromium, against real servers on 127.0.0.1: an SDK 1.x peer, and
 * two recording redirectors in front of it on other ports (other origins). The page is
 * https://app.test (served by page.route), so requests are real cross-origin fetches.
 *
 * - A browser hides where a `redirect: 'manual'` redirect leads (an opaque redirect): Toolgate
 *   follows none, and the second server receives nothing.
 * - A server URL carrying `?api_key=` is used as the server id and quoted by a transport error;
 *   neither the real IndexedDB audit log nor its export holds the key.
 */
import { expect, type Page, test } from '@playwright/test';
import type { UrlSecretsApi } from './fixtures/url-secrets/page.js';
import { type Redirector, startRedirector } from './peers/redirector.mjs';
import { bundle } from './support/bundle.js';
import { type Peer, startPeer } from './support/peers.js';

declare global {
  interface Window {
    urlSecrets: UrlSecretsApi;
  }
}

const APP_ORIGIN = 'https://app.test';
const HEADERS = { Authorization: 'Bearer tg-e2e-token-0123456789', 'X-Api-Key': 'tg-e2e-key-9876543210' };

// Chromium's Local Network Access: a public https page may reach 127.0.0.1 once the person allows it.
test.use({ permissions: ['local-network-access'] });

async function openPage(page: Page): Promise<void> {
  const script = await bundle('e2e/fixtures/url-secrets/page.ts');
  await page.route(`${APP_ORIGIN}/**`, (route) => {
    if (new URL(route.request().url()).pathname === '/page.js')
      return route.fulfill({ contentType: 'application/javascript', body: script });
    return route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>url secrets</title><script type="module" src="/page.js"></script>',
    });
  });
  await page.goto(`${APP_ORIGIN}/`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
}

test.describe('redirects in the browser', () => {
  let peer: Peer;
  let a: Redirector;
  let b: Redirector;

  test.beforeAll(async () => {
    peer = await startPeer('sdk1-stateful-sse');
    b = await startRedirector({ upstream: peer.url });
    a = await startRedirector({ upstream: peer.url, redirectTo: `${b.origin}/mcp` });
  });
  test.afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await peer?.stop();
  });

  test('a redirect to another origin is not followed, and that origin receives nothing', async ({ page }) => {
    await openPage(page);
    const before = b.seen().length;
    const outcome = await page.evaluate(([url, headers]) => window.urlSecrets.connect(url, headers), [
      `${a.origin}/moved/307/mcp`,
      HEADERS,
    ] as const);
    expect(b.seen().slice(before)).toEqual([]);
    expect(outcome).toMatchObject({ ok: false, failure: 'bad-endpoint' });
    expect(outcome.ok ? '' : outcome.message).toContain(
      `${a.origin}/moved/307/mcp redirected to another address, which the browser does not let Toolgate read; ` +
        `Toolgate does not follow it so your headers and tokens stay with ${a.origin}. Use the final URL.`,
    );
    // The redirect itself came from A, which did get the request with its credentials.
    const atA = a.seen().filter((request) => request.path === '/moved/307/mcp' && request.method === 'POST');
    expect(atA.length).toBeGreaterThan(0);
    expect(atA.every((request) => request.headers['x-api-key'] === HEADERS['X-Api-Key'])).toBe(true);
  });

  test('B answers this page when addressed directly (so the empty record above means something)', async ({
    page,
  }) => {
    await openPage(page);
    const before = b.seen().length;
    const outcome = await page.evaluate(([url, headers]) => window.urlSecrets.connect(url, headers), [
      `${b.origin}/mcp`,
      HEADERS,
    ] as const);
    expect(outcome).toEqual({ ok: true });
    const posts = b
      .seen()
      .slice(before)
      .filter((request) => request.method === 'POST');
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every((request) => request.headers.authorization === HEADERS.Authorization)).toBe(true);
  });
});

test('a secret in the server URL reaches neither the audit log nor its export', async ({ page }) => {
  const peer = await startPeer('sdk1-stateful-json');
  try {
    await openPage(page);
    const secret = 'sk-e2e-url-secret-4711';
    const url = `${peer.url}?api_key=${secret}&region=eu`;
    await page.evaluate(([u]) => window.urlSecrets.openAudited(u, 'url-secrets'), [url] as const);
    expect(await page.evaluate(() => window.urlSecrets.call('echo', { message: 'first' }))).toEqual({
      ok: true,
    });
    // The server goes away: the next call fails with a transport error that names the server URL.
    await peer.stop();
    const failedCall = await page.evaluate(() => window.urlSecrets.call('echo', { message: 'second' }));
    expect(failedCall.ok).toBe(false);
    expect(failedCall.ok ? '' : failedCall.message).toContain(`${peer.url}?api_key=***&region=eu`);

    const { text, serverIds } = await page.evaluate(() => window.urlSecrets.exported());
    expect(text).not.toContain(secret);
    expect(serverIds).toEqual([`${peer.url}?api_key=***&region=eu`, `${peer.url}?api_key=***&region=eu`]);
    // Both calls are in the export: the success, and the failure with its (redacted) message.
    expect(text).toContain('"message":"first"');
    expect(text).toContain('"message":"second"');
    expect(text).toContain(`Could not reach ${peer.url}?api_key=***&region=eu`);
  } finally {
    await peer.stop();
  }
});

/**
 * Connecting, in Chromium, to servers that misbehave before any call (e2e/peers/hostile.mjs): the
 * failure the page gets is the server's real one, named so a person can act on it. The page lives on
 * another origin (https://app.test), so every exchange passes the browser's CORS checks.
 */
import { expect, test } from '@playwright/test';
import { bundle } from './support/bundle.js';
import { type Peer, startPeer } from './support/peers.js';

const APP_ORIGIN = 'https://app.test';
test.use({ permissions: ['local-network-access'] });

let peer: Peer;
test.beforeAll(async () => {
  peer = await startPeer('hostile');
});
test.afterAll(async () => {
  await peer?.stop();
});

test('a 2024-11-05 endpoint whose event stream never announces its endpoint fails with that cause, not the 405 of the Streamable HTTP attempt', async ({
  page,
}) => {
  const script = await bundle('e2e/fixtures/peers/page.ts');
  await page.route(`${APP_ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/page.js'
      ? route.fulfill({ contentType: 'text/javascript', body: script })
      : route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><meta charset="utf-8"><title>Toolgate connect</title><script type="module" src="/page.js"></script>',
        }),
  );
  await page.goto(`${APP_ORIGIN}/`);
  await page.waitForFunction(() => 'api' in window);
  const url = peer.url.replace(/\/mcp\/plain$/, '/sse/no-endpoint');
  // Automatic transport choice: POSTs to the URL are refused 405, then its event stream opens and stays silent.
  const outcome = await page.evaluate(
    (address) => window.api.connect(address, { connectTimeoutMs: 2_000 }),
    url,
  );
  expect(outcome.ok).toBe(false);
  if (outcome.ok) return;
  expect(outcome.error).toMatchObject({ name: 'TransportError', failure: 'no-endpoint' });
  expect(outcome.error.message).toContain(`${url}: no endpoint announced within the connect timeout (2 s)`);
  // What to do: check the URL and the server, or give a slow one more time.
  expect(outcome.error.message).toContain('often /sse');
  expect(outcome.error.message).toContain('raise connectTimeoutMs');
  expect(outcome.error.message).not.toContain('405');
  // The server saw its event stream opened, once.
  expect((await peer.events()).streams.filter((s) => s.path === '/sse/no-endpoint')).toHaveLength(1);
});

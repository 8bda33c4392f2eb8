/**
 * The postMessage transport family in headless Chromium, across real origins: app.test (the client
 * page), tools.test (server pages), evil.test (a forger) and other.test (only named in allow-lists).
 * No server runs: every request is routed and fulfilled here. The routes sit on the context, not
 * the page, because popups are pages of their own.
 */
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, expect, type Frame, type Page, test } from '@playwright/test';
import { bundle } from './support/bundle.js';
import { CHROMIUM, CHROMIUM_ARGS } from './support/chromium.js';

const HARNESS = fileURLToPath(new URL('./fixtures/post-message/harness.ts', import.meta.url));
const APP = 'http://app.test';
const TOOLS = 'http://tools.test';
const SERVER_PAGE = `${TOOLS}/server?serve=${APP}`;

/** Routes the test origins: the shared harness script and one tiny page per URL. */
async function serveOrigins(context: BrowserContext): Promise<void> {
  await context.route(/^http:\/\/(app|tools|evil|other)\.test\//, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/harness.js')
      return route.fulfill({ contentType: 'application/javascript', body: await bundle(HARNESS) });
    if (url.pathname === '/favicon.ico') return route.fulfill({ status: 404, body: '' });
    return route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><meta charset="utf-8"><title>${url.host}</title><script type="module" src="/harness.js"></script><p>${url.host}${url.pathname}</p>`,
    });
  });
}

test.beforeEach(async ({ context, page }) => {
  await serveOrigins(context);
  await open(page, `${APP}/`);
});

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => document.title === 'harness ready');
}

function frameAt(page: Page, prefix: string): Frame {
  const frame = page.frames().find((f) => f.url().startsWith(prefix));
  if (!frame) throw new Error(`no frame at ${prefix}`);
  return frame;
}

async function connect(page: Page, spec: Parameters<Window['harness']['connect']>[0]): Promise<number> {
  const outcome = await page.evaluate((s) => window.harness.connect(s), spec);
  if (!outcome.ok) throw new Error(`connect failed: ${outcome.error.message}`);
  return outcome.id;
}

/** Every window.postMessage this page made went to `origin`, and was a handshake: the rest rode the port. */
async function expectOnlyHandshakesTo(where: Page | Frame, origin: string): Promise<void> {
  const log = await where.evaluate(() => window.harness.postLog());
  expect(log.length).toBeGreaterThan(0);
  expect(log.filter((r) => r.targetOrigin !== origin || r.what !== 'mcp-connect')).toEqual([]);
}

test('iframe: handshake, then a JSON-RPC round trip on the transferred port, posting only to the exact origin', async ({
  page,
}) => {
  const outcome = await page.evaluate((url) => window.harness.connect({ via: 'frame', url }), SERVER_PAGE);
  expect(outcome).toMatchObject({ ok: true, label: `postMessage peer ${TOOLS} (iframe)` });
  const id = outcome.ok ? outcome.id : 0;

  const reply = await page.evaluate((i) => window.harness.request(i, 'echo', { a: 1 }), id);
  expect(reply).toEqual({
    ok: true,
    result: { method: 'echo', echo: { a: 1 }, clientOrigin: APP, serverOrigin: TOOLS },
  });

  const server = frameAt(page, TOOLS);
  expect(await server.evaluate(() => window.harness.serverInfo())).toMatchObject({
    connections: 1,
    accepted: [APP],
    refusedConnections: 0,
    droppedMessages: 0,
  });
  await expectOnlyHandshakesTo(page, TOOLS);
  // The server answers on the port only: it never calls window.postMessage.
  expect(await server.evaluate(() => window.harness.postLog())).toEqual([]);
});

test('forged messages from a third origin and from another window of the peer origin are ignored and counted', async ({
  page,
}) => {
  const id = await connect(page, { via: 'frame', url: SERVER_PAGE });
  await page.evaluate((i) => window.harness.begin(i, 'hang', 'hang'), id);
  await page.evaluate(() => window.harness.addFrame('http://evil.test/forger?forge=1'));
  await page.evaluate((url) => window.harness.addFrame(url), `${TOOLS}/forger?forge=1`);

  // Each forger posts a JSON-RPC result, mcp-ready and mcp-goodbye (counted) and one unrelated string (not).
  await expect.poll(() => page.evaluate((i) => window.harness.info(i).droppedMessages, id)).toBe(6);
  const info = await page.evaluate((i) => window.harness.info(i), id);
  expect(info.errors).toContain(
    `ignored a message from http://evil.test while talking to postMessage peer ${TOOLS} (iframe): it did not come from the peer window`,
  );
  expect(info.errors).toContain(
    `ignored a message from ${TOOLS} while talking to postMessage peer ${TOOLS} (iframe): it did not come from the peer window`,
  );
  expect(info).toMatchObject({ closeEvents: 0, closeReason: undefined, inFlight: 1 });
  expect(await page.evaluate((i) => window.harness.outcome(i, 'hang'), id)).toBeNull();
  expect(await page.evaluate((i) => window.harness.request(i, 'echo', { still: 'fine' }), id)).toMatchObject({
    ok: true,
    result: { echo: { still: 'fine' } },
  });

  // The forgers also knocked on the server: stray JSON-RPC is dropped, their connects are refused.
  const server = frameAt(page, `${TOOLS}/server`);
  await expect
    .poll(() => server.evaluate(() => window.harness.serverInfo()))
    .toMatchObject({ droppedMessages: 2, refusedConnections: 2, accepted: [APP], connections: 1 });
  const serverErrors = (await server.evaluate(() => window.harness.serverInfo())).errors;
  expect(serverErrors).toContain(
    "refused a postMessage client: origin http://evil.test is not on this server's allow-list",
  );
  await expectOnlyHandshakesTo(page, TOOLS);
});

test('a server that does not allow this origin refuses at once with a clear error, not a timeout', async ({
  page,
}) => {
  const outcome = await page.evaluate(
    (url) => window.harness.connect({ via: 'frame', url, handshakeTimeoutMs: 120_000 }),
    `${TOOLS}/server?serve=http://other.test`,
  );
  expect(outcome).toEqual({
    ok: false,
    error: {
      name: 'TransportError',
      failure: 'origin-refused',
      message: `postMessage peer ${TOOLS} (iframe) refused the connection from ${APP}: origin ${APP} is not on this server's allow-list. Ask its owner to add ${APP} to its allowedOrigins.`,
    },
  });
  expect(await frameAt(page, TOOLS).evaluate(() => window.harness.serverInfo().refusedConnections)).toBe(1);
  await expectOnlyHandshakesTo(page, TOOLS);
});

test('a page with no server listening times out with advice naming the origin and the allow-list', async ({
  page,
}) => {
  const outcome = await page.evaluate(
    (url) => window.harness.connect({ via: 'frame', url, handshakeTimeoutMs: 1_500 }),
    `${TOOLS}/not-a-server`,
  );
  expect(outcome).toMatchObject({ ok: false, error: { name: 'TransportError', failure: 'unreachable' } });
  const message = outcome.ok ? '' : outcome.error.message;
  expect(message).toContain(
    `postMessage peer ${TOOLS} (iframe) did not answer the Toolgate handshake within 1500 ms`,
  );
  expect(message).toContain(`the page at ${TOOLS} is loaded and calls acceptPostMessageClients()`);
  expect(message).toContain(`its allowedOrigins include ${APP}`);
  await expectOnlyHandshakesTo(page, TOOLS);
});

test('removing the iframe closes the channel and rejects pending requests with ConnectionClosedError', async ({
  page,
}) => {
  const id = await connect(page, { via: 'frame', url: SERVER_PAGE });
  await page.evaluate((i) => window.harness.begin(i, 'hang', 'hang'), id);
  await expect.poll(() => page.evaluate((i) => window.harness.info(i).inFlight, id)).toBe(1);
  await page.evaluate((i) => window.harness.removeFrame(i), id);

  await expect
    .poll(() => page.evaluate((i) => window.harness.outcome(i, 'hang'), id))
    .toEqual({
      ok: false,
      error: {
        name: 'ConnectionClosedError',
        message: `the connection to postMessage peer ${TOOLS} (iframe) closed`,
      },
    });
  const info = await page.evaluate((i) => window.harness.info(i), id);
  expect(info.closeEvents).toBe(1);
  expect(['goodbye', 'port-closed', 'peer-window-closed']).toContain(info.closeReason);
});

test("a server page that vanishes without a goodbye is noticed through its window's closed flag", async ({
  page,
}) => {
  const id = await connect(page, { via: 'frame', url: `${SERVER_PAGE}&goodbye=0`, peerCheckIntervalMs: 100 });
  await page.evaluate((i) => window.harness.begin(i, 'hang', 'hang'), id);
  await page.evaluate((i) => window.harness.removeFrame(i), id);
  await expect
    .poll(() => page.evaluate((i) => window.harness.info(i).closeReason, id))
    .toBe('peer-window-closed');
  expect(await page.evaluate((i) => window.harness.outcome(i, 'hang'), id)).toMatchObject({
    ok: false,
    error: { name: 'ConnectionClosedError' },
  });
});

test('where Chromium has the MessagePort close event, a server vanishing without a goodbye is noticed through the port alone', async () => {
  // Chromium 156 ships the event behind a feature flag, so this test starts a browser of its own with it.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, '--enable-blink-features=MessagePortCloseEvent'],
  });
  try {
    const context = await browser.newContext();
    await serveOrigins(context);
    const page = await context.newPage();
    await open(page, `${APP}/`);
    // No pagehide goodbye, and a `closed` poll too slow to matter: only the port's close event is left.
    const id = await connect(page, {
      via: 'frame',
      url: `${SERVER_PAGE}&goodbye=0`,
      peerCheckIntervalMs: 3_600_000,
    });
    await page.evaluate((i) => window.harness.removeFrame(i), id);
    await expect.poll(() => page.evaluate((i) => window.harness.info(i).closeReason, id)).toBe('port-closed');
    expect(await page.evaluate((i) => window.harness.info(i).closeEvents, id)).toBe(1);
  } finally {
    await browser.close();
  }
});

test("closing the client tells the server, whose side of the channel ends with 'goodbye'", async ({
  page,
}) => {
  const id = await connect(page, { via: 'frame', url: SERVER_PAGE });
  const server = frameAt(page, TOOLS);
  await expect.poll(() => server.evaluate(() => window.harness.serverInfo().connections)).toBe(1);
  await page.evaluate((i) => window.harness.close(i), id);
  expect(await page.evaluate((i) => window.harness.info(i), id)).toMatchObject({
    closeEvents: 1,
    closeReason: 'local',
  });
  await expect
    .poll(() => server.evaluate(() => window.harness.serverInfo()))
    .toMatchObject({ connections: 0, endedReasons: ['goodbye'] });
});

test('popup: connects to a server in a window it opened; closing the popup closes the channel', async ({
  page,
}) => {
  const outcome = await page.evaluate((url) => window.harness.connect({ via: 'popup', url }), SERVER_PAGE);
  expect(outcome).toMatchObject({ ok: true, label: `postMessage peer ${TOOLS} (popup)` });
  const id = outcome.ok ? outcome.id : 0;
  expect(await page.evaluate((i) => window.harness.request(i, 'echo', { via: 'popup' }), id)).toMatchObject({
    ok: true,
    result: { echo: { via: 'popup' }, clientOrigin: APP, serverOrigin: TOOLS },
  });

  await page.evaluate((i) => window.harness.begin(i, 'hang', 'hang'), id);
  await expect.poll(() => page.evaluate((i) => window.harness.info(i).inFlight, id)).toBe(1);
  await page.evaluate((i) => window.harness.closePopup(i), id);
  await expect
    .poll(() => page.evaluate((i) => window.harness.outcome(i, 'hang'), id))
    .toMatchObject({ ok: false, error: { name: 'ConnectionClosedError' } });
  expect(await page.evaluate((i) => window.harness.info(i).closeEvents, id)).toBe(1);
  await expectOnlyHandshakesTo(page, TOOLS);
});

test('opener: a client in a popup connects to a server in the page that opened it', async ({
  page,
  context,
}) => {
  await page.evaluate((tools) => window.harness.serve({ allowed: [tools] }), TOOLS);
  const popupOpened = context.waitForEvent('page');
  await page.evaluate((url) => window.open(url, '_blank'), `${TOOLS}/client`);
  const popup = await popupOpened;
  await popup.waitForFunction(() => document.title === 'harness ready');

  const outcome = await popup.evaluate(
    (app) => window.harness.connect({ via: 'opener', targetOrigin: app }),
    APP,
  );
  expect(outcome).toMatchObject({ ok: true, label: `postMessage peer ${APP} (opener)` });
  const id = outcome.ok ? outcome.id : 0;
  expect(await popup.evaluate((i) => window.harness.request(i, 'echo', { via: 'opener' }), id)).toMatchObject(
    {
      ok: true,
      result: { echo: { via: 'opener' }, clientOrigin: TOOLS, serverOrigin: APP },
    },
  );
  await expectOnlyHandshakesTo(popup, APP);

  // The client's page goes away: the server's side of the channel ends too.
  await popup.close();
  await expect
    .poll(() => page.evaluate(() => window.harness.serverInfo()))
    .toMatchObject({ accepted: [TOOLS], connections: 0 });
});

test("opaque sandboxed srcdoc iframe: the handshake is the only post to '*', and other null-origin windows are ignored", async ({
  page,
}) => {
  const outcome = await page.evaluate(
    (app) => window.harness.connect({ via: 'opaque', serve: { allowed: [app] } }),
    APP,
  );
  expect(outcome).toMatchObject({
    ok: true,
    label: 'postMessage peer with an opaque origin (sandboxed iframe)',
  });
  const id = outcome.ok ? outcome.id : 0;
  expect(await page.evaluate((i) => window.harness.request(i, 'echo', { sandboxed: true }), id)).toEqual({
    ok: true,
    result: { method: 'echo', echo: { sandboxed: true }, clientOrigin: APP, serverOrigin: 'null' },
  });
  await expectOnlyHandshakesTo(page, '*');

  // Another sandboxed frame has the same origin 'null' but is not our frame's window.
  await page.evaluate(() => {
    const impostor = document.createElement('iframe');
    impostor.setAttribute('sandbox', 'allow-scripts');
    impostor.srcdoc = `<script>parent.postMessage({ jsonrpc: '2.0', id: 1, result: { forged: true } }, '*');</script>`;
    document.body.append(impostor);
  });
  await expect.poll(() => page.evaluate((i) => window.harness.info(i).droppedMessages, id)).toBe(1);
  expect((await page.evaluate((i) => window.harness.info(i), id)).errors).toEqual([
    'ignored a message from null while talking to postMessage peer with an opaque origin (sandboxed iframe): it did not come from the peer window',
  ]);

  await page.evaluate((i) => window.harness.removeFrame(i), id);
  await expect.poll(() => page.evaluate((i) => window.harness.info(i).closeEvents, id)).toBe(1);
});

/**
 * What an MCP App under the restrictive default policy (no `_meta.ui.csp`) can reach, in Chromium,
 * against a real attacker endpoint on 127.0.0.1 (an HTTP server and a UDP socket, e2e/support/attacker.ts)
 * and a real MCP server whose apps try every way out (e2e/peers/hostile-app.mjs): fetch and images,
 * WebRTC in the app and in frames it makes (srcdoc, innerHTML, a closed shadow root, about:blank with
 * a javascript: URL, frames written into its HTML), navigating itself, a form, window.open. Each test
 * fails when anything of the app's arrives. After each attempt the host page itself reaches the
 * attacker's control path or port: once that arrives, what the app sent before would have too.
 */
import { expect, type Frame, type Page, test } from '@playwright/test';
import { APPS_PAGE_ORIGIN, SANDBOX_URL, serveAppsPage } from './support/apps.js';
import { type Attacker, startAttacker } from './support/attacker.js';
import { type Peer, startPeer } from './support/peers.js';

const ORIGIN = APPS_PAGE_ORIGIN;
const APP = 'ui://hostile/app.html';
const MARKUP_APP = 'ui://hostile/markup.html';
test.use({ permissions: ['local-network-access'] });

let attacker: Attacker;
let hostile: Peer;

test.beforeAll(async () => {
  attacker = await startAttacker();
  hostile = await startPeer('hostile-app', {
    args: ['--http', attacker.http, '--udp', String(attacker.udp)],
  });
});
test.afterAll(async () => {
  await hostile?.stop();
  await attacker?.close();
});
test.beforeEach(() => attacker.reset());

type Mode = 'sandbox origin' | 'built-in proxy';

async function openPage(page: Page, mode: Mode): Promise<void> {
  await serveAppsPage(page);
  const query = new URLSearchParams({ server: hostile.url, id: 'hostile' });
  if (mode === 'sandbox origin') query.set('sandbox', SANDBOX_URL);
  await page.goto(`${ORIGIN}/?${query}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await expect(page.locator('[data-server="hostile"]')).toContainText('connected', { timeout: 20_000 });
}

/** Runs the tool as the host's model would, approves it, and waits for its app to run in the Apps tab. */
async function showApp(page: Page, tool: string, uri: string): Promise<Frame> {
  const run = page.evaluate(
    (name) =>
      (window as unknown as { toolgateHost: { run(call: object): Promise<unknown> } }).toolgateHost.run({
        serverId: 'hostile',
        toolName: name,
        arguments: {},
      }),
    tool,
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  await run;
  await page.getByRole('tab', { name: /^Apps/ }).click();
  const figure = page.locator(`figure[data-app="${uri}"]`);
  await expect(figure).toHaveAttribute('data-app-state', 'running', { timeout: 20_000 });
  const proxy = await figure.locator('iframe').elementHandle();
  const view = (await proxy?.contentFrame())?.childFrames()[0];
  if (!view) throw new Error(`no View frame for ${uri}`);
  return view;
}

/** Runs `window.attack[name]()` in the app's frame; what it returned, or the name of what it threw. */
const attack = (view: Frame, name: string): Promise<string> =>
  view.evaluate(
    (which) =>
      Promise.resolve()
        .then(() => (window as unknown as { attack: Record<string, () => unknown> }).attack[which]?.())
        .then(String, (error: Error) => `threw ${error.name}`),
    name,
  );

/** The host page reaches the attacker's control path; resolves once it has arrived. */
async function controlRequest(page: Page): Promise<void> {
  await page.evaluate((url) => fetch(`${url}/control`).then(() => undefined), attacker.http);
  await expect
    .poll(() => attacker.requests.filter((line) => line.includes('/control')).length)
    .toBeGreaterThan(0);
}

/** The host page sends a STUN binding request to the control port; resolves once one has arrived. */
async function controlWebRtc(page: Page): Promise<void> {
  await page.evaluate(async (port) => {
    const connection = new RTCPeerConnection({ iceServers: [{ urls: `stun:127.0.0.1:${port}` }] });
    connection.createDataChannel('control');
    await connection.setLocalDescription(await connection.createOffer());
  }, attacker.controlUdp);
  await expect.poll(() => attacker.controlDatagrams.length).toBeGreaterThan(0);
}

/** Only the control request arrived over HTTP, and nothing at all on the apps' UDP port. */
function expectNothingFromTheApp(): void {
  expect(attacker.requests.filter((line) => !line.includes('/control'))).toEqual([]);
  expect(attacker.datagrams).toEqual([]);
}

for (const mode of ['sandbox origin', 'built-in proxy'] as const) {
  test.describe(`with the ${mode}`, () => {
    test('fetch and images are blocked before they leave', async ({ page }) => {
      await openPage(page, mode);
      const view = await showApp(page, 'hostile-app', APP);
      const saw = await attack(view, 'fetchAndImage');
      await controlRequest(page);
      expectNothingFromTheApp();
      expect(saw).toBe('TypeError failed');
      // What the person is told: nothing to reach, no WebRTC, and the one thing the browser still does.
      const figure = page.locator(`figure[data-app="${APP}"]`);
      await expect(figure).toContainText(
        'no network access; no WebRTC; opening other pages only through you',
      );
      await expect(figure).toContainText('may look up its name and connect to it');
    });

    test('WebRTC in the app sends nothing: it has no RTCPeerConnection', async ({ page }) => {
      await openPage(page, mode);
      const view = await showApp(page, 'hostile-app', APP);
      const saw = await attack(view, 'webrtc');
      await controlWebRtc(page);
      expectNothingFromTheApp();
      // What `typeof RTCPeerConnection` said in the app, after its attempt failed.
      expect(saw).toBe('undefined');
    });

    test('navigating itself is refused before any request; the app is closed', async ({ page }) => {
      await openPage(page, mode);
      const view = await showApp(page, 'hostile-app', APP);
      await attack(view, 'navigate');
      await expect(page.locator(`figure[data-app="${APP}"]`)).toHaveAttribute('data-app-state', 'closed');
      await controlRequest(page);
      expectNothingFromTheApp();
    });
  });
}

test.describe('with the sandbox origin', () => {
  test.beforeEach(async ({ page }) => openPage(page, 'sandbox origin'));

  for (const [name, saw] of [
    ['srcdoc', 'srcdoc frame'],
    ['innerHTML', 'innerHTML frame'],
    ['closed shadow root', 'closed shadow root frame'],
  ] as const)
    test(`WebRTC in a frame the app makes (${name}) sends nothing`, async ({ page }) => {
      const view = await showApp(page, 'hostile-app', APP);
      const way = { srcdoc: 'srcdocFrame', innerHTML: 'markupFrame', 'closed shadow root': 'shadowFrame' }[
        name
      ];
      const said = await attack(view, way);
      // The frame's document loads (so its script had its chance) before the control goes.
      await expect.poll(() => view.childFrames().some((frame) => frame.url() === 'about:srcdoc')).toBe(true);
      await controlWebRtc(page);
      expectNothingFromTheApp();
      expect(said).toBe(saw);
    });

  test('an about:blank frame the app makes is out of its reach, a javascript: URL too', async ({ page }) => {
    const view = await showApp(page, 'hostile-app', APP);
    const saw = await attack(view, 'blankFrame');
    await controlWebRtc(page);
    expectNothingFromTheApp();
    expect(saw).toBe('SecurityError');
  });

  test('frames written into the app’s own HTML send nothing; a closed declarative shadow root is never made', async ({
    page,
  }) => {
    const view = await showApp(page, 'hostile-markup', MARKUP_APP);
    await expect
      .poll(() => view.childFrames().filter((frame) => frame.url() === 'about:srcdoc').length)
      .toBe(1);
    await controlWebRtc(page);
    expectNothingFromTheApp();
    // The declarative shadow root was never made: its template stayed an inert template.
    expect(
      await view.evaluate(() => document.querySelectorAll('template[shadowroot_mode="closed"]').length),
    ).toBe(1);
  });

  test('a form posting to the attacker is refused', async ({ page }) => {
    const view = await showApp(page, 'hostile-app', APP);
    expect(await attack(view, 'form')).toBe('submitted');
    await controlRequest(page);
    expectNothingFromTheApp();
  });

  test('window.open is refused: no window, no request', async ({ page, context }) => {
    const view = await showApp(page, 'hostile-app', APP);
    const pages = context.pages().length;
    const saw = await attack(view, 'open');
    await controlRequest(page);
    expectNothingFromTheApp();
    expect(saw).toBe('null');
    expect(context.pages().length).toBe(pages);
  });
});

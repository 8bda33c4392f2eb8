/**
 * MCP Apps in the extension's side panel, built and loaded unpacked, against the official
 * @modelcontextprotocol/server-basic-vanillajs (started through its own bin, a recording proxy in
 * front of it to prove from the server's side what was sent): the side panel reads the app's UI
 * resource through the service worker and runs the app in the manifest's sandbox page (an opaque
 * origin); the app's button asks the worker's gate, whose approval dialog in the side panel names
 * the app; a denial sends nothing, an approval does, and both are in the audit log under the app's
 * name; the app's script reaches neither the side panel nor chrome.* (checked from both sides), and
 * the app's own CSP still blocks what it does not declare; the app's request to open a link asks in
 * the side panel (no opens nothing, yes opens the https tab) and a javascript: URL is refused unasked.
 * A hostile app (e2e/peers/hostile-app.mjs) gets no WebRTC, in it or in a frame it makes, and its own
 * navigation is refused before any request, as in the widget (e2e/app-reach.spec.ts).
 */
import { expect, type Frame, type Page, test } from '@playwright/test';
import { type RecordingProxy, startRecordingProxy } from '../test/support/recording-proxy.js';
import { type AppServer, startAppServer } from './support/app-servers.js';
import {
  againstCountingServer,
  basicApp as app,
  BASIC_APP,
  denyThenAllowAppCall,
  showBasicAppTab as showApps,
  tryToReach,
} from './support/apps.js';
import { startAttacker } from './support/attacker.js';
import { type LoadedExtension, launchWithExtension } from './support/extension.js';
import { startPeer } from './support/peers.js';
import { fillServerUrl } from './support/widget-page.js';

test.describe.configure({ mode: 'serial' });

let basic: AppServer;
let proxy: RecordingProxy;
let extension: LoadedExtension;
let panel: Page;

test.beforeAll(async () => {
  [basic, extension] = await Promise.all([startAppServer('basic-vanillajs'), launchWithExtension()]);
  proxy = await startRecordingProxy(basic.url);
});
test.afterAll(async () => {
  await proxy?.close();
  await Promise.all([basic?.stop(), extension?.close()]);
});

/** The frames as Playwright sees them: the sandbox proxy page and the app inside it. */
async function frames(page: Page): Promise<{ proxyFrame: Frame; appFrame: Frame }> {
  const isProxy = (frame: Frame | null) => frame?.url().endsWith('/mcp-app-sandbox.html') === true;
  await expect.poll(() => page.frames().some((frame) => isProxy(frame.parentFrame()))).toBe(true);
  const appFrame = page.frames().find((frame) => isProxy(frame.parentFrame()))!;
  return { proxyFrame: appFrame.parentFrame()!, appFrame };
}

test('the app renders in the side panel from a result the worker ran', async () => {
  panel = await extension.openPanel();
  await fillServerUrl(panel, proxy.url);
  await panel.getByRole('button', { name: 'Add server' }).click();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(1, { timeout: 20_000 });

  await panel.getByRole('tab', { name: 'Tools' }).click();
  await panel.getByLabel('Search tools').fill('get-time');
  // The tool's title ("Get Time"), as the server gives it.
  await panel.locator('.tg-tool-button', { hasText: /^Get Time\b/ }).click();
  await panel
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();
  await showApps(panel);
  // The tool result reached the app: it shows the time the server returned, not its placeholder.
  await expect(app(panel).locator('#server-time')).toHaveText(/^\d{4}-\d\d-\d\dT/);
  expect(proxy.toolCalls()).toEqual(['get-time']);
  // The UI resource was read by the worker's connection, through the same server.
  expect(
    proxy
      .messages()
      .filter((m) => m.method === 'resources/read')
      .map((m) => m.params?.uri),
  ).toContain(BASIC_APP);
  await panel.screenshot({ path: 'test-results/screenshots/extension-app.png', fullPage: true });
});

test("the app's call asks in the side panel naming the app; deny sends nothing, allow sends; both on record", async () => {
  await denyThenAllowAppCall(panel, () => proxy.toolCalls());

  // The audit log (written by the worker's gate, read here from the same IndexedDB): the app shown,
  // the person's call, and the app's denied and sent calls, each under the app's name.
  await panel.getByRole('tab', { name: 'Audit log' }).click();
  const rows = panel.locator('.tg-log-table tbody tr');
  await expect(rows).toHaveCount(4);
  // Each entry's tool, outcome and caller, as its drawer says (who asked, in words).
  const seen: string[] = [];
  for (let i = 0; i < 4; i++) {
    const row = rows.nth(i);
    const [tool, outcome] = await Promise.all([
      row.locator('td[data-label="Tool"]').textContent(),
      row.getAttribute('data-outcome'),
    ]);
    await row.getByRole('button', { name: /^Details of / }).click();
    const detail = panel.getByRole('dialog', { name: /on/ });
    await expect(detail).toContainText(`${tool} on`);
    const caller = await detail
      .locator('dt', { hasText: /^Who asked$/ })
      .locator('xpath=following-sibling::dd[1]')
      .textContent();
    // An app is named with its server ("The MCP App ui://… of <server id>"): the URI is what matters.
    seen.push(`${tool} ${outcome}: ${caller?.replace(/ of \S+$/, '')}`);
    await panel.keyboard.press('Escape');
    await expect(detail).toHaveCount(0);
  }
  expect(seen.sort()).toEqual(
    [
      // The app shown is an action: its plain label first, the name it is recorded under beside it.
      `App shown apps/show success: The MCP App ${BASIC_APP}`,
      `get-time denied: The MCP App ${BASIC_APP}`,
      `get-time success: The MCP App ${BASIC_APP}`,
      'get-time success: You',
    ].sort(),
  );
});

test('the app reaches neither the side panel nor chrome.*, and the panel cannot reach into it', async () => {
  await showApps(panel);
  const calls = proxy.toolCalls().length;
  await panel.evaluate(() => {
    document.title = 'Toolgate side panel';
    Object.assign(window, { panelSecret: 'kept in the panel' });
  });
  const { proxyFrame, appFrame } = await frames(panel);
  const probe = () => {
    const tryIt = (what: () => unknown) => {
      try {
        return `reached: ${String(what())}`;
      } catch (error) {
        return `blocked: ${(error as Error).name}`;
      }
    };
    const forged = { jsonrpc: '2.0', id: 'forged', method: 'tools/call', params: { name: 'get-time' } };
    const extensionApi = (globalThis as { chrome?: { runtime?: { id?: string; sendMessage?: unknown } } })
      .chrome?.runtime;
    return {
      origin: self.origin,
      chromeRuntime: (extensionApi?.id ?? extensionApi?.sendMessage) ? 'present' : 'absent',
      topDocument: tryIt(() => window.top!.document.title),
      secret: tryIt(() => (window.top as unknown as { panelSecret: string }).panelSecret),
      retitle: tryIt(() => {
        window.top!.document.title = 'pwned';
        return 'done';
      }),
      storage: tryIt(() => localStorage.length),
      database: tryIt(() => indexedDB.open('toolgate-audit')),
      // Posting to the side panel is allowed by the browser, and must achieve nothing.
      forged: tryIt(() => {
        window.top!.postMessage(forged, '*');
        return 'posted';
      }),
    };
  };
  for (const [which, frame] of [
    ['app', appFrame],
    ['sandbox page', proxyFrame],
  ] as const) {
    const attempts = await frame.evaluate(probe);
    expect(attempts.origin, which).toBe('null');
    expect(attempts.chromeRuntime, which).toBe('absent');
    expect(attempts.topDocument, which).toBe('blocked: SecurityError');
    expect(attempts.secret, which).toMatch(/^blocked|^reached: undefined$/);
    expect(attempts.retitle, which).toBe('blocked: SecurityError');
    expect(attempts.storage, which).toBe('blocked: SecurityError');
    expect(attempts.database, which).toBe('blocked: SecurityError');
  }

  // Checked from the side panel: nothing changed, nothing was asked or sent, and the sandbox frame
  // is an opaque origin whose document the panel cannot read.
  const seen = await panel.evaluate(() => {
    const root = document.getElementById('toolgate')!.shadowRoot!;
    const frame = root.querySelector<HTMLIFrameElement>('figure[data-app] iframe')!;
    return {
      title: document.title,
      secret: (window as unknown as { panelSecret: string }).panelSecret,
      proxyDocument: frame.contentDocument === null ? 'unreadable' : 'readable',
      proxySandbox: frame.getAttribute('sandbox'),
      proxyUrl: frame.src.replace(location.origin, ''),
    };
  });
  expect(seen).toEqual({
    title: 'Toolgate side panel',
    secret: 'kept in the panel',
    proxyDocument: 'unreadable',
    proxySandbox: 'allow-scripts allow-forms',
    proxyUrl: '/mcp-app-sandbox.html',
  });
  await expect(panel.getByRole('dialog')).toHaveCount(0);
  expect(proxy.toolCalls().length).toBe(calls);
});

test("the sandbox page's CSP leaves the app's own policy in force: a fetch it does not declare is blocked", async () => {
  const { url, outcome, hits } = await againstCountingServer(async (address) => {
    await showApps(panel);
    return tryToReach((await frames(panel)).appFrame, address);
  });
  expect(outcome.fetched).toBe('failed: TypeError');
  expect(outcome.image).toBe('failed');
  expect(outcome.violations).toContain(`connect-src ${url}`);
  expect(hits).toBe(0);
});

test("the app's open-link asks in the side panel: no opens nothing, yes opens the https tab, javascript: is refused unasked", async () => {
  const context = panel.context();
  await context.route('https://modelcontextprotocol.io/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>opened</title>' }),
  );
  await showApps(panel);
  const ask = panel.getByRole('alertdialog', { name: 'The app wants to open a link' });
  const opened: string[] = [];
  const onPage = (other: Page) => opened.push(other.url());
  context.on('page', onPage);
  try {
    await app(panel).getByRole('button', { name: 'Open Link' }).press('Enter');
    await expect(ask).toContainText(`The app ${BASIC_APP} wants to open https://modelcontextprotocol.io/`);
    await ask.getByRole('button', { name: "Don't open" }).click();
    await expect(ask).toHaveCount(0);

    const tab = context.waitForEvent('page');
    await app(panel).getByRole('button', { name: 'Open Link' }).press('Enter');
    await ask.getByRole('button', { name: 'Open link' }).click();
    await (await tab).waitForLoadState();
    expect(opened).toEqual(['https://modelcontextprotocol.io/']);

    // A javascript: URL is refused without a question; the https request after it (handled in
    // order) is the next thing the person is asked, so the refused one asked nothing and opened nothing.
    await app(panel).locator('#link-url').fill('javascript:alert(document.domain)');
    await app(panel).getByRole('button', { name: 'Open Link' }).press('Enter');
    await app(panel).locator('#link-url').fill('https://modelcontextprotocol.io/again');
    await app(panel).getByRole('button', { name: 'Open Link' }).press('Enter');
    await expect(ask).toHaveCount(1);
    await expect(ask).toContainText('wants to open https://modelcontextprotocol.io/again');
    await ask.getByRole('button', { name: "Don't open" }).click();
    await expect(ask).toHaveCount(0);
    expect(opened).toEqual(['https://modelcontextprotocol.io/']);
  } finally {
    context.off('page', onPage);
  }
});

test("the manifest's sandbox page runs the same guard: a hostile app's WebRTC, a frame's WebRTC and its own navigation reach nothing", async () => {
  const attacker = await startAttacker();
  const hostile = await startPeer('hostile-app', {
    args: ['--http', attacker.http, '--udp', String(attacker.udp)],
  });
  try {
    await panel.getByRole('tab', { name: 'Servers' }).click();
    await fillServerUrl(panel, hostile.url);
    await panel.getByRole('button', { name: 'Add server' }).click();
    await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(2, { timeout: 20_000 });
    await panel.getByRole('tab', { name: 'Tools' }).click();
    await panel.getByLabel('Search tools').fill('hostile-app');
    await panel.locator('.tg-tool-button', { hasText: /^hostile-app\b/ }).click();
    await panel
      .locator('.tg-try')
      .getByRole('button', { name: /^Call / })
      .click();
    await panel.getByRole('tab', { name: /^Apps/ }).click();
    const figure = panel.locator('figure[data-app="ui://hostile/app.html"]');
    await expect(figure).toHaveAttribute('data-app-state', 'running', { timeout: 20_000 });
    const proxyFrame = await (await figure.locator('iframe').elementHandle())?.contentFrame();
    const view = proxyFrame?.childFrames()[0];
    if (!view) throw new Error('no View frame for the hostile app');
    const attack = (name: string) =>
      view.evaluate(
        (which) =>
          Promise.resolve()
            .then(() => (window as unknown as { attack: Record<string, () => unknown> }).attack[which]?.())
            .then(String, (error: Error) => `threw ${error.name}`),
        name,
      );

    expect(await attack('webrtc')).toBe('undefined');
    expect(await attack('srcdocFrame')).toBe('srcdoc frame');
    await expect.poll(() => view.childFrames().some((frame) => frame.url() === 'about:srcdoc')).toBe(true);
    await attack('navigate');
    await expect(figure).toHaveAttribute('data-app-state', 'closed');
    // The panel itself reaches the control port and path: what the app sent before would be there too.
    await panel.evaluate(
      async ({ http, port }) => {
        await fetch(`${http}/control`);
        const connection = new RTCPeerConnection({ iceServers: [{ urls: `stun:127.0.0.1:${port}` }] });
        connection.createDataChannel('control');
        await connection.setLocalDescription(await connection.createOffer());
      },
      { http: attacker.http, port: attacker.controlUdp },
    );
    await expect.poll(() => attacker.controlDatagrams.length).toBeGreaterThan(0);
    expect(attacker.requests).toEqual(['GET /control']);
    expect(attacker.datagrams).toEqual([]);
  } finally {
    await hostile.stop();
    await attacker.close();
  }
});

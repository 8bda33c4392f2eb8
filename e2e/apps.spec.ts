/**
 * MCP Apps in the widget, in Chromium, against the official example servers from the registry
 * (@modelcontextprotocol/server-basic-vanillajs and server-pdf, started through their own bins):
 * the app renders in the sandbox proxy on another origin; an app button's tool call raises the
 * approval dialog naming the app, a denial sends nothing (proven by a recording proxy in front of the
 * server) and an approval does; app-only tools never reach the host API's model-facing list; a
 * script in the app cannot reach the page; a fetch the app's CSP does not allow is blocked; an app
 * asking for another server's tool is refused and recorded. Apps live in the Apps tab: an app opens
 * as soon as its call is sent, gets the call's input, then its result or its cancellation, survives
 * tab switches, and Close tears it down. Screenshots go to test-results/screenshots/.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Frame, type Page, test } from '@playwright/test';
import { type RecordingProxy, startRecordingProxy } from '../test/support/recording-proxy.js';
import { type AppServer, startAppServer } from './support/app-servers.js';
import {
  APPS_PAGE_ORIGIN,
  againstCountingServer,
  basicApp as app,
  BASIC_APP,
  basicAppFigure,
  consoleLinesOf,
  denyThenAllowAppCall,
  SANDBOX_ORIGIN,
  SANDBOX_URL,
  serveAppsPage,
  showBasicAppTab,
  tryToReach,
} from './support/apps.js';

const ORIGIN = APPS_PAGE_ORIGIN;
test.use({ permissions: ['local-network-access'] });
test.describe.configure({ mode: 'serial' });

let basic: AppServer;
let pdf: AppServer;
let basicProxy: RecordingProxy;
let pdfProxy: RecordingProxy;
/** In front of the basic server, holding its tools/call requests back while `held` is set. */
let holdingProxy: RecordingProxy;
let held: { release: () => void; promise: Promise<void> } | undefined;
let pdfDir: string;

/** From now on, tools/call requests wait at the holding proxy until the returned release(). */
function holdCalls(): () => void {
  let release: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  held = { release, promise };
  return () => {
    held = undefined;
    release();
  };
}

test.beforeAll(async () => {
  pdfDir = await mkdtemp(join(tmpdir(), 'toolgate-apps-'));
  await writeFile(join(pdfDir, 'hello.pdf'), onePagePdf('Hello from Toolgate'));
  [basic, pdf] = await Promise.all([startAppServer('basic-vanillajs'), startAppServer('pdf', [pdfDir])]);
  [basicProxy, pdfProxy, holdingProxy] = await Promise.all([
    startRecordingProxy(basic.url),
    startRecordingProxy(pdf.url),
    startRecordingProxy(basic.url, {
      beforeForward: async (_request, body) => {
        if (held && body.toString('utf8').includes('"tools/call"')) await held.promise;
      },
    }),
  ]);
});
test.afterAll(async () => {
  held?.release();
  await Promise.all([basicProxy?.close(), pdfProxy?.close(), holdingProxy?.close()]);
  await Promise.all([basic?.stop(), pdf?.stop()]);
  if (pdfDir) await rm(pdfDir, { recursive: true, force: true });
});

async function openPage(
  page: Page,
  servers: { url: string; id: string }[],
  options: { sandbox?: boolean } = {},
): Promise<void> {
  await serveAppsPage(page);
  const query = new URLSearchParams();
  for (const s of servers) {
    query.append('server', s.url);
    query.append('id', s.id);
  }
  if (options.sandbox !== false) query.set('sandbox', SANDBOX_URL);
  await page.goto(`${ORIGIN}/?${query}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  for (const s of servers)
    await expect(page.locator(`[data-server="${s.id}"]`)).toContainText('connected', { timeout: 20_000 });
}

/** Runs get-time as the assistant would (host API) and approves it; `run` is its outcome. */
async function runGetTime(page: Page): Promise<{ run: Promise<unknown> }> {
  const run = page.evaluate(() =>
    (window as unknown as { toolgateHost: { run(call: object): Promise<unknown> } }).toolgateHost.run({
      serverId: 'basic',
      toolName: 'get-time',
      arguments: {},
    }),
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  // Wrapped: an async function returning the bare promise would wait for the call's end.
  return { run };
}

/** Runs get-time, then shows its app in the Apps tab and waits for it to run. */
async function showBasicApp(page: Page): Promise<void> {
  await (await runGetTime(page)).run;
  await showBasicAppTab(page);
}

/** The app's own frame (the sandbox proxy's inner frame). */
async function appFrame(page: Page): Promise<Frame> {
  await expect
    .poll(() => page.frames().filter((frame) => frame.parentFrame()?.url().startsWith(SANDBOX_ORIGIN)).length)
    .toBeGreaterThan(0);
  const frame = page.frames().find((candidate) => candidate.parentFrame()?.url().startsWith(SANDBOX_ORIGIN));
  if (!frame) throw new Error('no app frame');
  return frame;
}

test('the app renders; its button asks for approval naming the app; deny sends nothing, allow sends', async ({
  page,
}) => {
  await openPage(page, [{ url: basicProxy.url, id: 'basic' }]);
  await showBasicApp(page);
  // The tool result reached the app: it shows the time the server returned, not its placeholder.
  await expect(app(page).locator('#server-time')).toHaveText(/^\d{4}-\d\d-\d\dT/);
  await page.screenshot({ path: 'test-results/screenshots/apps-basic.png', fullPage: true });
  expect(basicProxy.toolCalls()).toEqual(['get-time']);

  await denyThenAllowAppCall(
    page,
    () => basicProxy.toolCalls(),
    'test-results/screenshots/apps-approval.png',
  );

  // On record: the app's denied call and its sent call, each under the app's name.
  const entries = await page.evaluate(async () => {
    const { auditLog } = await (
      window as unknown as {
        toolgate: { ready: Promise<{ auditLog: { query(): Promise<{ entries: object[] }> } }> };
      }
    ).toolgate.ready;
    return (await auditLog.query()).entries as {
      caller: { kind: string; label?: string };
      outcome: string;
      toolName: string;
      argumentsPreview: string;
    }[];
  });
  const appEntries = entries.filter(
    (entry) => entry.caller.kind === 'mcp-app' && entry.toolName !== 'apps/show',
  );
  expect(appEntries.map((entry) => [entry.caller.label, entry.outcome]).sort()).toEqual([
    [BASIC_APP, 'denied'],
    [BASIC_APP, 'success'],
  ]);
  // And the app itself: shown once, under the policy it ran with.
  const shown = entries.filter((entry) => entry.toolName === 'apps/show');
  expect(shown.map((entry) => entry.caller.label)).toEqual([BASIC_APP]);
  expect(shown[0]?.argumentsPreview).toContain("default-src 'none'");
});

test('app-only tools are never offered to a model by the host API, nor run for it', async ({ page }) => {
  await openPage(page, [{ url: pdfProxy.url, id: 'pdf' }]);
  const offered = await page.evaluate(() => {
    const host = (
      window as unknown as { toolgateHost: { tools(): { serverId: string; tool: { name: string } }[] } }
    ).toolgateHost;
    return host.tools().map(({ tool }) => tool.name);
  });
  const listed = await page.evaluate(() =>
    (
      window as unknown as { toolgate: { servers: { value: { tools: { name: string }[] }[] } } }
    ).toolgate.servers.value[0]!.tools.map((tool) => tool.name),
  );
  // The server lists its app-only tools (the panel shows them to the person)...
  expect(listed).toEqual(expect.arrayContaining(['display_pdf', 'read_pdf_bytes', 'save_pdf']));
  // ...but the model-facing list leaves them out and keeps the rest.
  expect(offered).toContain('display_pdf');
  expect(offered).not.toContain('read_pdf_bytes');
  expect(offered).not.toContain('save_pdf');
  const run = await page.evaluate(async () => {
    const outcome = (await (
      window as unknown as { toolgateHost: { run(call: object): Promise<{ error?: { message: string } }> } }
    ).toolgateHost.run({ serverId: 'pdf', toolName: 'read_pdf_bytes', arguments: { url: 'x' } })) as {
      error?: { message: string };
    };
    return outcome.error?.message ?? 'no error';
  });
  expect(run).toContain('MCP App only');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(pdfProxy.toolCalls()).not.toContain('read_pdf_bytes');
});

test('a script in the app cannot reach the page, and the page cannot reach into the app', async ({
  page,
}) => {
  await openPage(page, [{ url: basicProxy.url, id: 'basic' }]);
  await showBasicApp(page);
  const calls = basicProxy.toolCalls().length;
  await page.evaluate(() => {
    document.title = 'Toolgate apps';
    Object.assign(window, { pageSecret: 'kept in the page' });
  });
  const frame = await appFrame(page);
  const attempts = await frame.evaluate(() => {
    const tryIt = (what: () => unknown) => {
      try {
        return `reached: ${String(what())}`;
      } catch (error) {
        return `blocked: ${(error as Error).name}`;
      }
    };
    const forged = { jsonrpc: '2.0', id: 'forged', method: 'tools/call', params: { name: 'get-time' } };
    return {
      origin: self.origin,
      topDocument: tryIt(() => window.top!.document.title),
      secret: tryIt(() => (window.top as unknown as { pageSecret: string }).pageSecret),
      parentDocument: tryIt(() => window.parent.document.body.innerHTML),
      retitle: tryIt(() => {
        window.top!.document.title = 'pwned';
        return 'done';
      }),
      cookies: tryIt(() => document.cookie),
      storage: tryIt(() => localStorage.length),
      // Posting to the page itself is allowed by the browser, and must achieve nothing.
      forged: tryIt(() => {
        window.top!.postMessage(forged, '*');
        return 'posted';
      }),
    };
  });
  expect(attempts.origin).toBe('null');
  expect(attempts.topDocument).toBe('blocked: SecurityError');
  expect(attempts.secret).toMatch(/^blocked|^reached: undefined$/);
  expect(attempts.parentDocument).toBe('blocked: SecurityError');
  expect(attempts.retitle).toBe('blocked: SecurityError');
  expect(attempts.cookies).toMatch(/^blocked: SecurityError$/);
  expect(attempts.storage).toMatch(/^blocked: SecurityError$/);

  // Checked from the page: nothing changed, nothing was asked or sent, and the sandbox frame is
  // another origin whose document the page cannot read either.
  const seen = await page.evaluate(() => {
    const panel = document.querySelector('toolgate-panel')!;
    const proxy = panel.shadowRoot!.querySelector<HTMLIFrameElement>('figure[data-app] iframe')!;
    return {
      title: document.title,
      secret: (window as unknown as { pageSecret: string }).pageSecret,
      proxyDocument: proxy.contentDocument === null ? 'unreadable' : 'readable',
      proxySandbox: proxy.getAttribute('sandbox'),
    };
  });
  expect(seen).toEqual({
    title: 'Toolgate apps',
    secret: 'kept in the page',
    proxyDocument: 'unreadable',
    proxySandbox: 'allow-scripts allow-same-origin allow-forms',
  });
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(basicProxy.toolCalls().length).toBe(calls);
});

test("a fetch the app's CSP does not allow is blocked before it leaves", async ({ page }) => {
  const { url, outcome, hits } = await againstCountingServer(async (address) => {
    await openPage(page, [{ url: basicProxy.url, id: 'basic' }]);
    await showBasicApp(page);
    return tryToReach(await appFrame(page), address);
  });
  expect(outcome.fetched).toBe('failed: TypeError');
  expect(outcome.image).toBe('failed');
  expect(outcome.violations).toEqual(
    expect.arrayContaining([`connect-src ${url}`, expect.stringMatching(/^img-src /)]),
  );
  // The server never heard of it.
  expect(hits).toBe(0);
});

test("an app asking for another server's tool is refused and recorded; the other server hears nothing", async ({
  page,
}) => {
  await openPage(page, [
    { url: basicProxy.url, id: 'basic' },
    { url: pdfProxy.url, id: 'pdf' },
  ]);
  await showBasicApp(page);
  const frame = await appFrame(page);
  const answer = await frame.evaluate(
    () =>
      new Promise<{ error?: { message: string }; result?: unknown }>((resolve) => {
        const id = 'cross-server-probe';
        addEventListener('message', (event) => {
          if ((event.data as { id?: unknown })?.id === id) resolve(event.data);
        });
        window.parent.postMessage(
          { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_pdfs', arguments: {} } },
          '*',
        );
      }),
  );
  expect(answer.result).toBeUndefined();
  expect(answer.error?.message).toContain('list_pdfs is a tool of another server');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(pdfProxy.toolCalls()).not.toContain('list_pdfs');
  expect(basicProxy.toolCalls()).not.toContain('list_pdfs');
  const refusals = await page.evaluate(async () => {
    const { auditLog } = await (
      window as unknown as {
        toolgate: {
          ready: Promise<{ auditLog: { query(q: object): Promise<{ entries: object[] }> } }>;
        };
      }
    ).toolgate.ready;
    return (await auditLog.query({ toolName: 'list_pdfs' })).entries as {
      serverId: string;
      caller: { kind: string; label?: string };
      outcome: string;
    }[];
  });
  expect(
    refusals.map((entry) => [entry.serverId, entry.caller.kind, entry.caller.label, entry.outcome]),
  ).toEqual([['basic', 'mcp-app', BASIC_APP, 'denied']]);
});

test('without a sandbox origin, the built-in proxy runs the app at an opaque origin', async ({ page }) => {
  await openPage(page, [{ url: basicProxy.url, id: 'basic' }], { sandbox: false });
  await showBasicApp(page);
  await expect(app(page).locator('#server-time')).toHaveText(/^\d{4}-\d\d-\d\dT/);
  const sandbox = await page.evaluate(() =>
    document
      .querySelector('toolgate-panel')!
      .shadowRoot!.querySelector<HTMLIFrameElement>('figure[data-app] iframe')!
      .getAttribute('sandbox'),
  );
  expect(sandbox).toBe('allow-scripts allow-forms');
});

test('open-link asks the person, opens only what they allow, and never asks for other schemes', async ({
  page,
  context,
}) => {
  await context.route('https://modelcontextprotocol.io/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>opened</title>' }),
  );
  const opened: string[] = [];
  await openPage(page, [{ url: basicProxy.url, id: 'basic' }]);
  await showBasicApp(page);

  await app(page).getByRole('button', { name: 'Open Link' }).press('Enter');
  const ask = page.getByRole('alertdialog', { name: 'The app wants to open a link' });
  await expect(ask).toContainText(`The app ${BASIC_APP} wants to open https://modelcontextprotocol.io/`);
  // Toolgate's own part of the screen (the app's document is the server's, not ours to judge).
  const axe = await new AxeBuilder({ page })
    .exclude({ fromShadowDom: ['toolgate-panel', 'figure[data-app] iframe'] })
    .analyze();
  expect(axe.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  // From here on, every new tab is one the app got opened.
  context.on('page', (other) => opened.push(other.url()));
  await ask.getByRole('button', { name: "Don't open" }).click();
  await expect(ask).toHaveCount(0);
  await expect
    .poll(() => appEvents(page, 'refused'))
    .toContainEqual(
      expect.objectContaining({ method: 'ui/open-link', reason: 'Link opening denied by user' }),
    );
  expect(opened).toEqual([]);

  const popup = context.waitForEvent('page');
  await app(page).getByRole('button', { name: 'Open Link' }).press('Enter');
  await ask.getByRole('button', { name: 'Open link' }).click();
  await (await popup).waitForLoadState();
  expect(opened).toEqual(['https://modelcontextprotocol.io/']);

  await app(page).locator('#link-url').fill('javascript:alert(document.domain)');
  await app(page).getByRole('button', { name: 'Open Link' }).press('Enter');
  await expect
    .poll(() => appEvents(page, 'refused'))
    .toContainEqual(
      expect.objectContaining({ method: 'ui/open-link', reason: expect.stringContaining('Invalid URL') }),
    );
  await expect(ask).toHaveCount(0);
  expect(opened).toEqual(['https://modelcontextprotocol.io/']);
});

test("the app's message and log reach the host app as events; Close app tears it down first", async ({
  page,
}) => {
  const consoleLines = consoleLinesOf(page);
  await openPage(page, [{ url: basicProxy.url, id: 'basic' }]);
  await showBasicApp(page);
  await app(page).getByRole('button', { name: 'Send Message' }).press('Enter');
  await app(page).getByRole('button', { name: 'Send Log' }).press('Enter');
  await expect.poll(async () => (await appEvents(page, 'message')).length).toBe(1);
  const [message] = await appEvents(page, 'message');
  expect(message).toMatchObject({
    app: { serverId: 'basic', resourceUri: BASIC_APP },
    message: { role: 'user', content: [{ type: 'text', text: 'This is message text.' }] },
  });
  await expect
    .poll(() => appEvents(page, 'log'))
    .toContainEqual(expect.objectContaining({ data: 'This is log text.' }));

  // Close, from the keyboard: the app hears its teardown, then it and its tab are gone.
  const figure = basicAppFigure(page);
  await figure.getByRole('button', { name: 'Close app' }).focus();
  await page.keyboard.press('Enter');
  await expect(figure).toHaveCount(0);
  expect(consoleLines).toContain('App is being torn down');
  await expect(page.getByRole('tab', { name: /^Apps/ })).toHaveCount(0);
  await expect(page.locator('toolgate-panel').locator('iframe[title^="MCP App"]')).toHaveCount(0);
  await expect.poll(() => appEvents(page, 'closed')).toHaveLength(1);
});

test("an app's message stays the app's: the model's answer runs as the app and is asked, never under the host's approvals; a burst is cut off", async ({
  page,
}) => {
  const consoleLines = consoleLinesOf(page);
  await openPage(page, [{ url: basicProxy.url, id: 'basic' }]);
  // The proxy is shared by the serial tests: only this test's calls count.
  const earlier = basicProxy.toolCalls().length;
  const toolCalls = () => basicProxy.toolCalls().slice(earlier);
  const host = () => page.getByRole('dialog');
  const runGetTimeAs = (fromMessage: boolean) =>
    page.evaluate((asApp) => {
      const w = window as unknown as {
        toolgateHost: { run(call: object, options?: object): Promise<{ error?: { message: string } }> };
        appEvents: { type: string; caller?: object }[];
      };
      // The README's recipe: the model's calls that answer an app's message run as the message's caller.
      const caller = asApp ? w.appEvents.find((event) => event.type === 'message')?.caller : undefined;
      return w.toolgateHost
        .run({ serverId: 'basic', toolName: 'get-time', arguments: {} }, caller ? { caller } : {})
        .then((outcome) => (outcome.error ? `error: ${outcome.error.message}` : 'ran'));
    }, fromMessage);

  // The host (the assistant) is allowed get-time for good, and the server is trusted.
  const first = runGetTimeAs(false);
  await host().getByRole('button', { name: 'Always allow this tool' }).click();
  expect(await first).toBe('ran');
  await page.evaluate(() =>
    (
      window as unknown as { toolgate: { setTrust(id: string, trust: string): Promise<void> } }
    ).toolgate.setTrust('basic', 'trusted'),
  );

  // The app speaks; the model answers with a tool call, run as the app: asked, naming the app.
  await showBasicAppTab(page);
  await app(page).getByRole('button', { name: 'Send Message' }).press('Enter');
  await expect.poll(async () => (await appEvents(page, 'message')).length).toBe(1);
  expect((await appEvents(page, 'message'))[0]?.caller).toEqual({
    kind: 'mcp-app',
    label: BASIC_APP,
    server: 'basic',
  });
  const followUp = runGetTimeAs(true);
  await expect(host()).toContainText(`Asked by the MCP App ${BASIC_APP}`);
  await host()
    .getByLabel(/Reason if you deny/)
    .fill('the app asked, not me');
  await host().getByRole('button', { name: 'Deny' }).click();
  expect(await followUp).toContain('the app asked, not me');
  expect(toolCalls()).toEqual(['get-time']);

  // A burst: five messages at once reach the host, the rest are refused to the app, saying the limit.
  const button = app(page).getByRole('button', { name: 'Send Message' });
  for (let press = 0; press < 8; press++) await button.press('Enter');
  await expect.poll(() => consoleLines.filter((line) => line.includes('Too many messages')).length).toBe(4);
  expect(consoleLines.find((line) => line.includes('Too many messages'))).toContain(
    'at most 5 at once, then one every 12 s',
  );
  expect(await appEvents(page, 'message')).toHaveLength(5);
  expect(await appEvents(page, 'refused')).toEqual([
    expect.objectContaining({ method: 'ui/message', reason: expect.stringContaining('Too many messages') }),
  ]);

  // The same call as the host's own runs unasked: it was the caller, not the call, that was asked.
  expect(await runGetTimeAs(false)).toBe('ran');
  expect(toolCalls()).toEqual(['get-time', 'get-time']);
});

async function appEvents(page: Page, type: string): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    (wanted) =>
      ((window as unknown as { appEvents: { type: string }[] }).appEvents ?? []).filter(
        (event) => event.type === wanted,
      ) as Record<string, unknown>[],
    type,
  );
}

test("an app calls its app-only tool through the gate: asked under the app's name, then sent", async ({
  page,
}) => {
  const PDF_APP = 'ui://pdf-viewer/mcp-app.html';
  await openPage(page, [{ url: pdfProxy.url, id: 'pdf' }]);
  const run = page.evaluate(
    (url) =>
      (window as unknown as { toolgateHost: { run(call: object): Promise<unknown> } }).toolgateHost.run({
        serverId: 'pdf',
        toolName: 'display_pdf',
        arguments: { url },
      }),
    join(pdfDir, 'hello.pdf'),
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  await run;
  await page.getByRole('tab', { name: /^Apps/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Asked by the MCP App ${PDF_APP}`, { timeout: 20_000 });
  await expect(dialog).toContainText('Allow read_pdf_bytes on PDF Server?');
  await expect(dialog).toContainText('Its server titles it “Read PDF Bytes”.');
  expect(pdfProxy.toolCalls()).not.toContain('read_pdf_bytes');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect.poll(() => pdfProxy.toolCalls()).toContain('read_pdf_bytes');
  await page.screenshot({ path: 'test-results/screenshots/apps-pdf.png', fullPage: true });
});

test('an app asks for full screen: the whole page, its calls still asked about above it, focus kept in it, back inline by keyboard, the app told each time', async ({
  page,
}) => {
  await openPage(page, [{ url: basicProxy.url, id: 'basic' }]);
  await showBasicApp(page);
  const calls = basicProxy.toolCalls().length;
  const frame = await appFrame(page);
  // What the host says to the View, heard in the View's own document.
  await frame.evaluate(() => {
    const heard: { id?: unknown; method?: string; params?: unknown; result?: unknown }[] = [];
    Object.assign(window, { heard });
    addEventListener('message', (event) => heard.push(event.data));
  });
  const heard = () =>
    frame.evaluate(
      () =>
        (
          window as unknown as {
            heard: { id?: unknown; method?: string; params?: unknown; result?: unknown }[];
          }
        ).heard,
    );
  const contextChanges = async () =>
    (await heard())
      .filter((message) => message.method === 'ui/notifications/host-context-changed')
      .map(
        (message) => message.params as { displayMode: string; containerDimensions: Record<string, number> },
      );
  // The basic example has no full-screen button (server-pdf's needs pdf.js from the network): the
  // View asks as any View does.
  const ask = (id: string, mode: string) =>
    frame.evaluate(
      ([id, mode]) =>
        parent.postMessage({ jsonrpc: '2.0', id, method: 'ui/request-display-mode', params: { mode } }, '*'),
      [id, mode],
    );
  await ask('full', 'fullscreen');
  const figure = basicAppFigure(page);
  await expect(figure).toHaveAttribute('data-display-mode', 'fullscreen');
  await expect
    .poll(async () => (await heard()).find((message) => message.id === 'full')?.result)
    .toEqual({ mode: 'fullscreen' });
  const viewport = page.viewportSize()!;
  expect(await figure.boundingBox()).toEqual({ x: 0, y: 0, width: viewport.width, height: viewport.height });
  expect((await figure.locator('iframe').boundingBox())!.height).toBeGreaterThan(viewport.height * 0.6);
  await page.screenshot({ path: 'test-results/screenshots/apps-fullscreen.png' });
  // Toolgate's own part of the screen (the app's document is the server's, not ours to judge).
  const axe = await new AxeBuilder({ page })
    .exclude({ fromShadowDom: ['toolgate-panel', 'figure[data-app] iframe'] })
    .analyze();
  expect(axe.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  // Picture-in-picture is not offered: the answer is the mode in force.
  await ask('pip', 'pip');
  await expect
    .poll(async () => (await heard()).find((message) => message.id === 'pip')?.result)
    .toEqual({ mode: 'fullscreen' });

  // Its button's call: the approval dialog comes above the full-screen app, and is answered there.
  await app(page).getByRole('button', { name: 'Get Server Time' }).press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Asked by the MCP App ${BASIC_APP}`);
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect.poll(() => basicProxy.toolCalls().length).toBe(calls + 1);
  await expect(figure).toHaveAttribute('data-display-mode', 'fullscreen');

  // Keyboard focus does not wander to the covered panel behind it; Enter on "Exit full screen" ends it.
  const exit = figure.getByRole('button', { name: 'Exit full screen' });
  await exit.focus();
  await page.keyboard.press('Shift+Tab');
  await expect(exit).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(figure).toHaveAttribute('data-display-mode', 'inline');
  await expect(figure).toBeFocused();

  // Again, and Escape from Toolgate's part of it does the same.
  await ask('again', 'fullscreen');
  await expect(figure).toHaveAttribute('data-display-mode', 'fullscreen');
  await exit.focus();
  await page.keyboard.press('Escape');
  await expect(figure).toHaveAttribute('data-display-mode', 'inline');

  // The View heard every change, with the size it has in each mode.
  await expect
    .poll(async () => (await contextChanges()).map((change) => change.displayMode))
    .toEqual(['fullscreen', 'inline', 'fullscreen', 'inline']);
  const [full, inline] = await contextChanges();
  expect(full!.containerDimensions.width).toBeGreaterThan(viewport.width * 0.8);
  expect(full!.containerDimensions.height).toBeGreaterThan(viewport.height * 0.6);
  expect(inline!.containerDimensions).toEqual({ maxHeight: 800 });
});

/** A one-page PDF with one line of text, with a correct cross-reference table. */
function onePagePdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 20 40 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

test('an app that navigates away is refused before the request leaves, and closed; nothing reaches the server', async ({
  page,
  context,
}) => {
  let served = 0;
  await context.route('https://elsewhere.test/**', (route) => {
    served++;
    return route.fulfill({
      contentType: 'text/html',
      // Opts in to any policy, so the View's `csp` attribute would let it load: only the proxy's own
      // frame-src keeps the request from leaving (e2e/app-reach.spec.ts watches a real endpoint).
      headers: { 'allow-csp-from': '*' },
      body: `<!doctype html><script>parent.postMessage({ jsonrpc: '2.0', id: 'escaped', method: 'tools/call', params: { name: 'get-time', arguments: {} } }, '*')</script>`,
    });
  });
  await openPage(page, [{ url: basicProxy.url, id: 'basic' }]);
  await showBasicApp(page);
  const calls = basicProxy.toolCalls().length;
  const frame = await appFrame(page);
  await frame.evaluate(() => {
    location.href = 'https://elsewhere.test/';
  });
  const figure = basicAppFigure(page);
  await expect(figure).toHaveAttribute('data-app-state', 'closed');
  await expect(figure.locator('iframe')).toHaveCount(0);
  await expect.poll(() => appEvents(page, 'closed')).toHaveLength(1);
  // Whatever it asked went down with the app: no question waits, nothing reached the server.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(basicProxy.toolCalls().length).toBe(calls);
  expect(served).toBe(0);
});

/** The View frame (inside the sandbox proxy) of one open app, by its id. */
async function viewFrameOf(page: Page, appId: string): Promise<Frame> {
  const proxy = await page.locator(`figure[data-app-id="${appId}"] iframe`).elementHandle();
  const frame = (await proxy?.contentFrame())?.childFrames()[0];
  if (!frame) throw new Error(`no View frame for ${appId}`);
  return frame;
}

test('apps stay alive across tab switches and newer apps, and Activity links to each', async ({ page }) => {
  const consoleLines = consoleLinesOf(page);
  await openPage(page, [{ url: basicProxy.url, id: 'basic' }]);
  await showBasicApp(page);
  const first = basicAppFigure(page);
  const firstId = (await first.getAttribute('data-app-id')) ?? '';
  const time = await app(page).locator('#server-time').textContent();
  expect(time).toMatch(/^\d{4}-\d\d-\d\dT/);
  // A mark in the app's own document: a reloaded or restarted app would not have it.
  await expect.poll(async () => (await viewFrameOf(page, firstId)).url()).not.toBe('about:blank');
  await (await viewFrameOf(page, firstId)).evaluate(() => Object.assign(window, { toolgateMark: 'kept' }));

  // A second call opens a second app, above the first; the first frame is not touched.
  await (await runGetTime(page)).run;
  const figures = basicAppFigure(page);
  await expect(figures).toHaveCount(2);
  await expect(figures.first()).not.toHaveAttribute('data-app-id', firstId);
  await expect(page.getByRole('tab', { name: /^Apps/ })).toHaveText('Apps (2)');

  for (const tab of ['Tools', 'Servers', 'Audit log'])
    await page.getByRole('tab', { name: tab, exact: true }).click();
  // Hidden, not gone: the frames are still in the panel while another tab is shown.
  const figure = page.locator(`figure[data-app-id="${firstId}"]`);
  await expect(figure).toBeHidden();
  await expect(figure).toHaveAttribute('data-app-state', 'running');

  // Activity's row for the first call links to its app: the Apps tab, that app focused.
  await page.getByRole('tab', { name: /Activity/ }).click();
  await page.locator('.tg-finished-call').last().getByRole('button', { name: 'Show app' }).click();
  await expect(page.getByRole('tab', { name: /^Apps/ })).toHaveAttribute('aria-selected', 'true');
  await expect(figure).toBeFocused();
  expect(
    await (await viewFrameOf(page, firstId)).evaluate(
      () => (window as { toolgateMark?: string }).toolgateMark,
    ),
  ).toBe('kept');
  await expect(
    page
      .frameLocator(`figure[data-app-id="${firstId}"] iframe`)
      .frameLocator('iframe')
      .locator('#server-time'),
  ).toHaveText(time ?? '');
  expect(consoleLines).not.toContain('App is being torn down');
  // Each app got its input and result once, not again on each switch.
  await expect
    .poll(() => consoleLines.filter((line) => line.startsWith('Received tool call result:')).length)
    .toBe(2);
  expect(basicProxy.toolCalls()).toEqual(expect.arrayContaining(['get-time']));
});

test('an app opens when its call is sent: it gets the input at once, then the result when it arrives', async ({
  page,
}) => {
  const consoleLines = consoleLinesOf(page);
  await openPage(page, [{ url: holdingProxy.url, id: 'basic' }]);
  const release = holdCalls();
  try {
    const { run } = await runGetTime(page);
    // The call is held at the server's door, and its app is already open, showing the call running.
    await expect.poll(() => holdingProxy.toolCalls().length).toBe(0);
    await showBasicAppTab(page);
    const figure = basicAppFigure(page);
    await expect(figure.locator('[data-app-call="running"]')).toContainText('get-time is running');
    await expect
      .poll(() => consoleLines.some((line) => line.startsWith('Received tool call input:')))
      .toBe(true);
    expect(consoleLines.some((line) => line.startsWith('Received tool call result:'))).toBe(false);
    await page.getByRole('tab', { name: /Activity/ }).click();
    await expect(page.locator('.tg-running-call').getByRole('button', { name: 'Show app' })).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/apps-running.png', fullPage: true });

    release();
    await run;
    await page.getByRole('tab', { name: /^Apps/ }).click();
    await expect(app(page).locator('#server-time')).toHaveText(/^\d{4}-\d\d-\d\dT/);
    await expect(figure.locator('[data-app-call]')).toHaveCount(0);
    const input = consoleLines.findIndex((line) => line.startsWith('Received tool call input:'));
    const result = consoleLines.findIndex((line) => line.startsWith('Received tool call result:'));
    expect(input).toBeGreaterThanOrEqual(0);
    expect(result).toBeGreaterThan(input);
  } finally {
    release();
  }
});

test('a running call cancelled from Activity: its app is told, and says so', async ({ page }) => {
  const consoleLines = consoleLinesOf(page);
  await openPage(page, [{ url: holdingProxy.url, id: 'basic' }]);
  const release = holdCalls();
  try {
    const { run } = await runGetTime(page);
    await showBasicAppTab(page);
    const figure = basicAppFigure(page);
    await page.getByRole('tab', { name: /Activity/ }).click();
    await page.locator('.tg-running-call').getByRole('button', { name: 'Cancel' }).click();
    await run;
    await page.getByRole('tab', { name: /^Apps/ }).click();
    await expect(figure.locator('[data-app-call="cancelled"]')).toContainText('ended without a result');
    await expect.poll(() => consoleLines.some((line) => line.startsWith('Tool call cancelled:'))).toBe(true);
    expect(consoleLines.some((line) => line.startsWith('Received tool call result:'))).toBe(false);
    // The app is still open (the person closes it): its frame is there, and it is told nothing more.
    await expect(figure).toHaveAttribute('data-app-state', 'running');
  } finally {
    release();
  }
});

/**
 * Toolgate's client in headless Chromium against real MCP servers on 127.0.0.1. The page lives on
 * another origin (https://app.test, served by page.route), so every exchange passes the browser's
 * real CORS checks: preflights, exposed Mcp-Session-Id, streamed SSE bodies.
 *
 * Why https and a permission: Chromium's Local Network Access lets only secure contexts reach
 * loopback servers, and only with the user's permission (a prompt for a real person). A plain
 * http://app.test page is refused before CORS is even consulted.
 */
import { expect, type Page, test } from '@playwright/test';
import { type RecordingProxy, startRecordingProxy } from '../test/support/recording-proxy.js';
import type { CallResult, Outcome, StartOptions } from './fixtures/peers/page.js';
import { bundle } from './support/bundle.js';
import { type Peer, type PeerKind, startPeer } from './support/peers.js';

const APP_ORIGIN = 'https://app.test';
const PAGE_HTML =
  '<!doctype html><meta charset="utf-8"><title>Toolgate peers</title><script type="module" src="/page.js"></script>';

interface BrowserCase {
  kind: PeerKind;
  era: 'modern' | 'legacy';
  echo: { name: string; args: Record<string, unknown>; text: string };
  progress: { name: string; args: Record<string, unknown> };
  long: { name: string; args: Record<string, unknown> };
  /** The server streams progress mid-call (JSON-response servers cannot). */
  streamsProgress: boolean;
}

const OURS = {
  echo: { name: 'echo', args: { message: 'hi from Chromium' }, text: 'Echo: hi from Chromium' },
  progress: { name: 'slow', args: { steps: 3, delayMs: 50 } },
  long: { name: 'sleep', args: { ms: 60_000 } },
};
const EVERYTHING = {
  era: 'legacy' as const,
  streamsProgress: true,
  echo: { name: 'echo', args: { message: 'hi from Chromium' }, text: 'Echo: hi from Chromium' },
  progress: { name: 'trigger-long-running-operation', args: { duration: 0.6, steps: 3 } },
  long: { name: 'trigger-long-running-operation', args: { duration: 30, steps: 1 } },
};

const CASES: BrowserCase[] = [
  { ...OURS, kind: 'sdk1-stateful-sse', era: 'legacy', streamsProgress: true },
  { ...OURS, kind: 'sdk1-stateless-json', era: 'legacy', streamsProgress: false },
  { ...OURS, kind: 'sdk1-legacy-sse', era: 'legacy', streamsProgress: true },
  { ...OURS, kind: 'modern', era: 'modern', streamsProgress: true },
  { ...EVERYTHING, kind: 'everything-streamable' },
  { ...EVERYTHING, kind: 'everything-sse' },
];

async function openApp(page: Page): Promise<void> {
  const script = await bundle('e2e/fixtures/peers/page.ts');
  await page.route(`${APP_ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/page.js')
      return route.fulfill({ status: 200, contentType: 'text/javascript', body: script });
    return route.fulfill({ status: 200, contentType: 'text/html', body: PAGE_HTML });
  });
  await page.goto(`${APP_ORIGIN}/`);
  await page.waitForFunction(() => 'api' in window);
}

function call(
  page: Page,
  clientId: string,
  tool: { name: string; args: Record<string, unknown> },
  options: StartOptions = {},
): Promise<Outcome<CallResult>> {
  return page.evaluate(
    async ([id, name, args, opts]) => window.api.finish(window.api.start(id, name, args as never, opts)),
    [clientId, tool.name, tool.args, options] as const,
  );
}

test.describe.configure({ mode: 'serial' });
test.use({ permissions: ['local-network-access'] });

for (const peerCase of CASES) {
  test.describe(peerCase.kind, () => {
    let peer: Peer;
    /** For peers that keep no record (server-everything): what reached their door. */
    let proxy: RecordingProxy | undefined;
    test.beforeAll(async () => {
      peer = await startPeer(peerCase.kind);
      if (!peer.recording) proxy = await startRecordingProxy(peer.url);
    });
    test.afterAll(async () => {
      await proxy?.close();
      await peer?.stop();
    });

    test('connects, lists, calls, streams progress, cancels and times out from another origin', async ({
      page,
    }) => {
      await openApp(page);
      const connected = await page.evaluate((url) => window.api.connect(url), proxy?.url ?? peer.url);
      if (!connected.ok) throw new Error(`connect failed: ${connected.error.message}`);
      const { clientId, era, tools } = connected.value;
      expect(era).toBe(peerCase.era);
      expect(tools).toEqual(expect.arrayContaining([peerCase.echo.name, peerCase.progress.name]));

      await test.step('call with arguments', async () => {
        const outcome = await call(page, clientId, peerCase.echo);
        expect(outcome).toMatchObject({ ok: true, value: { text: peerCase.echo.text, isError: false } });
        if (peer.recording)
          expect((await peer.events()).calls).toContainEqual({ tool: 'echo', arguments: peerCase.echo.args });
      });

      await test.step('progress', async () => {
        const outcome = await call(page, clientId, peerCase.progress, { withProgress: true });
        expect(outcome.ok).toBe(true);
        if (peerCase.streamsProgress) expect(outcome.progress.map((p) => p.progress)).toEqual([1, 2, 3]);
      });

      if (peerCase.era === 'modern')
        await test.step('x-mcp-header argument mirrored through CORS', async () => {
          // Mcp-Param-Region is a custom header: the preflight must allow it, and the server rejects
          // the call (-32020) unless it matches the body, so success proves both.
          const outcome = await call(page, clientId, {
            name: 'region',
            args: { region: 'Zürich', query: 'weather' },
          });
          expect(outcome).toMatchObject({ ok: true, value: { text: 'weather in Zürich' } });
          const sent = (await peer.events()).messages.find((m) => m.tool === 'region');
          expect(sent?.headers['mcp-param-region']).toBe(
            `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
          );
        });

      await test.step('cancel', async () => {
        const seenBefore = proxy?.messages().length ?? 0;
        const callsOfLong = () =>
          proxy!
            .messages()
            .slice(seenBefore)
            .filter((m) => m.method === 'tools/call' && m.params?.name === peerCase.long.name);
        const callId = await page.evaluate(([id, name, args]) => window.api.start(id, name, args as never), [
          clientId,
          peerCase.long.name,
          peerCase.long.args,
        ] as const);
        if (peer.recording)
          await expect
            .poll(async () => (await peer.events()).calls.some((c) => c.tool === peerCase.long.name))
            .toBe(true);
        else await expect.poll(() => callsOfLong().length).toBe(1);
        await page.evaluate((id) => window.api.abort(id, 'cancelled by the test'), callId);
        const outcome = await page.evaluate((id) => window.api.finish(id), callId);
        expect(outcome).toMatchObject({
          ok: false,
          error: { name: 'RequestCancelledError', kind: 'cancelled' },
        });
        if (peer.recording)
          await expect
            .poll(async () => (await peer.events()).cancellations.some((c) => c.via === 'abort'))
            .toBe(true);
        else {
          // The server was told: a cancellation naming exactly this call's request id reached it.
          const id = callsOfLong()[0]!.id;
          await expect
            .poll(() =>
              proxy!
                .messages()
                .some((m) => m.method === 'notifications/cancelled' && m.params?.requestId === id),
            )
            .toBe(true);
        }
      });

      await test.step('timeout', async () => {
        const outcome = await call(page, clientId, peerCase.long, { timeoutMs: 400 });
        expect(outcome).toMatchObject({ ok: false, error: { name: 'RequestTimeoutError', kind: 'timeout' } });
      });

      await test.step('still usable, then closed', async () => {
        expect((await call(page, clientId, peerCase.echo)).ok).toBe(true);
        await page.evaluate((id) => window.api.close(id), clientId);
      });
    });
  });
}

test.describe('a server without CORS headers', () => {
  let peer: Peer;
  test.beforeAll(async () => {
    peer = await startPeer('sdk1-stateful-sse', { cors: false });
  });
  test.afterAll(async () => {
    await peer?.stop();
  });

  test('fails with a message naming the URL and what the server must allow', async ({ page }) => {
    const consoleLines: string[] = [];
    page.on('console', (line) => consoleLines.push(line.text()));
    await openApp(page);
    const outcome = await page.evaluate((url) => window.api.connect(url), peer.url);
    // The browser itself says why (and it is CORS, not the local-network permission).
    expect(consoleLines.join('\n')).toContain("No 'Access-Control-Allow-Origin' header");
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({ name: 'TransportError', failure: 'cors-or-network' });
    const { message } = outcome.error;
    expect(message).toContain(peer.url);
    expect(message).toContain(`Access-Control-Allow-Origin: ${APP_ORIGIN}`);
    expect(message).toMatch(/Access-Control-Allow-Headers: [^.]*mcp-protocol-version/);
    expect(message).toContain('Access-Control-Expose-Headers: mcp-session-id');
  });
});

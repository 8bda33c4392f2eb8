/**
 * Misbehaving servers, met through the widget in Chromium (e2e/peers/hostile.mjs, one misbehaviour
 * per endpoint, in the legacy and the 2026-07-28 era): each bad answer fails its call at once with a
 * message the person can read in Activity, the server saw exactly one call, the audit log records
 * the failure and still verifies. "At once" is shown without timing: the calls run with a 10-minute
 * idle timeout, and none of them ends as a timeout.
 */
import { expect, type Page, test } from '@playwright/test';
import { serveFixture } from './support/fixture-page.js';
import { type Peer, startPeer } from './support/peers.js';

const ORIGIN = 'https://widget.test';
test.use({ permissions: ['local-network-access'] });

let peer: Peer;
test.beforeAll(async () => {
  peer = await startPeer('hostile');
});
test.afterAll(async () => {
  await peer?.stop();
});

type Era = 'mcp' | 'modern';
const endpoint = (era: Era, name: string) => peer.url.replace(/\/mcp\/plain$/, `/${era}/${name}`);

async function openPanel(page: Page, url: string): Promise<void> {
  await serveFixture(page, ORIGIN, 'e2e/fixtures/widget/page.ts', 'Toolgate widget');
  await page.goto(`${ORIGIN}/?server=${encodeURIComponent(url)}&id=bad`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await expect(page.locator('[data-server="bad"]')).toContainText('connected', { timeout: 20_000 });
}

type Api = {
  toolgate: {
    call(request: object): Promise<unknown>;
    ready: Promise<{
      auditLog: {
        query(q: object): Promise<{ entries: { outcome: string; toolName: string }[] }>;
        verify(): Promise<{ ok: boolean }>;
      };
    }>;
  };
};

/** The person calls echo from the page and allows it; resolves with the error's kind and message. */
async function callAndAllow(page: Page): Promise<{ kind: string; message: string }> {
  const outcome = page.evaluate(() =>
    (window as unknown as Api).toolgate
      .call({ serverId: 'bad', toolName: 'echo', arguments: { message: 'hi' } })
      .then(
        () => ({ kind: 'none', message: 'succeeded' }),
        (error: Error & { kind?: string }) => ({ kind: error.kind ?? error.name, message: error.message }),
      ),
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  return outcome;
}

const callsAt = async (era: Era, name: string) =>
  (await peer.events()).messages.filter((m) => m.method === 'tools/call' && m.path === `/${era}/${name}`)
    .length;

async function auditOutcome(page: Page): Promise<{ outcome: string | undefined; verified: boolean }> {
  return page.evaluate(async () => {
    const { auditLog } = await (window as unknown as Api).toolgate.ready;
    const { entries } = await auditLog.query({ limit: 1 });
    return { outcome: entries[0]?.outcome, verified: (await auditLog.verify()).ok };
  });
}

const CASES: { name: string; shows: RegExp; outcome: string }[] = [
  { name: 'both-result-error', shows: /both "result" and "error"/, outcome: 'protocol-error' },
  { name: 'null-result', shows: /"result" must be an object, not null/, outcome: 'protocol-error' },
  { name: 'content-missing', shows: /no "content" array/, outcome: 'protocol-error' },
  {
    name: 'huge-body',
    shows: /response too large \((over )?\d+ MB, limit 16 MB\)/,
    outcome: 'protocol-error',
  },
];

for (const era of ['mcp', 'modern'] as const)
  for (const { name, shows, outcome } of CASES)
    test(`${era === 'mcp' ? 'legacy' : '2026-07-28'}: ${name} fails its call at once, readably, on record`, async ({
      page,
    }) => {
      await openPanel(page, endpoint(era, name));
      const before = await callsAt(era, name);
      const failure = await callAndAllow(page);
      expect(failure.kind).not.toBe('timeout');
      expect(failure.message).toMatch(shows);
      // What the library throws to the host's code names the server and the tool, as the panel does.
      expect(failure.message).toContain("'bad'");
      expect(failure.message).toContain("'echo'");
      // The person sees it in Activity, naming the tool.
      await page.getByRole('tab', { name: /Activity/ }).click();
      const finished = page.locator('.tg-finished-call').first();
      await expect(finished).toContainText('echo');
      await expect(finished).toContainText(shows);
      expect(await callsAt(era, name)).toBe(before + 1);
      expect(await auditOutcome(page)).toEqual({ outcome, verified: true });
    });

test('a server that loses every new session is shown as failed, and the next call is refused unsent', async ({
  page,
}) => {
  await openPanel(page, endpoint('mcp', 'forget-after-call'));
  const first = await callAndAllow(page);
  expect(first.kind).not.toBe('timeout');
  const sent = await callsAt('mcp', 'forget-after-call');
  // Next to the server, where Retry is: not only in that call's result.
  await page.getByRole('tab', { name: 'Servers' }).click();
  await expect(page.locator('[data-server="bad"]')).toContainText('failed');
  const second = await page.evaluate(() =>
    (window as unknown as Api).toolgate
      .call({ serverId: 'bad', toolName: 'echo', arguments: { message: 'again' } })
      .then(
        () => 'sent',
        (error: Error) => error.message,
      ),
  );
  expect(second).toContain('cannot take calls, so nothing was sent');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await callsAt('mcp', 'forget-after-call')).toBe(sent);
  expect((await auditOutcome(page)).verified).toBe(true);
});

test('legacy: a server whose every stream says `retry: 0` and closes at once: reconnects are bounded and the call fails readably', async ({
  page,
}) => {
  const name = 'retry-zero-everywhere';
  await openPanel(page, endpoint('mcp', name));
  const failure = await callAndAllow(page);
  expect(failure.kind).toBe('lost');
  // Which server, which tool, why, and what the person can do.
  expect(failure.message).toContain("The answer of server 'bad' to tools/call for tool 'echo' was lost");
  expect(failure.message).toContain('closed it at once without sending anything');
  expect(failure.message).toContain('check before you call the tool again');
  await page.getByRole('tab', { name: /Activity/ }).click();
  await expect(page.locator('.tg-finished-call').first()).toContainText('closed it at once');
  // Counted by the server: the GETs that resumed the call's stream (event ids call-N), and those of
  // the server-to-client stream (opened without Last-Event-ID, resumed with server-N).
  const gets = (await peer.events()).streams.filter((s) => s.path === `/mcp/${name}`);
  const resumedCall = gets.filter((s) => s.headers['last-event-id']?.startsWith('call-'));
  const serverStream = gets.filter((s) => !s.headers['last-event-id']?.startsWith('call-'));
  expect(resumedCall.length).toBeGreaterThan(0);
  expect(resumedCall.length).toBeLessThanOrEqual(3);
  expect(serverStream.length).toBeGreaterThan(0);
  expect(serverStream.length).toBeLessThanOrEqual(4);
  expect(await callsAt('mcp', name)).toBe(1);
  expect(await auditOutcome(page)).toEqual({ outcome: 'protocol-error', verified: true });
});

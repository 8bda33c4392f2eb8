/**
 * The views people expect next to the MCP Inspector (issue 19, item 3), in Chromium against real
 * servers: our SDK 1.x server (which records what reached it) and server-everything (resources,
 * resource links, embedded resources, logging). Activity shows who called, the arguments redacted
 * as the log redacts them, start, duration, progress history and outcome; resource links and
 * embedded resources open through resources/read; Inspect shows a server's log messages (with
 * logging/setLevel) and its last JSON-RPC messages, redacted; each server can be pinged, with its
 * latency. Keyboard and axe (light and dark) on each new screen.
 */
import { expect, type Page, test } from '@playwright/test';
import { type Peer, startPeer } from './support/peers.js';
import { axe, openTab, openWidget, shot } from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });
test.describe.configure({ mode: 'serial' });

let sdk: Peer;
let everything: Peer;
test.beforeAll(async () => {
  [sdk, everything] = await Promise.all([startPeer('sdk1-stateful-sse'), startPeer('everything-streamable')]);
});
test.afterAll(async () => {
  await Promise.all([sdk?.stop(), everything?.stop()]);
});

type Caller = { kind: string; label?: string };
/** Calls through the host API and answers the approval dialog; resolves to the call's outcome. */
async function callAndAnswer(
  page: Page,
  server: string,
  tool: string,
  args: Record<string, unknown>,
  answer: 'Allow once' | 'Deny' = 'Allow once',
  caller: Caller = { kind: 'host', label: 'e2e' },
): Promise<string> {
  const outcome = page.evaluate(
    ([s, t, a, c]) =>
      (window as unknown as { toolgate: { call(...x: unknown[]): Promise<unknown> } }).toolgate
        .call({ serverId: s, toolName: t, arguments: a, caller: c })
        .then(
          () => 'ok',
          (error: Error) => error.name,
        ),
    [server, tool, args, caller] as const,
  );
  await page.getByRole('dialog').getByRole('button', { name: answer }).click();
  return outcome;
}

const SECRET_URL = 'https://alice:hunter2@example.com/files?api_key=abc123&page=2';

test('Activity: caller, redacted arguments, start, duration, progress history and outcome', async ({
  page,
}) => {
  await openWidget(page, [{ url: sdk.url, id: 'sdk' }]);
  expect(await callAndAnswer(page, 'sdk', 'slow', { steps: 3, delayMs: 150 })).toBe('ok');
  expect(await callAndAnswer(page, 'sdk', 'echo', { message: SECRET_URL })).toBe('ok');
  expect(await callAndAnswer(page, 'sdk', 'add', { a: 1, b: 2 }, 'Deny')).toBe('DeniedError');
  // The secret reached the server (the person allowed it); only what the panel shows is redacted.
  expect((await sdk.events()).calls).toContainEqual({ tool: 'echo', arguments: { message: SECRET_URL } });

  await openTab(page, /Activity/);
  const finished = page.locator('.tg-finished-call');
  const denied = finished.nth(0);
  const echo = finished.nth(1);
  const slow = finished.nth(2);
  await expect(slow.locator('h3')).toContainText('slow on toolgate-peer-sdk1');
  await expect(slow.locator('.tg-badge')).toHaveText('success');
  await expect(slow.locator('.tg-facts')).toContainText('Asked bythe app (e2e)');
  await expect(slow.locator('.tg-facts time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  await expect(slow.locator('.tg-facts')).toContainText(
    /Duration\d+(\.\d)? (ms|s) \(\d+(\.\d)? (ms|s) at the server\)/,
  );
  await expect(slow.locator('.tg-arguments')).toContainText('steps');
  await slow.getByText('Progress: 3 reports').click();
  await expect(slow.locator('.tg-progress-history li')).toHaveText([
    /\+\d.* 1 of 3: step 1 of 3/,
    /\+\d.* 2 of 3: step 2 of 3/,
    /\+\d.* 3 of 3: step 3 of 3/,
  ]);

  await expect(echo.locator('.tg-arguments > summary')).toHaveText('Arguments · 1 redacted');
  await expect(echo.locator('.tg-arguments')).toContainText(
    'https://***@example.com/files?api_key=***&page=2',
  );
  await expect(echo.locator('.tg-arguments')).not.toContainText('hunter2');
  await expect(echo.locator('.tg-arguments')).not.toContainText('abc123');

  await expect(denied.locator('.tg-badge')).toHaveText('denied');
  await expect(denied.locator('.tg-facts')).toContainText('(never sent)');
  await axe(page, 'activity');
  await shot(page, 'views-activity');
  await page.emulateMedia({ colorScheme: 'dark' });
  await axe(page, 'activity (dark)');
  await shot(page, 'views-activity-dark');
});

test('resource links and embedded resources open through resources/read: text inert, other types a download', async ({
  page,
}) => {
  await openWidget(page, [{ url: everything.url, id: 'everything' }]);
  expect(await callAndAnswer(page, 'everything', 'get-resource-links', { count: 2 })).toBe('ok');
  expect(
    await callAndAnswer(page, 'everything', 'get-resource-reference', {
      resourceType: 'Text',
      resourceId: 3,
    }),
  ).toBe('ok');
  expect(
    await callAndAnswer(page, 'everything', 'gzip-file-as-resource', {
      name: 'note.txt.gz',
      data: 'data:text/plain;base64,PGI+aGk8L2I+',
      outputType: 'resourceLink',
    }),
  ).toBe('ok');
  await openTab(page, /Activity/);
  const links = page.locator('.tg-finished-call', { hasText: 'get-resource-links' });

  await links.getByRole('button', { name: 'Open: Text Resource 2' }).click();
  const text = links.getByRole('region', { name: 'Contents of demo://resource/dynamic/text/2' });
  await expect(text.locator('.tg-text')).toContainText('Resource 2: This is a plaintext resource');
  // A base64 blob typed text/plain is text: decoded and shown as text.
  await links.getByRole('button', { name: 'Open: Blob Resource 1' }).click();
  const blob = links.getByRole('region', { name: 'Contents of demo://resource/dynamic/blob/1' });
  await expect(blob.locator('.tg-text')).toContainText('Resource 1: This is a base64 blob');

  const embedded = page
    .locator('.tg-finished-call', { hasText: 'get-resource-reference' })
    .locator('.tg-embedded');
  await expect(embedded.locator('.tg-text').first()).toContainText(
    'Resource 3: This is a plaintext resource',
  );
  await embedded.getByRole('button', { name: 'Read again: demo://resource/dynamic/text/3' }).click();
  await expect(embedded.getByRole('region', { name: /Contents of/ }).locator('.tg-text')).toContainText(
    'Resource 3: This is a plaintext resource',
  );

  // Anything else is a download that says its type; the server's bytes never render in the page.
  const gzip = page.locator('.tg-finished-call', { hasText: 'gzip-file-as-resource' });
  await gzip.getByRole('button', { name: /^Open: note\.txt\.gz/ }).click();
  await expect(gzip.locator('.tg-download')).toContainText('application/gzip data');
  const download = page.waitForEvent('download');
  await gzip.getByRole('button', { name: /^Download / }).click();
  expect((await download).suggestedFilename()).toMatch(/note\.txt\.gz$/);
  await axe(page, 'resources read');
  await shot(page, 'views-resources');

  // The reads went to the server as resources/read, as the raw view shows.
  await openTab(page, 'Inspect');
  const messages = page.getByRole('list', { name: 'JSON-RPC messages' }).locator('summary');
  await expect(messages.filter({ hasText: /resources\/read #\d+/ })).toHaveCount(4);

  // Each went through the gate as the person's own read: allowed, and in the audit log.
  await openTab(page, 'Audit log');
  await expect(page.locator('.tg-log-table tbody tr', { hasText: 'resources/read' })).toHaveCount(4);
});

test("a host's read of a linked resource is asked; an approval remembered for the session covers it until revoked", async ({
  page,
}) => {
  await openWidget(page, [{ url: everything.url, id: 'everything' }]);
  const read = () =>
    page.evaluate(() =>
      (
        window as unknown as {
          toolgate: {
            readResource(s: string, u: string, c: unknown): Promise<{ contents: { text?: string }[] }>;
          };
        }
      ).toolgate
        .readResource('everything', 'demo://resource/static/document/architecture.md', {
          kind: 'host',
          label: 'e2e',
        })
        .then(
          (result) => result.contents[0]?.text?.slice(0, 40) ?? '',
          (error: Error) => error.name,
        ),
    );
  const first = read();
  const dialog = page.getByRole('dialog', { name: /Read a resource on/ });
  await expect(dialog).toContainText('demo://resource/static/document/architecture.md');
  await dialog.getByRole('button', { name: 'Allow for this session' }).click();
  expect(await first).not.toBe('DeniedError');
  // Remembered: not asked again.
  expect(await read()).toBe(await first);
  await expect(dialog).toHaveCount(0);

  await openTab(page, 'Approvals');
  const row = page.locator('.tg-remembered tr', { hasText: 'architecture.md' });
  await expect(row).toContainText('allowed for this session');
  await row.getByRole('button', { name: 'Revoke' }).click();
  const again = read();
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await again).toBe('DeniedError');
});

test('Inspect: the server log with logging/setLevel, and the raw exchange redacted, with the keyboard', async ({
  page,
}) => {
  await openWidget(page, [
    { url: sdk.url, id: 'sdk' },
    { url: everything.url, id: 'everything' },
  ]);
  expect(await callAndAnswer(page, 'sdk', 'echo', { message: SECRET_URL })).toBe('ok');
  await openTab(page, 'Inspect');
  await expect(page.getByRole('heading', { name: 'Inspect', level: 2 })).toBeVisible();
  // Keyboard only from the tab: to the server picker, choose the SDK server.
  await page.keyboard.press('Tab');
  const picker = page.getByLabel('Server', { exact: true });
  await expect(picker).toBeFocused();
  await picker.selectOption({ label: 'toolgate-peer-sdk1' });
  const messages = page.getByRole('list', { name: 'JSON-RPC messages' });
  await expect(messages.locator('summary').filter({ hasText: 'tools/list' }).first()).toBeVisible();
  const call = messages.locator('summary').filter({ hasText: /tools\/call #\d+ \(echo\)/ });
  await call.focus();
  await page.keyboard.press('Enter');
  // The request first, then its response, in the one exchange.
  const json = messages.locator('details[open] .tg-text').first();
  await expect(json).toContainText('"name": "echo"');
  await expect(json).toContainText('https://***@example.com/files?api_key=***&page=2');
  await expect(json).not.toContainText('hunter2');
  await expect(messages).not.toContainText('abc123');
  // Its answer is paired with it, with the time between them.
  await expect(messages.locator('details[open] .tg-message')).toHaveCount(2);
  await expect(messages.locator('details[open] .tg-message').nth(1)).toContainText('Received');
  await expect(call.locator('.tg-latency')).toHaveText(/^answered in \d+ ms$/);
  await axe(page, 'inspect raw');

  // server-everything speaks logging: ask for everything from debug up, then start its log messages.
  await picker.selectOption({ label: await optionLabel(page, 'everything') });
  await expect(page.getByText('Messages the server sends with notifications/message')).toBeVisible();
  await page.getByLabel('Ask the server for').selectOption('debug');
  await expect(messages.locator('summary').filter({ hasText: /logging\/setLevel #\d+/ })).toHaveCount(1);
  expect(await callAndAnswer(page, 'everything', 'toggle-simulated-logging', {})).toBe('ok');
  const lines = page.getByRole('list', { name: 'Log messages' }).getByRole('listitem');
  await expect(lines.first()).toContainText(/(debug|info|notice|warning|error|critical|alert|emergency)/, {
    timeout: 15_000,
  });
  await expect(lines.first()).toContainText(/level[- ]message/i);
  await shot(page, 'views-inspect-log');
  await axe(page, 'inspect log');
  // A stricter level goes to the server as logging/setLevel with that level.
  await page.getByLabel('Ask the server for').selectOption('emergency');
  const setLevel = messages
    .locator('summary')
    .filter({ hasText: /logging\/setLevel #\d+/ })
    .first();
  await setLevel.click();
  await expect(messages.locator('details[open] .tg-text').first()).toContainText('"level": "emergency"');
  // Showing only the severe ones is the panel's own filter.
  await page.getByLabel('Show', { exact: true }).selectOption('emergency');
  await expect(page.getByRole('list', { name: 'Log messages' }).getByRole('listitem')).toHaveCount(
    await page.evaluate(
      () =>
        (
          window as unknown as {
            toolgate: { serverLog: { value: Record<string, { level: string }[]> } };
          }
        ).toolgate.serverLog.value.everything!.filter((entry) => entry.level === 'emergency').length,
    ),
  );
  await page.emulateMedia({ colorScheme: 'dark' });
  await axe(page, 'inspect (dark)');
  await shot(page, 'views-inspect-dark');
  expect(await callAndAnswer(page, 'everything', 'toggle-simulated-logging', {})).toBe('ok');
});

async function optionLabel(page: Page, serverId: string): Promise<string> {
  return page.getByLabel('Server', { exact: true }).locator(`option[value="${serverId}"]`).innerText();
}

test('ping: a latency figure on each server, and the ping reached the server', async ({ page }) => {
  await openWidget(page, [
    { url: sdk.url, id: 'sdk' },
    { url: everything.url, id: 'everything' },
  ]);
  const pingsBefore = (await sdk.events()).messages.filter((m) => m.method === 'ping').length;
  const row = page.locator('[data-server="sdk"]');
  await row.getByRole('button', { name: 'Ping' }).focus();
  await page.keyboard.press('Enter');
  await expect(row.locator('.tg-ping')).toHaveText(/^\d+(\.\d)? ms$/);
  expect((await sdk.events()).messages.filter((m) => m.method === 'ping')).toHaveLength(pingsBefore + 1);
  const other = page.locator('[data-server="everything"]');
  await other.getByRole('button', { name: 'Ping' }).click();
  await expect(other.locator('.tg-ping')).toHaveText(/^\d+(\.\d)? ms$/);
  await axe(page, 'servers with ping');
  await page.emulateMedia({ colorScheme: 'dark' });
  await axe(page, 'servers (dark)');
  await shot(page, 'views-servers-dark');
});

test('a 2026-07-28 server has no ping: the latency of a server/discover round trip instead, said so', async ({
  page,
}) => {
  const modern = await startPeer('modern');
  try {
    await openWidget(page, [{ url: modern.url, id: 'modern' }]);
    const discovers = async () =>
      (await modern.events()).messages.filter((m) => m.method === 'server/discover').length;
    const before = await discovers();
    const row = page.locator('[data-server="modern"]');
    await row.getByRole('button', { name: 'Ping' }).click();
    await expect(row.locator('.tg-ping')).toHaveText(
      /^\d+(\.\d)? ms \(server\/discover: 2026-07-28 has no ping\)$/,
    );
    expect(await discovers()).toBe(before + 1);
    expect((await modern.events()).messages.filter((m) => m.method === 'ping')).toHaveLength(0);
    await openTab(page, 'Inspect');
    // No logging/setLevel in 2026-07-28 (the level is per request), whether or not it declares logging.
    await expect(page.locator('.tg-inspect-part > p.tg-muted').first()).toHaveText(
      /did not declare logging|A 2026-07-28 server sends log messages only within requests/,
    );
    await expect(page.getByLabel('Ask the server for')).toHaveCount(0);
    await expect(page.getByRole('list', { name: 'JSON-RPC messages' })).toContainText('server/discover');
    await axe(page, 'inspect (modern)');
  } finally {
    await modern.stop();
  }
});

/**
 * Inspect (issue 26), in Chromium against a real server: each request is paired with its response
 * (by JSON-RPC id) with the time between them, notifications stand alone; the list filters by
 * method and by a search; each message is copied as its JSON; the exchange is exported as a JSON
 * file, secrets redacted as shown.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { type Peer, startPeer } from './support/peers.js';
import { axe, openTab, openWidget } from './support/widget-page.js';

test.use({ permissions: ['local-network-access', 'clipboard-read', 'clipboard-write'] });

let sdk: Peer;
test.beforeAll(async () => {
  sdk = await startPeer('sdk1-stateful-sse');
});
test.afterAll(async () => {
  await sdk?.stop();
});

test('requests paired with responses and latency, filtered, searched, copied and exported', async ({
  page,
}) => {
  await openWidget(page, [{ url: sdk.url, id: 'sdk' }]);
  // Calls from the host app, approved in the dialog: echo, and slow (which reports progress).
  const hostCall = async (toolName: string, args: object) => {
    const called = page.evaluate(
      ([name, input]) =>
        (window as unknown as { toolgate: { call(request: object): Promise<unknown> } }).toolgate
          .call({
            serverId: 'sdk',
            toolName: name,
            arguments: input,
            caller: { kind: 'host', label: 'tests' },
          })
          .then(() => 'ok'),
      [toolName, args] as const,
    );
    await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
    expect(await called).toBe('ok');
  };
  await hostCall('echo', { message: 'paired-marker' });
  await hostCall('slow', { steps: 2, delayMs: 10 });

  await openTab(page, 'Inspect');
  const list = page.getByRole('list', { name: 'JSON-RPC messages' });
  const call = list.locator('li[data-method="tools/call"]', { hasText: '(echo)' });
  await expect(call).toHaveCount(1);
  // One line for the request and its response, with the time between them.
  await expect(call.locator('.tg-latency')).toHaveText(/^answered in \d+ ms$/);
  await expect(list.locator('li[data-method="tools/list"] .tg-latency')).toHaveText(/answered in \d+ ms/);
  // A notification stands alone: no response, no latency.
  const progress = list.locator('li[data-method="notifications/progress"]');
  await expect(progress).toHaveCount(2);
  await expect(progress.locator('.tg-latency')).toHaveCount(0);
  // No response line is left unpaired.
  await expect(list.locator('li.tg-exchange-single')).toHaveCount(0);

  // Filter by method.
  await page.getByLabel('Method').selectOption('tools/call');
  await expect(list.locator('li')).toHaveCount(2);
  await expect(list.locator('li:not([data-method="tools/call"])')).toHaveCount(0);
  await page.getByLabel('Method').selectOption('');
  // Search the messages' text.
  await page.getByLabel('Search').fill('paired-marker');
  await expect(list.locator('li')).toHaveCount(1);
  await expect(list.locator('li')).toHaveAttribute('data-method', 'tools/call');
  await page.getByLabel('Search').fill('no-such-text-anywhere');
  await expect(page.getByText('No messages match.')).toBeVisible();
  await page.getByLabel('Search').fill('');

  // Open the pair: both messages, each with Copy.
  await call.locator('summary').click();
  await expect(call.locator('.tg-message')).toHaveCount(2);
  await call.getByRole('button', { name: 'Copy received message' }).click();
  await expect(call.locator('.tg-message').nth(1).getByRole('status')).toHaveText('Copied');
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
    result: { content: { text: string }[] };
  };
  expect(copied.result.content[0]?.text).toBe('Echo: paired-marker');
  await axe(page, 'inspect');

  // Export the exchange as a JSON file.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export exchange' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^toolgate-exchange-.+\.json$/);
  const saved = JSON.parse(await readFile((await file.path())!, 'utf8')) as {
    server: string;
    messages: { direction: string; message: { method?: string; result?: unknown } }[];
  };
  expect(saved.server).toBeTruthy();
  const methods = saved.messages.map((entry) => entry.message.method).filter(Boolean);
  expect(methods).toContain('tools/call');
  expect(methods).toContain('notifications/progress');
  await expect(page.getByText(/^Saved \d+ messages as toolgate-exchange-/)).toBeVisible();
});

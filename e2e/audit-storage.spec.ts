/**
 * Storage full is not a dead end: the widget in Chromium, with a small storage quota for its origin
 * (set over CDP, as a full disk would), against our SDK 1.x server. The person is told on whatever
 * tab they are, is led to export and prune, and calls resume once there is room again, without a
 * reload. Also: what the log keeps is shown and can be changed.
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { serveFixture } from './support/fixture-page.js';
import { type Peer, startPeer } from './support/peers.js';

const ORIGIN = 'https://widget.test';
test.use({ permissions: ['local-network-access'] });

let sdk: Peer;
test.beforeAll(async () => {
  sdk = await startPeer('sdk1-stateful-sse');
});
test.afterAll(async () => {
  await sdk?.stop();
});

async function setQuota(context: BrowserContext, page: Page, bytes: number): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: ORIGIN, quotaSize: bytes });
}

async function openPanel(page: Page): Promise<void> {
  await serveFixture(page, ORIGIN, 'e2e/fixtures/widget/page.ts', 'Toolgate widget');
  await page.goto(`${ORIGIN}/?server=${encodeURIComponent(sdk.url)}&id=sdk`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await expect(page.locator('[data-server="sdk"]')).toContainText('connected', { timeout: 20_000 });
}

/** Calls echo as the host app; an allow-once answer is given in the dialog when one opens. */
async function callEcho(page: Page, message: string): Promise<string> {
  const result = page.evaluate(
    (text) =>
      (
        window as unknown as {
          toolgate: {
            call(request: object): Promise<{ result: { content: { text: string }[] } }>;
          };
        }
      ).toolgate
        .call({ serverId: 'sdk', toolName: 'echo', arguments: { message: text } })
        .then(
          (r) => r.result.content[0]!.text,
          (e: Error) => `${e.name}: ${e.message}`,
        ),
    message,
  );
  const dialog = page.getByRole('dialog');
  await Promise.race([dialog.waitFor({ state: 'visible' }).catch(() => undefined), result]);
  if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Allow once' }).click();
  return result;
}

/** Fills the origin's storage with random bytes until the browser refuses (a full disk). */
function fillStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('filler');
      request.onupgradeneeded = () => request.result.createObjectStore('filler');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    let key = 0;
    let refused = 'none';
    for (const size of [256 * 1024, 32 * 1024, 4 * 1024, 512])
      for (let i = 0; i < 400; i++) {
        try {
          await new Promise<void>((resolve, reject) => {
            const transaction = database.transaction('filler', 'readwrite');
            transaction.objectStore('filler').put(crypto.getRandomValues(new Uint8Array(size)), key++);
            transaction.oncomplete = () => resolve();
            transaction.onabort = () => reject(transaction.error);
          });
        } catch (error) {
          if (refused === 'none') refused = (error as Error).name;
          break;
        }
      }
    database.close();
    return refused;
  });
}

test('a full audit log is announced on every tab, leads to export and pruning, and calls resume', async ({
  page,
  context,
}) => {
  await setQuota(context, page, 4 * 1024 * 1024);
  await openPanel(page);
  expect(await callEcho(page, 'before')).toBe('Echo: before');
  expect(await fillStorage(page)).toBe('QuotaExceededError');

  await page.getByRole('tab', { name: 'Tools' }).click();
  const refused = await callEcho(page, 'while-full');
  expect(refused).toMatch(/^AuditUnavailableError: .*full/);
  expect((await sdk.events()).calls.map((c) => c.arguments.message)).not.toContain('while-full');

  // Told where they are (the Tools tab), and led to the log.
  const alert = page.getByRole('alert').filter({ hasText: 'The audit log is full, so calls are refused.' });
  await expect(alert).toBeVisible();
  await alert.getByRole('button', { name: 'Make room in the audit log' }).click();
  await expect(page.getByRole('tab', { name: 'Audit log' })).toHaveAttribute('aria-selected', 'true');
  const banner = page.locator('.tg-audit-full [role="alert"]');
  await expect(banner).toContainText('The audit log is full.');

  const download = page.waitForEvent('download');
  await banner.getByRole('button', { name: 'Export the log' }).click();
  expect((await download).suggestedFilename()).toMatch(/^toolgate-audit-.*\.jsonl$/);
  // Chromium refuses even deletions while the origin is over its quota; the person is told what
  // still helps instead of seeing nothing happen.
  await banner.getByRole('button', { name: 'Remove the oldest half' }).click();
  await expect(page.locator('.tg-audit-full .tg-error')).toContainText('Free disk space');

  // Room again (disk space freed: the origin's quota grows): the next call goes through without a
  // reload, the alerts go away, and pruning works.
  await setQuota(context, page, 64 * 1024 * 1024);
  expect(await callEcho(page, 'after')).toBe('Echo: after');
  await expect(alert).toHaveCount(0);
  await expect(banner).toHaveCount(0);
  expect((await sdk.events()).calls.map((c) => c.arguments.message)).toContain('after');
  expect(
    await page.evaluate(async () => {
      const { auditLog } = await (
        window as unknown as {
          toolgate: { ready: Promise<{ auditLog: { verify(): Promise<{ ok: boolean }> } }> };
        }
      ).toolgate.ready;
      return (await auditLog.verify()).ok;
    }),
  ).toBe(true);
});

test('retention is on by default, shown, and the person can change it', async ({ page }) => {
  await openPanel(page);
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const storage = page.locator('.tg-audit-storage');
  await expect(storage).toContainText('Keeps the newest 20,000 entries');
  await storage.getByLabel('Keep newest').fill('50');
  await storage.getByRole('button', { name: 'Save' }).click();
  await expect(storage.locator('.tg-error')).toContainText('Keep at least 100 entries');
  await storage.getByLabel('Keep newest').fill('500');
  await storage.getByRole('button', { name: 'Save' }).click();
  await expect(storage).toContainText('Keeps the newest 500 entries');
  // Stored with the log: a reload reads the person's choice back.
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await page.getByRole('tab', { name: 'Audit log' }).click();
  await expect(page.locator('.tg-audit-storage')).toContainText('Keeps the newest 500 entries');
  await page.locator('.tg-audit-storage').getByLabel('Keep everything').check();
  await page.locator('.tg-audit-storage').getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.tg-audit-storage')).toContainText('Keeps every entry.');
});

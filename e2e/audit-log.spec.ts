/**
 * The audit log in Chromium on real IndexedDB: crash safety across a reload, two tabs appending at
 * once, tamper evidence, redaction, quota exhaustion, export/import, retention. The reload and quota
 * cases go through the real gate to a real SDK server, which records what actually reached it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import type { AuditApi } from './fixtures/audit/page.js';
import { bundle } from './support/bundle.js';
import { startPeer } from './support/peers.js';

const ORIGIN = 'https://audit.test';

declare global {
  interface Window {
    auditApi: AuditApi;
  }
}

test.use({ permissions: ['local-network-access'] });

test.beforeEach(async ({ context }) => {
  const script = await bundle('e2e/fixtures/audit/page.ts');
  await context.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/page.js') return route.fulfill({ contentType: 'application/javascript', body: script });
    return route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>audit</title><script type="module" src="/page.js"></script>',
    });
  });
});

async function openLog(page: Page, name?: string): Promise<void> {
  await page.goto(`${ORIGIN}/`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await page.evaluate((n) => window.auditApi.open(n), name);
}

test('secret-keyed argument values never reach IndexedDB in clear', async ({ page }) => {
  await openLog(page);
  const { entry, body, raw } = await page.evaluate(() => window.auditApi.pendingWithSecrets());
  for (const secret of ['hunter2', 'abc.def', 'sk-123']) expect(raw).not.toContain(secret);
  expect(raw).toContain('visible');
  expect(raw).toContain('kept');
  expect(entry?.redactedPaths).toEqual(
    expect.arrayContaining(['password', 'headers.Authorization', 'nested[0].api_key']),
  );
  expect((body as { arguments: { password: string } }).arguments.password).toBe(
    '[redacted: named like a secret]',
  );
});

test('two tabs appending 1,000 entries each at once: 2,000 entries, one valid chain, live updates', async ({
  context,
}) => {
  const first = await context.newPage();
  const second = await context.newPage();
  await openLog(first);
  await openLog(second);
  await Promise.all([
    first.evaluate(() => window.auditApi.appendMany(1000, 'left')),
    second.evaluate(() => window.auditApi.appendMany(1000, 'right')),
  ]);
  expect(await first.evaluate(() => window.auditApi.count())).toBe(2000);
  const verification = await second.evaluate(() => window.auditApi.verify());
  expect(verification).toMatchObject({ ok: true, count: 4000 });
  expect(verification.progress).toEqual([1000, 2000, 3000, 4000]);
  const counts = await first.evaluate(() => window.auditApi.counts());
  expect(counts.success).toBe(2000);
  expect(counts.pending).toBe(0);
  // Each tab heard the other's appends over BroadcastChannel, not only its own.
  await expect
    .poll(() => first.evaluate(() => window.auditApi.changes().filter((c) => c === 'appended').length))
    .toBeGreaterThan(2);
  const page = await first.evaluate(() => window.auditApi.entries({ toolName: 'tool_3', limit: 10 }));
  expect(page).toHaveLength(10);
  expect(new Set(page.map((e) => e.toolName))).toEqual(new Set(['tool_3']));
});

test('changing one stored event makes verify fail at exactly that event', async ({ page }) => {
  await openLog(page);
  await page.evaluate(() => window.auditApi.appendMany(20, 'call'));
  expect(await page.evaluate(() => window.auditApi.verify())).toMatchObject({ ok: true, count: 40 });
  const tampered = await page.evaluate(() => window.auditApi.tamper(17));
  const verification = await page.evaluate(() => window.auditApi.verify());
  expect(verification).toMatchObject({ ok: false, seq: 17, invocationId: tampered, checked: 16 });
  expect((verification as { reason: string }).reason).toContain('changed');
});

test('export then import round-trips, verified; the offline script agrees; a tampered file is caught', async ({
  page,
}) => {
  await openLog(page);
  await page.evaluate(() => window.auditApi.appendMany(600, 'x'));
  const ndjson = await page.evaluate(() => window.auditApi.exportRoundTrip('ndjson'));
  expect(ndjson).toMatchObject({ events: 1200, entries: 600, verification: { ok: true, count: 1200 } });
  expect(ndjson.progress.at(-1)).toBe(1200);
  expect(ndjson.progress.length).toBeGreaterThan(1);
  const json = await page.evaluate(() => window.auditApi.exportRoundTrip('json'));
  expect(json).toMatchObject({ events: 1200, entries: 600, verification: { ok: true, count: 1200 } });

  const broken = await page.evaluate(() => window.auditApi.importTampered());
  expect(broken).toMatchObject({ ok: false, seq: 3 });

  // The standalone verifier an auditor runs, on the files the browser produced.
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-audit-'));
  for (const format of ['ndjson', 'json'] as const) {
    const file = join(dir, `log.${format}`);
    writeFileSync(file, await page.evaluate((f) => window.auditApi.exportText(f), format));
    const out = execFileSync(process.execPath, ['scripts/verify-audit-export.mjs', file], {
      encoding: 'utf8',
    });
    expect(out).toMatch(/^ok: 1200 events, head 1200 sha256:[0-9a-f]{64}/);
  }
});

test('a reload mid-call leaves the call marked interrupted, not lost', async ({ page }) => {
  const peer = await startPeer('sdk1-stateful-sse');
  try {
    await openLog(page);
    const tools = await page.evaluate((url) => window.auditApi.connectGate(url), peer.url);
    expect(tools).toContain('sleep');
    await page.evaluate(() => window.auditApi.startCall('sleep', { ms: 60_000 }));
    await expect
      .poll(() => page.evaluate(() => window.auditApi.entries()))
      .toEqual([expect.objectContaining({ toolName: 'sleep', outcome: 'pending' })]);
    // The pending record was committed before the request left: the server has the call too.
    await expect.poll(async () => (await peer.events()).calls.map((c) => c.tool)).toContain('sleep');

    await page.reload();
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
    await page.evaluate(() => window.auditApi.open());
    const [entry] = await page.evaluate(() => window.auditApi.entries());
    expect(entry).toMatchObject({ toolName: 'sleep', outcome: 'interrupted' });
    expect(entry?.reason).toContain('closed before its result was recorded');
    expect(await page.evaluate(() => window.auditApi.verify())).toMatchObject({ ok: true, count: 2 });
  } finally {
    await peer.stop();
  }
});

test('a second open tab does not mark the first tab’s running call interrupted, and marks it when that tab closes', async ({
  context,
}) => {
  const peer = await startPeer('sdk1-stateful-sse');
  try {
    const caller = await context.newPage();
    await openLog(caller);
    await caller.evaluate((url) => window.auditApi.connectGate(url), peer.url);
    await caller.evaluate(() => window.auditApi.startCall('sleep', { ms: 60_000 }));
    await expect
      .poll(() => caller.evaluate(() => window.auditApi.entries()))
      .toEqual([expect.objectContaining({ outcome: 'pending' })]);
    const viewer = await context.newPage();
    await openLog(viewer);
    expect(await viewer.evaluate(() => window.auditApi.markInterrupted())).toBe(0);
    expect(await viewer.evaluate(() => window.auditApi.entries())).toEqual([
      expect.objectContaining({ outcome: 'pending' }),
    ]);
    // When the caller's tab closes, the viewer notices by itself (it waits on the caller's session
    // lock) and marks the call: nobody needs to open a log again, and a stopped extension worker
    // whose lock is released late is caught the same way.
    await caller.close();
    await expect
      .poll(() => viewer.evaluate(() => window.auditApi.entries()))
      .toEqual([expect.objectContaining({ outcome: 'interrupted' })]);
    expect(await viewer.evaluate(() => window.auditApi.markInterrupted())).toBe(0);
  } finally {
    await peer.stop();
  }
});

test('a full disk refuses the call with a clear message; nothing reaches the server; freeing space recovers', async ({
  page,
  context,
}) => {
  const peer = await startPeer('sdk1-stateful-sse');
  try {
    // A small quota for the origin, set before it first touches storage (Chromium reads it once).
    await setQuota(context, page, 4 * 1024 * 1024);
    await openLog(page);
    await page.evaluate((url) => window.auditApi.connectGate(url), peer.url);
    expect(await page.evaluate(() => window.auditApi.call('echo', { message: 'before' }))).toMatchObject({
      ok: true,
    });

    const filled = await page.evaluate(() => window.auditApi.fillStorage());
    expect(filled.error).toBe('QuotaExceededError');

    const refused = await page.evaluate(() => window.auditApi.call('echo', { message: 'while full' }));
    expect(refused).toMatchObject({ ok: false, name: 'AuditUnavailableError' });
    expect(refused.message).toContain('audit log');
    expect(refused.message).toContain('full');
    const sent = (await peer.events()).calls.map((c) => (c.arguments as { message?: string }).message);
    expect(sent).toContain('before');
    expect(sent).not.toContain('while full');
    expect(await page.evaluate(() => window.auditApi.changes())).toContain('storage-full');

    // Space comes back the way it does for a person who frees disk space: the origin's quota grows.
    // (Deleting the filler database alone does not do it: Chromium keeps counting the deleted
    // database's bytes against the origin for a while, so usage stays at the cap.)
    await page.evaluate(() => window.auditApi.freeStorage());
    await setQuota(context, page, 64 * 1024 * 1024);
    expect(await page.evaluate(() => window.auditApi.call('echo', { message: 'after' }))).toMatchObject({
      ok: true,
    });
    expect(await page.evaluate(() => window.auditApi.verify())).toMatchObject({ ok: true });
  } finally {
    await peer.stop();
  }
});

test('retention keeps the newest entries and the chain still verifies from its checkpoint', async ({
  page,
}) => {
  await openLog(page);
  await page.evaluate(() => window.auditApi.appendMany(25, 'old', true));
  // Overlapping calls: a clean cut cannot fall inside them, so retention stops short rather than
  // leave a kept entry without its evidence.
  await page.evaluate(() => window.auditApi.appendMany(25, 'overlapping'));
  const short = await page.evaluate(() => window.auditApi.prune(5));
  expect(short.removedEntries).toBe(25);
  await page.evaluate(() => window.auditApi.appendMany(25, 'new', true));
  const report = await page.evaluate(() => window.auditApi.prune(10));
  expect(report.removedEntries).toBe(40);
  expect(report.checkpoint.seq).toBe(short.removedEvents + report.removedEvents);
  expect(await page.evaluate(() => window.auditApi.count())).toBe(10);
  const verification = await page.evaluate(() => window.auditApi.verify());
  expect(verification).toMatchObject({ ok: true });
  expect((verification as { count: number }).count).toBe(150 - short.removedEvents - report.removedEvents);
  const round = await page.evaluate(() => window.auditApi.exportRoundTrip('ndjson'));
  expect(round.verification).toMatchObject({ ok: true });
});

async function setQuota(context: BrowserContext, page: Page, bytes: number): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: ORIGIN, quotaSize: bytes });
}

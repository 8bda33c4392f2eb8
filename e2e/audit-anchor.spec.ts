/**
 * Anchored heads in Chromium, on IndexedDB on disk (a persistent profile: Playwright's default
 * contexts keep IndexedDB in memory): the log signs its head with a key no script can read, hands
 * each new head to the host, and a head the host kept catches what the chain alone cannot: the
 * whole chain and its head rewritten by script on the origin. The offline verifier checks the
 * signatures in an export, and flags a forged one.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, expect, type Page, test } from '@playwright/test';
import type { AnchorApi } from './fixtures/audit-anchor/page.js';
import { bundle } from './support/bundle.js';
import { CHROMIUM, CHROMIUM_ARGS } from './support/chromium.js';

const ORIGIN = 'https://anchor.test';

declare global {
  interface Window {
    anchorApi: AnchorApi;
  }
}

let profile: string;
let context: BrowserContext;
let page: Page;

test.beforeEach(async () => {
  profile = mkdtempSync(join(tmpdir(), 'toolgate-anchor-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const script = await bundle('e2e/fixtures/audit-anchor/page.ts');
  await context.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/page.js'
      ? route.fulfill({ contentType: 'application/javascript', body: script })
      : route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><title>anchor</title><script type="module" src="/page.js"></script>',
        }),
  );
  page = context.pages()[0] ?? (await context.newPage());
  await load();
});

test.afterEach(async () => {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
});

async function load(): Promise<void> {
  await page.goto(`${ORIGIN}/`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
}

const dir = mkdtempSync(join(tmpdir(), 'toolgate-anchor-'));
/** The standalone verifier an auditor runs, on a file the browser produced. */
function offlineVerify(text: string, ...extra: string[]): { code: number; out: string } {
  const file = join(dir, `export-${Math.random().toString(36).slice(2)}.ndjson`);
  writeFileSync(file, text);
  try {
    return {
      code: 0,
      out: execFileSync(process.execPath, ['scripts/verify-audit-export.mjs', file, ...extra], {
        encoding: 'utf8',
      }),
    };
  } catch (error) {
    const failed = error as { status: number; stdout: string };
    return { code: failed.status, out: failed.stdout };
  }
}

test('the signing key survives a reload on disk and no script can read its private half', async () => {
  await page.evaluate(() => window.anchorApi.open('anchor-key'));
  await page.evaluate(() => window.anchorApi.append(3, 'a'));
  const head = await page.evaluate(() => window.anchorApi.anchor());
  const key = await page.evaluate(() => window.anchorApi.anchorKey());
  expect(head).toMatchObject({ seq: 3, keyId: key.keyId });
  expect(key.jwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', kid: key.keyId });
  expect(key.jwk).not.toHaveProperty('d');

  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await page.evaluate(() => window.anchorApi.open('anchor-key'));
  // Read back from IndexedDB by structured clone: still the same key, still non-extractable.
  expect((await page.evaluate(() => window.anchorApi.anchorKey())).keyId).toBe(key.keyId);
  expect(await page.evaluate(() => window.anchorApi.exportPrivateKey())).toEqual({
    extractable: false,
    type: 'private',
    usages: ['sign'],
    attempts: ['jwk: InvalidAccessError', 'pkcs8: InvalidAccessError'],
  });
  expect(await page.evaluate(() => window.anchorApi.anchors())).toEqual([head]);
  // The reopened log still signs with it (the 3 calls left pending by the reload were marked
  // interrupted on opening: events 4-6).
  await page.evaluate(() => window.anchorApi.append(2, 'b'));
  expect(await page.evaluate(() => window.anchorApi.anchor())).toMatchObject({ seq: 8, keyId: key.keyId });
});

test('heads are signed on their own after appends and handed to the host; verify checks the newest', async () => {
  await page.evaluate(() => window.anchorApi.open('anchor-auto', { everyEvents: 100, everyMs: 60_000 }));
  await page.evaluate(() => window.anchorApi.append(250, 'burst'));
  // Past 100 unanchored events, the head is signed in a task of its own, not in the append.
  await expect.poll(() => page.evaluate(() => window.anchorApi.shipped().length)).toBeGreaterThan(0);
  const [first] = await page.evaluate(() => window.anchorApi.shipped());
  expect(first!.seq).toBeGreaterThanOrEqual(100);
  expect(await page.evaluate(() => window.anchorApi.verify())).toMatchObject({
    ok: true,
    count: 250,
    anchor: { status: 'extends', source: 'log' },
  });
  await page.evaluate(() => window.anchorApi.close());

  // A quiet log: one call, and its head is signed shortly after.
  await page.evaluate(() => window.anchorApi.open('anchor-quiet', { everyEvents: 1000, everyMs: 200 }));
  await page.evaluate(() => window.anchorApi.append(1, 'lone'));
  await expect
    .poll(() => page.evaluate(() => window.anchorApi.shipped().map((head) => head.seq)))
    .toContain(1);
});

test('a whole chain rewritten on the origin verifies on its own, but not against the head the host kept', async () => {
  await page.evaluate(() => window.anchorApi.open('anchor-rewrite'));
  await page.evaluate(() => window.anchorApi.append(40, 'call'));
  const kept = (await page.evaluate(() => window.anchorApi.anchor()))!;
  const publicKey = (await page.evaluate(() => window.anchorApi.anchorKey())).jwk;
  expect(await page.evaluate(() => window.anchorApi.shipped())).toEqual([kept]);
  expect(
    await page.evaluate(([head, key]) => window.anchorApi.verify(head, key), [kept, publicKey] as const),
  ).toMatchObject({
    ok: true,
    anchor: { status: 'extends', source: 'given' },
  });
  await page.evaluate(() => window.anchorApi.append(10, 'later'));

  // Rewritten with the log's own key (script on the origin can use it, not read it): the chain
  // and the log's own kept head agree, so verify alone sees nothing wrong.
  await page.evaluate(() => window.anchorApi.rewriteChain(false));
  expect(await page.evaluate(() => window.anchorApi.verify())).toMatchObject({
    ok: true,
    count: 50,
    anchor: { status: 'extends', source: 'log' },
  });
  // The head the host kept does not pass: event 40 no longer has the hash that was signed.
  const verification = await page.evaluate(([head, key]) => window.anchorApi.verify(head, key), [
    kept,
    publicKey,
  ] as const);
  expect(verification).toMatchObject({
    ok: false,
    seq: 40,
    anchor: { status: 'broken', source: 'given' },
  });
  expect((verification as { reason: string }).reason).toContain(
    'event 40 no longer has the hash that was signed',
  );

  // The offline verifier, given the head the host kept, agrees on the export.
  const exported = await page.evaluate(() => window.anchorApi.exportText());
  expect(offlineVerify(exported).code).toBe(0);
  const keptFile = join(dir, 'kept-head.json');
  writeFileSync(keptFile, JSON.stringify(kept));
  const keyFile = join(dir, 'kept-key.json');
  writeFileSync(keyFile, JSON.stringify(publicKey));
  expect(offlineVerify(exported, '--anchor', keptFile, '--key', keyFile)).toMatchObject({
    code: 1,
    out: expect.stringContaining('event 40 no longer has the hash that was signed'),
  });
});

test('a rewrite that replaces the key is caught by the kept head, with or without the kept key', async () => {
  await page.evaluate(() => window.anchorApi.open('anchor-rekey'));
  await page.evaluate(() => window.anchorApi.append(20, 'call'));
  const kept = (await page.evaluate(() => window.anchorApi.anchor()))!;
  const publicKey = (await page.evaluate(() => window.anchorApi.anchorKey())).jwk;

  const forged = await page.evaluate(() => window.anchorApi.rewriteChain(true));
  expect(forged.keyId).not.toBe(kept.keyId);
  expect(await page.evaluate(() => window.anchorApi.verify())).toMatchObject({ ok: true });
  // Without the kept key: the head names a key the log no longer has.
  const withoutKey = await page.evaluate((head) => window.anchorApi.verify(head), kept);
  expect(withoutKey).toMatchObject({ ok: false, anchor: { status: 'broken' } });
  expect((withoutKey as { reason: string }).reason).toContain(`signed by key ${kept.keyId}`);
  // With it: the signature holds, the chain does not pass through the head.
  const withKey = await page.evaluate(([head, key]) => window.anchorApi.verify(head, key), [
    kept,
    publicKey,
  ] as const);
  expect((withKey as { reason: string }).reason).toContain('event 20 no longer has the hash that was signed');
});

test('the offline verifier checks the signatures an export carries and flags a forged one', async () => {
  await page.evaluate(() => window.anchorApi.open('anchor-export'));
  await page.evaluate(() => window.anchorApi.append(30, 'x'));
  await page.evaluate(() => window.anchorApi.anchor());
  await page.evaluate(() => window.anchorApi.append(5, 'y'));
  // The export signs its own head first: two heads, the newest at the export's last event.
  const text = await page.evaluate(() => window.anchorApi.exportText());
  const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as {
    anchorKey: { keyId: string };
    anchoredHeads: { seq: number; signature: string; hash: string }[];
  };
  expect(header.anchoredHeads.map((head) => head.seq)).toEqual([30, 35]);
  const good = offlineVerify(text);
  expect(good.code).toBe(0);
  expect(good.out).toContain(
    `anchored: 2 heads checked (0 given), the chain passes through each; newest event 35, key ${header.anchorKey.keyId}`,
  );

  // A head whose hash was swapped for another event's: its signature no longer holds.
  const swapped = structuredClone(header);
  swapped.anchoredHeads[0]!.hash = swapped.anchoredHeads[1]!.hash;
  const forgedText = `${JSON.stringify(swapped)}${text.slice(text.indexOf('\n'))}`;
  expect(offlineVerify(forgedText)).toMatchObject({
    code: 1,
    out: expect.stringContaining('anchored head at event 30 (the export): its signature does not verify'),
  });
  // The export cut before its newest signed head.
  const lines = text.trimEnd().split('\n');
  expect(offlineVerify(`${lines.slice(0, -3).join('\n')}\n`)).toMatchObject({
    code: 1,
    out: expect.stringContaining('the export ends at event 32, before it'),
  });
});

/**
 * The audit log export turned on by deployment, not by code: <toolgate-panel> with `collector`,
 * `collector-service-name` and `trace-context` attributes, in Chromium on real IndexedDB, a call
 * made in the panel by a person to our SDK 1.x server, the export received by the OTLP/HTTP test
 * receiver (each request checked against the OTLP protobuf schema). The log's signed heads reach
 * the collector as records of their own, and the copy there checks the log in the browser. A 401
 * stops the export, the audit view says so and what to do, and Resume sends the rest.
 */
import { expect, type Page, test } from '@playwright/test';
import { type OtlpReceiver, type ReceivedRecord, startOtlpReceiver } from '../test/support/otlp-receiver.js';
import type { PanelApi } from './fixtures/otlp-deploy/panel.js';
import type { WorkerApi } from './fixtures/otlp-deploy/worker-page.js';
import { bundle } from './support/bundle.js';
import { type Peer, startPeer } from './support/peers.js';

const ORIGIN = 'https://otlp-deploy.test';

declare global {
  interface Window {
    panelApi: PanelApi;
    workerApi: WorkerApi;
  }
}

test.use({ permissions: ['local-network-access'] });

let peer: Peer;
let receiver: OtlpReceiver;
test.beforeEach(async ({ context }) => {
  peer = await startPeer('sdk1-stateful-json');
  receiver = await startOtlpReceiver({ allowOrigin: ORIGIN });
  const scripts: Record<string, string> = {
    '/page.js': 'e2e/fixtures/otlp-deploy/panel.ts',
    '/worker-page.js': 'e2e/fixtures/otlp-deploy/worker-page.ts',
    '/worker.js': 'e2e/fixtures/otlp-deploy/worker.ts',
  };
  await context.route(`${ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (scripts[path])
      return route.fulfill({ contentType: 'application/javascript', body: await bundle(scripts[path]) });
    const script = path === '/worker.html' ? '/worker-page.js' : '/page.js';
    return route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><title>otlp deploy</title><script type="module" src="${script}"></script></html>`,
    });
  });
});
test.afterEach(async () => {
  await receiver?.close();
  await peer?.stop();
});

async function openPanel(page: Page): Promise<void> {
  await page.goto(
    `${ORIGIN}/?collector=${encodeURIComponent(receiver.url)}&server=${encodeURIComponent(peer.url)}`,
  );
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await expect(page.locator('[data-server="sdk"]')).toContainText('connected', { timeout: 20_000 });
}

/** A person calls echo from the Tools tab (their click on Call is the approval). */
async function callEcho(page: Page, message: string): Promise<void> {
  await page.getByRole('tab', { name: 'Tools' }).click();
  await page.getByLabel('Search tools').fill('echo');
  await page
    .locator('.tg-tool-button', { hasText: /^echo\b/ })
    .first()
    .click();
  await page.locator('.tg-try').getByLabel('message (required)').fill(message);
  await page
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Until the result is back (and recorded): the call's final event is the one a flush waits for.
  await expect(page.locator('.tg-try')).toContainText(`Echo: ${message}`);
}

const events = (records: ReceivedRecord[]) =>
  records.filter((record) => record.attributes['event.name'] !== 'toolgate.audit.anchor');
const anchors = (records: ReceivedRecord[]) =>
  records.filter((record) => record.attributes['event.name'] === 'toolgate.audit.anchor');
const seqsOf = (records: ReceivedRecord[]) =>
  [...new Set(events(records).map((record) => record.attributes['toolgate.audit.seq'] as number))].sort(
    (a, b) => a - b,
  );

test('a panel configured by its attributes exports its calls and its signed heads to the collector', async ({
  page,
}) => {
  await openPanel(page);
  await callEcho(page, 'from the panel');
  await page.evaluate(() => window.panelApi.flush());

  // The call, made by a person in the panel, reached the collector: both events, a trace the
  // panel started (the same the server received), the attribute's service name, the option's key.
  const sent = (await peer.events()).messages.filter((message) => message.method === 'tools/call');
  expect(sent).toHaveLength(1);
  const traceId = sent[0]!.traceparent!.slice(3, 35);
  expect(receiver.problems).toEqual([]);
  const calls = events(receiver.records);
  expect(calls.map((record) => record.attributes['toolgate.audit.kind'])).toEqual(['pending', 'final']);
  expect(calls.every((record) => record.traceId === traceId)).toBe(true);
  expect(calls[1]!.attributes).toMatchObject({
    'gen_ai.tool.name': 'echo',
    'toolgate.caller.kind': 'person',
    'toolgate.outcome': 'success',
  });
  expect(calls[0]!.resource).toMatchObject({ 'service.name': 'toolgate-panel-e2e' });
  expect(receiver.lastHeaders.authorization).toBe('Bearer panel-collector-key');

  // The head the log signed after the call was handed to onAnchor and reached the collector. A slow
  // call (a busy machine) may also have its pending event anchored alone 300 ms after it was
  // appended (seq 1): the head that matters is the one covering the final event (seq 2).
  const signedHeads = () => page.evaluate(() => window.panelApi.heads());
  await expect.poll(async () => (await signedHeads()).at(-1)?.seq).toBe(2);
  const head = (await signedHeads()).at(-1)!;
  const anchoredAt = (seq: number) =>
    anchors(receiver.records).find((record) => record.attributes['toolgate.anchor.seq'] === seq);
  await expect.poll(() => anchoredAt(2) !== undefined).toBe(true);
  const kept = anchoredAt(2)!;
  expect(kept.attributes).toMatchObject({
    'toolgate.anchor.seq': 2,
    'toolgate.anchor.hash': head!.hash,
    'toolgate.anchor.signature': head!.signature,
    'toolgate.anchor.key_id': head!.keyId,
    'log.record.uid': `anchor.${head!.keyId}.2`,
  });
  // The collector's copy alone (head and public key) checks the chain in the browser.
  const { publicKey, ...keptHead } = kept.body as typeof head & { publicKey: JsonWebKey };
  expect(
    await page.evaluate(([h, k]) => window.panelApi.verifyAgainst(h, k), [keptHead, publicKey] as const),
  ).toEqual({
    ok: true,
    anchor: 'extends',
  });
  // A forged copy does not.
  const forged = { ...keptHead, hash: `sha256:${'0'.repeat(64)}` };
  expect(
    (await page.evaluate(([h, k]) => window.panelApi.verifyAgainst(h, k), [forged, publicKey] as const))
      .anchor,
  ).not.toBe('extends');

  // The audit view says the export is up to date.
  await page.getByRole('tab', { name: 'Audit log' }).click();
  await expect(page.locator('[data-export-state]')).toHaveText(/Collector export: up to date/);
});

test('a 401 stops the export, the audit view says why and what to do, and Resume sends the rest', async ({
  page,
}) => {
  await openPanel(page);
  await callEcho(page, 'first');
  await page.evaluate(() => window.panelApi.flush());
  expect(seqsOf(receiver.records)).toEqual([1, 2]);

  receiver.setMode({ kind: 'status', status: 401 });
  await callEcho(page, 'second');
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const line = page.locator('[data-export-state]');
  await expect(line).toHaveAttribute('data-export-state', 'stopped');
  await expect(line).toContainText('Collector export stopped, behind by 2 events');
  await expect(line).toContainText('answered HTTP 401');
  await expect(line).toContainText('check the collector URL and its headers, then resume the export');
  // The collector's key is never shown.
  await expect(line).not.toContainText('panel-collector-key');

  // Fixed at the collector: Resume, and the two events it missed arrive, nothing twice.
  receiver.setMode({ kind: 'up' });
  await line.getByRole('button', { name: 'Resume export' }).click();
  await expect(line).toHaveText(/Collector export: up to date/);
  expect(await page.evaluate(() => window.panelApi.headSeq())).toBe(4);
  expect(seqsOf(receiver.records)).toEqual([1, 2, 3, 4]);
  expect(events(receiver.records)).toHaveLength(4);
  expect(receiver.problems).toEqual([]);
});

test("the extension's policy path in a worker (no window): the policy as written starts the real exporter; events and signed heads reach the collector", async ({
  page,
}) => {
  await page.goto(`${ORIGIN}/worker.html`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  const send = (command: string, args: Record<string, unknown> = {}) =>
    page.evaluate(([c, a]) => window.workerApi.send(c, a), [command, args] as const);
  // Where the worker's code runs there is no window and no document, as in a service worker.
  expect(await send('globals')).toEqual({ window: 'undefined', document: 'undefined', locks: 'object' });

  // The managed-storage value as an administrator writes it (docs/audit-log.md, "From the extension").
  const policy = {
    url: receiver.url,
    headers: { authorization: 'Bearer org-collector-key' },
    serviceName: 'toolgate-acme',
  };
  expect(await send('start', { policy })).toEqual({ started: true });
  expect(await send('append', { count: 3 })).toBe(3);
  await send('flush');
  expect(receiver.problems).toEqual([]);
  expect(seqsOf(receiver.records)).toEqual([1, 2, 3]);
  expect(events(receiver.records)[0]!.resource).toMatchObject({ 'service.name': 'toolgate-acme' });
  expect(receiver.lastHeaders.authorization).toBe('Bearer org-collector-key');

  // The log signs its head on its own; the export ships it, and the collector's copy checks the log.
  await expect.poll(() => anchors(receiver.records).length).toBeGreaterThan(0);
  const heads = (await send('heads')) as { seq: number; signature: string }[];
  const kept = anchors(receiver.records).at(-1)!;
  expect(kept.attributes['toolgate.anchor.signature']).toBe(heads.at(-1)!.signature);
  const { publicKey, ...head } = kept.body as { publicKey: JsonWebKey; seq: number };
  expect(head.seq).toBe(3);
  expect(await send('verifyAgainst', { head, publicKey })).toEqual({ ok: true, anchor: 'extends' });

  // A policy that would send the log in clear text is refused, and says so.
  expect(await send('start', { policy: { url: 'http://collector.example.com:4318' } })).toEqual({
    problem: expect.stringMatching(/must be https/),
  });
});

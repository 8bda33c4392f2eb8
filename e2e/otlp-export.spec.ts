/**
 * The audit log exported to an OpenTelemetry collector, in Chromium on real IndexedDB: calls through
 * the host API and the real gate to our SDK 1.x server (which records the `_meta` it received), the
 * export received by the OTLP/HTTP test receiver (test/support/otlp-receiver.ts: each request checked
 * against the OTLP protobuf schema with the official generated types). The receiver answers 503,
 * refuses connections, loses an answer, and the page reloads mid-way: every record still arrives,
 * and a record arrives twice only with the same record id.
 */
import { expect, type Page, test } from '@playwright/test';
import { type OtlpReceiver, type ReceivedRecord, startOtlpReceiver } from '../test/support/otlp-receiver.js';
import type { OtlpApi } from './fixtures/otlp/page.js';
import { bundle } from './support/bundle.js';
import { type Peer, startPeer } from './support/peers.js';

const ORIGIN = 'https://otlp.test';
const HOST_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const HOST_TRACEPARENT = `00-${HOST_TRACE_ID}-00f067aa0ba902b7-01`;

declare global {
  interface Window {
    otlpApi: OtlpApi;
  }
}

test.use({ permissions: ['local-network-access'] });

let peer: Peer;
let receiver: OtlpReceiver;
test.beforeEach(async ({ context }) => {
  peer = await startPeer('sdk1-stateful-json');
  receiver = await startOtlpReceiver({ allowOrigin: ORIGIN });
  const script = await bundle('e2e/fixtures/otlp/page.ts');
  await context.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/page.js'
      ? route.fulfill({ contentType: 'application/javascript', body: script })
      : route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><title>otlp</title><script type="module" src="/page.js"></script>',
        }),
  );
});
test.afterEach(async () => {
  await receiver?.close();
  await peer?.stop();
});

async function openPage(page: Page): Promise<void> {
  await page.goto(
    `${ORIGIN}/?collector=${encodeURIComponent(receiver.url)}&server=${encodeURIComponent(peer.url)}`,
  );
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  expect(await otlp(page, 'connect')).toBe('connected');
}

/** Runs the page's `otlpApi[method](...args)` in the page (the fixture's API, e2e/fixtures/otlp/page.ts). */
function otlp<M extends keyof OtlpApi>(
  page: Page,
  method: M,
  ...args: Parameters<OtlpApi[M]>
): Promise<Awaited<ReturnType<OtlpApi[M]>>> {
  return page.evaluate(
    ([name, input]) => (window.otlpApi[name] as (...values: unknown[]) => unknown)(...input),
    [method, args] as const,
  ) as Promise<Awaited<ReturnType<OtlpApi[M]>>>;
}

/** Waits until the export has sent all the log holds; the seq of the log's newest event. */
async function flushedHead(page: Page): Promise<number> {
  await otlp(page, 'flush');
  return otlp(page, 'headSeq');
}

const seqOf = (record: ReceivedRecord) => record.attributes['toolgate.audit.seq'] as number;

/** Every seq 1..head arrived; any seq that arrived twice arrived with the same record id and body. */
function expectEveryRecordOnce(records: ReceivedRecord[], head: number): void {
  const bySeq = new Map<number, ReceivedRecord[]>();
  for (const record of records) bySeq.set(seqOf(record), [...(bySeq.get(seqOf(record)) ?? []), record]);
  expect([...bySeq.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
  for (const copies of bySeq.values()) {
    const ids = new Set(copies.map((copy) => copy.attributes['log.record.uid']));
    expect(ids.size).toBe(1);
    expect(new Set(copies.map((copy) => JSON.stringify(copy.body))).size).toBe(1);
  }
}

test('calls carry trace context to the server, and their records reach the collector with the same trace', async ({
  page,
}) => {
  await openPage(page);
  expect(await otlp(page, 'call', 'from the host span', HOST_TRACEPARENT)).toBe('ok');
  expect(await otlp(page, 'call', 'a trace Toolgate starts')).toBe('ok');
  await otlp(page, 'flush');

  // The server side: the host's traceparent as given, and a fresh sampled one for the other call.
  const sent = (await peer.events()).messages.filter((message) => message.method === 'tools/call');
  expect(sent.map((message) => message.traceparent)).toEqual([
    HOST_TRACEPARENT,
    expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/),
  ]);
  const started = sent[1]!.traceparent!.slice(3, 35);

  // The collector side: every event once, schema-valid, correlated by trace id, with the conventions.
  const head = await otlp(page, 'headSeq');
  expect(head).toBe(4);
  expect(receiver.problems).toEqual([]);
  expectEveryRecordOnce(receiver.records, head);
  const traced = receiver.records.filter((record) => record.traceId === HOST_TRACE_ID);
  expect(traced.map((record) => record.attributes['toolgate.audit.kind'])).toEqual(['pending', 'final']);
  expect(receiver.records.filter((record) => record.traceId === started)).toHaveLength(2);
  const entries = await otlp(page, 'entries');
  expect(entries.map((entry) => entry.traceId).sort()).toEqual([HOST_TRACE_ID, started].sort());
  const final = traced[1]!;
  expect(final.attributes).toMatchObject({
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': 'echo',
    'gen_ai.operation.name': 'execute_tool',
    'server.address': '127.0.0.1',
    'toolgate.outcome': 'success',
    'toolgate.caller.kind': 'host',
  });
  expect(final.resource).toMatchObject({
    'service.name': 'toolgate-e2e',
    'service.instance.id': 'e2e-browser',
  });
  expect(receiver.lastHeaders.authorization).toBe('Bearer collector-secret');
  // Redacted as in the log; the collector's key only ever in its header.
  const everything = JSON.stringify(receiver.records);
  expect(everything).not.toContain('sk-live-123');
  expect(everything).toContain('[redacted: named like a secret]');
  expect(everything).not.toContain('collector-secret');
});

test('the collector down for a while (503, then refusing connections), then back: nothing lost', async ({
  page,
}) => {
  await openPage(page);
  await otlp(page, 'call', 'before the outage');
  await otlp(page, 'flush');
  const before = receiver.records.length;

  receiver.setMode({ kind: 'unavailable', retryAfterSeconds: 1 });
  for (const message of ['one', 'two', 'three']) await otlp(page, 'call', message);
  await expect.poll(() => receiver.counts.refused).toBeGreaterThan(1);
  await expect.poll(() => otlp(page, 'status').then((s) => s.state)).toBe('retrying');
  // Now nothing answers at all.
  await receiver.goDown();
  receiver.setMode({ kind: 'up' });
  for (const message of ['four', 'five']) await otlp(page, 'call', message);
  const status = await otlp(page, 'status');
  expect(status.problem).toMatch(/could not be reached|HTTP 503/);
  expect(status.problem).not.toContain('collector-secret');
  expect(receiver.records.length).toBe(before);

  await receiver.comeBack();
  const head = await flushedHead(page);
  expect(head).toBe(12);
  expect(receiver.problems).toEqual([]);
  expectEveryRecordOnce(receiver.records, head);
  // Nothing was acknowledged during the outage, so nothing arrived twice.
  expect(receiver.records).toHaveLength(head);
  const recovered = await otlp(page, 'status');
  expect(recovered).toMatchObject({ state: 'idle', acknowledgedSeq: head });
  expect(recovered.problem).toBeUndefined();
});

test('a lost acknowledgement means the batch comes again, with the same record ids', async ({ page }) => {
  await openPage(page);
  receiver.setMode({ kind: 'lose-answer' });
  await otlp(page, 'call', 'answer lost');
  await expect.poll(() => receiver.counts.accepted).toBeGreaterThan(0);
  receiver.setMode({ kind: 'up' });
  const head = await flushedHead(page);
  expectEveryRecordOnce(receiver.records, head);
  expect(receiver.records.length).toBeGreaterThan(head);
});

test('a reload mid-way resumes from the acknowledged cursor: the rest arrives, nothing before it again', async ({
  page,
}) => {
  await openPage(page);
  await otlp(page, 'call', 'acknowledged before the reload');
  await otlp(page, 'flush');
  const acknowledged = receiver.records.length;
  expect(acknowledged).toBe(2);

  await receiver.goDown();
  for (const message of ['during', 'the', 'outage']) await otlp(page, 'call', message);
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await receiver.comeBack();
  expect(await otlp(page, 'connect')).toBe('connected');
  await otlp(page, 'call', 'after the reload');
  await otlp(page, 'flush');

  const head = await otlp(page, 'headSeq');
  expect(head).toBe(10);
  expectEveryRecordOnce(receiver.records, head);
  // The cursor survived the reload: the first two records were not sent again.
  expect(receiver.records.filter((record) => seqOf(record) <= 2)).toHaveLength(2);
  expect(receiver.records).toHaveLength(head);
});

test('a collector that refuses the credentials stops the export and says so; after a fix, all of it arrives', async ({
  page,
}) => {
  receiver.setMode({ kind: 'status', status: 401 });
  await openPage(page);
  await otlp(page, 'call', 'refused credentials');
  await expect.poll(() => otlp(page, 'status').then((s) => s.state)).toBe('stopped');
  const status = await otlp(page, 'status');
  expect(status.problem).toMatch(/127\.0\.0\.1.*HTTP 401.*check the collector URL and its headers/);
  expect(status.acknowledgedSeq).toBe(0);
  expect(
    await page.evaluate(() =>
      window.otlpApi.flush().then(
        () => 'flushed',
        (e: Error) => e.message,
      ),
    ),
  ).toMatch(/HTTP 401/);
  // Nothing was taken as sent: with the collector fixed, a reload exports everything.
  receiver.setMode({ kind: 'up' });
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await otlp(page, 'flush');
  expectEveryRecordOnce(receiver.records, await otlp(page, 'headSeq'));
});

test('partial success: records the collector refused are counted and reported, not sent again', async ({
  page,
}) => {
  receiver.setMode({ kind: 'partial', rejected: 1 });
  await openPage(page);
  await otlp(page, 'call', 'partly refused');
  await otlp(page, 'flush');
  const status = await otlp(page, 'status');
  expect(status.rejectedRecords).toBeGreaterThan(0);
  expect(status.problem).toMatch(/the collector refused 1 of \d+ records: test rejection/);
  expect(status.acknowledgedSeq).toBe(await otlp(page, 'headSeq'));
});

test('two tabs on one log: one exports, the other follows its cursor, and takes over when it closes', async ({
  context,
}) => {
  const first = await context.newPage();
  const second = await context.newPage();
  await openPage(first);
  await openPage(second);
  await otlp(first, 'call', 'from the first tab');
  await otlp(second, 'call', 'from the second tab');
  // Exactly one of them holds the export.
  const states = await Promise.all([first, second].map((tab) => otlp(tab, 'status').then((s) => s.state)));
  expect(states.filter((state) => state === 'waiting-for-lock')).toHaveLength(1);
  const [exporting, waiting] = states[0] === 'waiting-for-lock' ? [second, first] : [first, second];
  // A flush in the waiting tab ends when the other tab's acknowledgements cover its calls.
  await otlp(waiting, 'flush');
  expectEveryRecordOnce(receiver.records, 4);
  expect(receiver.records).toHaveLength(4);

  await exporting.close();
  await expect.poll(() => otlp(waiting, 'status').then((s) => s.state)).not.toBe('waiting-for-lock');
  await otlp(waiting, 'call', 'after the other tab closed');
  await otlp(waiting, 'flush');
  expectEveryRecordOnce(receiver.records, 6);
  expect(receiver.records).toHaveLength(6);
});

test('events pruned by retention before they were exported are reported as a gap; the rest arrives', async ({
  page,
}) => {
  await openPage(page);
  await receiver.goDown();
  for (const message of ['one', 'two', 'three']) await otlp(page, 'call', message);
  const checkpoint = await otlp(page, 'prune', 1);
  expect(checkpoint).toBeGreaterThan(0);
  await receiver.comeBack();
  const head = await flushedHead(page);
  const status = await otlp(page, 'status');
  expect(status.skippedEvents).toBe(checkpoint);
  expect(status.problem).toMatch(/pruned by retention before they could be exported/);
  expect(receiver.records.map(seqOf).sort((a, b) => a - b)).toEqual(
    Array.from({ length: head - checkpoint }, (_, i) => checkpoint + i + 1),
  );
});

test('a collector that takes only small requests (413) gets smaller batches, and every record', async ({
  page,
}) => {
  receiver.setMode({ kind: 'max-records', records: 1 });
  await openPage(page);
  // Down while the calls are made, so the first batch back holds all four records.
  await receiver.goDown();
  await otlp(page, 'call', 'one');
  await otlp(page, 'call', 'two');
  await receiver.comeBack();
  const head = await flushedHead(page);
  expectEveryRecordOnce(receiver.records, head);
  expect(receiver.records).toHaveLength(head);
  // Refused as too large at least once (the first batch that reaches it holds two or four records,
  // as the outage and the calls interleave on the machine), then taken one by one: as many accepted
  // requests as records.
  expect(receiver.counts.refused).toBeGreaterThanOrEqual(1);
  expect(receiver.counts.accepted).toBe(head);
});

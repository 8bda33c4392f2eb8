/**
 * The audit log's index in Chromium on real IndexedDB: entries sealed into segments (small segments
 * here, so a few hundred calls make many) are found exactly as reading every entry finds them,
 * calls that finish after being sealed, two tabs sealing at once, retention pruning the index, the
 * upgrade from the version 1 layout, and removed evidence reported by verify.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import type { AuditQuery } from '../src/audit/filter.js';
import type { AuditApi } from './fixtures/audit/page.js';
import type { V1Call } from './fixtures/audit/v1-log.js';
import { bundle } from './support/bundle.js';

const ORIGIN = 'https://audit.test';

declare global {
  interface Window {
    auditApi: AuditApi;
  }
}

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

async function load(page: Page): Promise<void> {
  await page.goto(`${ORIGIN}/`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
}

async function openLog(page: Page, name: string, segmentEvents: number): Promise<void> {
  await load(page);
  await page.evaluate(([n, s]) => window.auditApi.open(n, { segmentEvents: s }), [
    name,
    segmentEvents,
  ] as const);
}

const BASE = Date.UTC(2026, 0, 1);
const TOOLS = ['read_file', 'write_file', 'search.web', 'fetch-url', 'Ümlaut_Werkzeug'];
const SERVERS = ['files.example.com', 'web-1', 'mail'];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'Épée'];

/** Calls with mixed tools, servers, words and outcomes; every 13th started before its neighbours. */
function calls(count: number, prefix: string) {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i}`,
    tool: TOOLS[i % TOOLS.length]!,
    server: SERVERS[i % SERVERS.length]!,
    args: {
      path: `/srv/${WORDS[i % WORDS.length]}/${i}.txt`,
      n: i,
      note: i % 7 === 0 ? 'urgent review' : 'routine',
    },
    ...(i % 9 === 0 ? { caller: 'Notes assistant' } : {}),
    at: BASE + (i % 13 === 0 ? i - 30 : i) * 1000,
    outcome: (i % 29 === 0 ? 'pending' : i % 17 === 0 ? 'denied' : i % 11 === 0 ? 'tool-error' : 'success') as
      | 'pending'
      | 'denied'
      | 'tool-error'
      | 'success',
  }));
}

const QUERIES: AuditQuery[] = [
  {},
  { toolName: 'write_file' },
  { serverId: 'mail' },
  { serverId: 'mail', toolName: 'read_file' },
  { outcome: 'tool-error' },
  { outcome: ['denied', 'pending'] },
  { text: 'srv' },
  { text: 'ümlaut' },
  { text: 'example.com' },
  { text: 'exam alpha' },
  { text: 'fetch-url' },
  { text: '"n":4' },
  { text: 'URGENT' },
  { text: 'épée 1' },
  { text: 'nothing-like-this' },
  { from: BASE + 50_000, to: BASE + 150_000, text: 'txt' },
  { toolName: 'write_file', text: 'gamma', outcome: 'success' },
  // The caller: its label, and who it is in words ("the app (Notes assistant)").
  { text: 'notes assistant' },
  { text: 'app index' },
];

async function expectSameAsScan(page: Page): Promise<void> {
  for (const query of QUERIES) {
    const [indexed, scanned] = await page.evaluate(
      async (q) => [await window.auditApi.searchAll(q), await window.auditApi.searchByScan(q)],
      query,
    );
    expect(indexed, JSON.stringify(query)).toEqual(scanned);
    // The outcome chips' counts: each outcome among what the query's other filters find.
    if (query.outcome !== undefined) continue;
    const counted = await page.evaluate((q) => window.auditApi.countsOf(q), query);
    const byOutcome: Record<string, number> = {};
    for (const hit of scanned) {
      const outcome = hit.slice(hit.lastIndexOf(':') + 1);
      byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
    }
    expect(
      Object.fromEntries(Object.entries(counted).filter(([, n]) => n > 0)),
      `counts of ${JSON.stringify(query)}`,
    ).toEqual(byOutcome);
  }
}

test('search through sealed segments finds exactly what reading every entry finds, in the same order', async ({
  page,
}) => {
  await openLog(page, 'index-equivalence', 40);
  await page.evaluate((list) => window.auditApi.record(list), calls(260, 'c'));
  await page.evaluate(() => window.auditApi.settled());
  const state = await page.evaluate(() => window.auditApi.indexState());
  // Most entries are in segments, the newest few are not: both paths are exercised.
  expect(state.segments).toBeGreaterThan(5);
  expect(state.entriesInSegments).toBeGreaterThan(200);
  expect(state.entriesInSegments).toBeLessThan(260);
  expect(state.pendingInSegments).toBeGreaterThan(0);
  await expectSameAsScan(page);
  // Not vacuous: these find something, and the rest nothing.
  const found = await page.evaluate(async () => ({
    words: (await window.auditApi.searchAll({ text: 'exam alpha' })).length,
    umlaut: (await window.auditApi.searchAll({ text: 'ümlaut' })).length,
    none: (await window.auditApi.searchAll({ text: 'nothing-like-this' })).length,
    caller: (await window.auditApi.searchAll({ text: 'notes assistant' })).length,
  }));
  expect(found.words).toBeGreaterThan(5);
  expect(found.umlaut).toBe(52);
  expect(found.none).toBe(0);
  expect(found.caller).toBe(29);
  expect(await page.evaluate(() => window.auditApi.verify())).toMatchObject({ ok: true });
});

test('the pickers list every tool and server with an entry, sealed or not; events are counted as exported', async ({
  page,
}) => {
  await openLog(page, 'index-facets', 40);
  await page.evaluate((list) => window.auditApi.record(list), calls(120, 'f'));
  await page.evaluate(() => window.auditApi.settled());
  expect((await page.evaluate(() => window.auditApi.indexState())).segments).toBeGreaterThan(1);
  // One more tool and server, only in memory (not sealed yet).
  await page.evaluate(
    (list) => window.auditApi.record(list),
    [
      {
        id: 'late',
        tool: 'late_tool',
        server: 'late-server',
        args: {},
        at: BASE + 999_000,
        outcome: 'success' as const,
      },
    ],
  );
  const facets = await page.evaluate(() => window.auditApi.facets());
  const sorted = (names: string[]) => [...names].sort((a, b) => a.localeCompare(b));
  expect(facets).toEqual({
    serverIds: sorted([...SERVERS, 'late-server']),
    toolNames: sorted([...TOOLS, 'late_tool']),
  });
  const verification = await page.evaluate(() => window.auditApi.verify());
  expect(verification.ok).toBe(true);
  expect(await page.evaluate(() => window.auditApi.countEvents())).toBe(
    verification.ok && verification.count,
  );
});

test('a call sealed while pending shows its outcome when it finishes, before and after the next seal', async ({
  context,
}) => {
  const page = await context.newPage();
  await openLog(page, 'index-late-finish', 40);
  // Pending: early-0, -29, -58, -87 and -116.
  await page.evaluate((list) => window.auditApi.record(list), calls(120, 'early'));
  await page.evaluate(() => window.auditApi.settled());
  expect(await page.evaluate(() => window.auditApi.sealedOutcome('early-29'))).toBe('pending');
  // The call finishes in a tab that seals only after a million events: its later state can only
  // come from memory, shadowing the segment's copy.
  const other = await context.newPage();
  await openLog(other, 'index-late-finish', 1_000_000);
  await other.evaluate(() => window.auditApi.finish('early-29', 'tool-error'));
  for (const tab of [other, page]) {
    const pendingNow = await tab.evaluate(() => window.auditApi.searchAll({ outcome: 'pending' }));
    expect(pendingNow).toHaveLength(4);
    expect(pendingNow).not.toContain('early-29:pending');
    expect(await tab.evaluate(() => window.auditApi.get('early-29'))).toMatchObject({
      outcome: 'tool-error',
      seqs: [expect.any(Number), expect.any(Number)],
    });
    expect((await tab.evaluate(() => window.auditApi.counts())).pending).toBe(4);
    await expectSameAsScan(tab);
  }
  expect(await other.evaluate(() => window.auditApi.sealedOutcome('early-29'))).toBe('pending');

  // Enough later calls to seal again: the segment is patched in place, and a fresh context agrees.
  await page.evaluate((list) => window.auditApi.record(list), calls(60, 'later'));
  await page.evaluate(() => window.auditApi.settled());
  expect(await page.evaluate(() => window.auditApi.sealedOutcome('early-29'))).toBe('tool-error');
  await other.close();
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await page.evaluate(() => window.auditApi.open('index-late-finish', { segmentEvents: 40 }));
  // Reopening marks the calls left pending by the closed page interrupted (their session is gone).
  const after = await page.evaluate(() => window.auditApi.searchAll({}, 50));
  expect(after).toContain('early-29:tool-error');
  expect(after).toContain('early-58:interrupted');
  expect(after.filter((id) => id.endsWith(':pending'))).toEqual([]);
  const events = await page.evaluate(() => window.auditApi.eventsOf('early-29'));
  expect(events.map((event) => event.kind)).toEqual(['pending', 'final']);
  await expectSameAsScan(page);
  expect(await page.evaluate(() => window.auditApi.verify())).toMatchObject({ ok: true });
});

test('two tabs appending and sealing at once: one chain, every entry indexed once', async ({ context }) => {
  const first = await context.newPage();
  const second = await context.newPage();
  await openLog(first, 'index-two-tabs', 64);
  await openLog(second, 'index-two-tabs', 64);
  await Promise.all([
    first.evaluate(() => window.auditApi.appendMany(500, 'left')),
    second.evaluate(() => window.auditApi.appendMany(500, 'right')),
  ]);
  await Promise.all([
    first.evaluate(() => window.auditApi.settled()),
    second.evaluate(() => window.auditApi.settled()),
  ]);
  const verification = await first.evaluate(() => window.auditApi.verify());
  expect(verification).toMatchObject({ ok: true, count: 2000 });
  expect(verification.progress).toEqual([1000, 2000]);
  expect(await second.evaluate(() => window.auditApi.count())).toBe(1000);
  // Under contention a seal takes whatever piled up, so segments may be few and large.
  const state = await first.evaluate(() => window.auditApi.indexState());
  expect(state.entriesInSegments).toBeGreaterThan(900);
  expect(state.segmentRecords).toBe(state.segments);
  for (const page of [first, second]) {
    const all = await page.evaluate(() => window.auditApi.searchAll({}, 250));
    expect(all).toHaveLength(1000);
    expect(new Set(all).size).toBe(1000);
    expect(all.every((id) => id.endsWith(':success'))).toBe(true);
    const tool = await page.evaluate(() => window.auditApi.searchAll({ toolName: 'tool_3' }, 50));
    expect(tool).toEqual(await page.evaluate(() => window.auditApi.searchByScan({ toolName: 'tool_3' })));
    expect(tool.length).toBeGreaterThan(100);
  }
});

test('retention removes old entries from the index too; the rest verifies and exports', async ({ page }) => {
  await openLog(page, 'index-retention', 32);
  const list = Array.from({ length: 300 }, (_, i) => ({
    id: `r-${i}`,
    tool: `tool_${i % 4}`,
    server: 's',
    args: { note: `call${i} word${i % 10}` },
    at: BASE + i * 1000,
    outcome: 'success' as const,
  }));
  await page.evaluate((l) => window.auditApi.record(l), list);
  await page.evaluate(() => window.auditApi.settled());
  const before = await page.evaluate(() => window.auditApi.indexState());
  const report = await page.evaluate(() => window.auditApi.prune(100));
  expect(report.removedEntries).toBe(200);
  expect(await page.evaluate(() => window.auditApi.count())).toBe(100);
  const after = await page.evaluate(() => window.auditApi.indexState());
  expect(after.segments).toBeLessThan(before.segments);
  expect(after.segmentRecords).toBe(after.segments);
  expect(await page.evaluate(() => window.auditApi.searchAll({ text: 'call150' }))).toEqual([]);
  expect(await page.evaluate(() => window.auditApi.searchAll({ text: 'call250' }))).toEqual([
    'r-250:success',
  ]);
  expect(await page.evaluate(() => window.auditApi.get('r-10'))).toBeUndefined();
  expect(await page.evaluate(() => window.auditApi.searchAll({ text: 'word3' }))).toHaveLength(10);
  const verification = await page.evaluate(() => window.auditApi.verify());
  expect(verification).toMatchObject({ ok: true, count: 200 });
  const round = await page.evaluate(() => window.auditApi.exportRoundTrip('ndjson'));
  expect(round).toMatchObject({ events: 200, entries: 100, verification: { ok: true, count: 200 } });
  await expectSameAsScan(page);
});

test('a version 1 log is upgraded in place: it verifies as before, is searchable, and keeps growing', async ({
  page,
}) => {
  await load(page);
  const v1Calls: V1Call[] = calls(120, 'old');
  const v1 = await page.evaluate((list) => window.auditApi.writeV1Log('legacy', list, 20), v1Calls);
  await page.evaluate(() => window.auditApi.open('legacy', { segmentEvents: 64 }));

  // The calls version 1 left pending (their page is long gone) are marked interrupted on opening.
  const leftPending = v1Calls.slice(20).filter((call) => call.outcome === 'pending').length;
  expect(leftPending).toBeGreaterThan(0);
  const verification = await page.evaluate(() => window.auditApi.verify());
  expect(verification).toMatchObject({ ok: true, count: v1.events.length + leftPending });
  expect(await page.evaluate(() => window.auditApi.count())).toBe(100);
  // The stored events are the version 1 events, hashes and all.
  const id = v1Calls[42]!.id;
  const events = await page.evaluate((i) => window.auditApi.eventsOf(i), id);
  expect(events).toEqual(v1.events.filter((event) => event.invocationId === id));
  const interrupted = v1Calls.slice(20).find((call) => call.outcome === 'pending')!.id;
  const chain = await page.evaluate((i) => window.auditApi.eventsOf(i), interrupted);
  expect(chain.map((event) => event.kind)).toEqual(['pending', 'interrupted']);
  expect(chain[1]!.seq).toBeGreaterThan(v1.head.seq);
  await expectSameAsScan(page);
  expect((await page.evaluate(() => window.auditApi.searchAll({ text: 'épée' }))).length).toBeGreaterThan(10);

  await page.evaluate((list) => window.auditApi.record(list), calls(80, 'new'));
  await page.evaluate(() => window.auditApi.settled());
  expect(await page.evaluate(() => window.auditApi.count())).toBe(180);
  await expectSameAsScan(page);
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-audit-v1-'));
  const file = join(dir, 'upgraded.ndjson');
  writeFileSync(file, await page.evaluate(() => window.auditApi.exportText('ndjson')));
  const out = execFileSync(process.execPath, ['scripts/verify-audit-export.mjs', file], { encoding: 'utf8' });
  expect(out).toMatch(/^ok: \d+ events, head \d+ sha256:[0-9a-f]{64}/);
});

test('an event edited before the upgrade still fails verification after it', async ({ page }) => {
  await load(page);
  const v1Calls: V1Call[] = calls(30, 'old').map((call) => ({ ...call, outcome: 'success' as const }));
  await page.evaluate((list) => window.auditApi.writeV1Log('legacy-edited', list), v1Calls);
  await page.evaluate(() => window.auditApi.tamperV1('legacy-edited', 7));
  await page.evaluate(() => window.auditApi.open('legacy-edited', { segmentEvents: 64 }));
  const verification = await page.evaluate(() => window.auditApi.verify());
  expect(verification).toMatchObject({ ok: false, seq: 7, checked: 6 });
  expect((verification as { reason: string }).reason).toContain('changed');
});

test('removing the newest indexed events is reported by verify', async ({ page }) => {
  await openLog(page, 'index-truncated', 16);
  await page.evaluate(
    (list) => window.auditApi.record(list),
    calls(40, 't').map((c) => ({ ...c, outcome: 'success' as const })),
  );
  await page.evaluate(() => window.auditApi.settled());
  const { sealedThrough } = await page.evaluate(() => window.auditApi.indexState());
  expect(sealedThrough).toBeGreaterThan(60);
  await page.evaluate(() => window.auditApi.close());
  // Each call's two events were appended one at a time: one block each. Remove past the sealed point.
  for (let seq = 80; seq >= sealedThrough; seq--)
    await page.evaluate(() => window.auditApi.removeNewestBlock('index-truncated'));
  await page.evaluate(() => window.auditApi.open('index-truncated', { segmentEvents: 16 }));
  const verification = await page.evaluate(() => window.auditApi.verify());
  expect(verification).toMatchObject({ ok: false, seq: sealedThrough });
  expect((verification as { reason: string }).reason).toContain('newer events were removed');
});

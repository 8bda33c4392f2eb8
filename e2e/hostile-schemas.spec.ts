/**
 * Tool definitions a server got wrong, or made hostile, as a person meets them in the panel (issue
 * 24), in Chromium against a real SDK 1.x server (e2e/peers/hostile-catalog.mjs):
 * - a chain of 5,000 `$ref`s and an enum of 100,000 values: listing, opening and calling such a tool
 *   never blocks the page's main thread for more than 200 ms (the page's own `longtask` entries say
 *   so), and every call attempt ends in the audit log, as a call or as a refusal with its reason;
 * - input schemas that are not objects: listed as not callable with a reason a person can read, and
 *   refused (on record) with that reason when called;
 * - two tools under one name: flagged in the Tools view;
 * - a definition that changed since Toolgate first saw it: every approval dialog shows the change
 *   until the person has answered one that showed it.
 */
import { expect, type Page, test } from '@playwright/test';
import { bundle } from './support/bundle.js';
import { type Peer, startPeer } from './support/peers.js';

const ORIGIN = 'https://hostile-schemas.test';
/** A main-thread task longer than this is a freeze a person notices (and the page cannot answer input). */
const LONG_TASK_MS = 200;
test.use({ permissions: ['local-network-access'] });
test.describe.configure({ mode: 'serial' });

let peer: Peer;
test.beforeAll(async () => {
  peer = await startPeer('hostile-catalog');
});
test.afterAll(async () => {
  await peer?.stop();
});

const caseUrl = (name: string) => peer.url.replace(/\/mcp\/plain$/, `/mcp/${name}`);

type Window = {
  toolgate: {
    call(s: string, t: string, a: object, caller?: object): Promise<unknown>;
    ready: Promise<{
      auditLog?: {
        verify(): Promise<{ ok: boolean }>;
        query(q: object): Promise<{ entries: { outcome: string; reason?: string }[] }>;
      };
    }>;
  };
  verifyAudit(): Promise<{ ok: boolean } | undefined>;
  __longTasks: number[];
};

async function openPanel(page: Page, servers: { case: string; id: string }[]): Promise<void> {
  const script = await bundle('e2e/fixtures/hostile-panel/page.ts');
  // Every main-thread task over 50 ms, from the first script on: the page's own measurements.
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(Math.round(entry.duration));
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/page.js'
      ? route.fulfill({ contentType: 'application/javascript', body: script })
      : route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><html lang="en"><title>Hostile schemas</title><main><h1>Host app</h1><script type="module" src="/page.js"></script></main></html>',
        }),
  );
  const query = servers.map((s) => `server=${encodeURIComponent(caseUrl(s.case))}&id=${s.id}`);
  await page.goto(`${ORIGIN}/?${query.join('&')}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  for (const s of servers)
    await expect(page.locator(`[data-server="${s.id}"] .tg-badge`)).toContainText('connected', {
      timeout: 30_000,
    });
}

/** The main-thread tasks over LONG_TASK_MS since the page loaded, in ms. */
async function longTasks(page: Page): Promise<number[]> {
  // One more frame, so a task that just ended has been reported.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
  const all = await page.evaluate(() => (window as unknown as Window).__longTasks);
  return all.filter((duration) => duration > LONG_TASK_MS);
}

/** The audit log's entries for one tool: outcome and, for a refusal, its reason. */
async function auditOf(page: Page, tool: string): Promise<{ outcome: string; reason?: string }[]> {
  return page.evaluate(async (toolName) => {
    const log = (await (window as unknown as Window).toolgate.ready).auditLog;
    const { entries } = (await log?.query({ toolName })) ?? { entries: [] };
    return entries.map((e) => ({ outcome: e.outcome, ...(e.reason ? { reason: e.reason } : {}) }));
  }, tool);
}

async function auditVerifies(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as Window).verifyAudit())).toMatchObject({ ok: true });
}

for (const { caseName, tool, label, limit } of [
  {
    caseName: 'ref-chain',
    tool: 'chain',
    label: 'a chain of 5,000 $refs',
    limit: 'the schema has more than 1000 references',
  },
  {
    caseName: 'big-enum',
    tool: 'pick',
    label: 'an enum of 100,000 values',
    limit: 'an enum at properties.choice lists 100000 values (the limit is 5000)',
  },
]) {
  test(`${label}: listing, opening and calling never block the page over ${LONG_TASK_MS} ms, and every attempt is on record`, async ({
    page,
  }) => {
    await openPanel(page, [{ case: caseName, id: 'bomb' }]);
    await page.getByRole('tab', { name: 'Tools' }).click();
    await page.locator('.tg-tool-button', { hasText: tool }).first().click();
    await expect(page.locator('.tg-tool-detail')).toBeVisible();
    expect(await longTasks(page), 'list and open').toEqual([]);

    // The person's call from the form: asked, with the reason the arguments cannot be checked.
    const form = page.locator('.tg-try');
    await form.getByRole('button', { name: /^Call / }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(limit);
    expect(await longTasks(page), 'the approval dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Deny' }).click();
    await expect(form.getByRole('status').last()).toContainText('denied');
    await expect.poll(() => auditOf(page, tool)).toEqual([{ outcome: 'denied', reason: expect.any(String) }]);

    // A host's code calling it: refused (nothing sent), with the reason, on record.
    const refused = await page.evaluate(
      ({ tool }) =>
        (window as unknown as Window).toolgate
          .call(
            'bomb',
            tool,
            { value: 'x', choice: 'value-7' },
            {
              kind: 'site',
              label: 'https://agent.example',
            },
          )
          .then(
            () => 'ran',
            (error: Error) => error.message,
          ),
      { tool },
    );
    expect(refused).toContain(limit);
    expect(await longTasks(page), 'the calls').toEqual([]);
    const entries = await auditOf(page, tool);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toEqual({ outcome: 'denied', reason: expect.stringContaining(limit) });
    expect((await peer.events()).calls.filter((c) => c.tool === tool)).toEqual([]);
    await auditVerifies(page);
  });
}

/**
 * Tool definitions a server got wrong, or made hostile, as a person meets them in the panel (issue
 * 24), in Chromium against a real SDK 1.x server (e2e/peers/hostile-catalog.mjs):
 * - a chain of 5,000 `$ref`s and an enum of 100,000 values: such a tool can be listed, opened and
 *   called, the panel does not grow with the schema (its elements are counted, never timed: the walks'
 *   bounds are proven in schema-form.test.ts and poisoning.test.ts, their cost in bench/catalog.mjs),
 *   and every call attempt ends in the audit log, as a call or as a refusal with its reason;
 * - input schemas that are not objects: listed as not callable with a reason a person can read, and
 *   refused (on record) with that reason when called;
 * - two tools under one name: flagged in the Tools view;
 * - a definition that changed since Toolgate first saw it: every approval dialog shows the change
 *   until the person has answered one that showed it.
 */
import { expect, type Page, test } from '@playwright/test';
import { type HostileServer, openHostilePanel } from './support/hostile-panel.js';
import { type Peer, startPeer } from './support/peers.js';

const ORIGIN = 'https://hostile-schemas.test';
/**
 * Elements the panel may hold while showing a hostile schema: a form that grew with the schema (one
 * option per enum value, one field per $ref) would hold tens of thousands. Counted, not timed: how
 * long the panel takes belongs in bench/catalog.mjs, and a timed bound failed on busy machines.
 */
const MAX_PANEL_ELEMENTS = 3_000;
test.use({ permissions: ['local-network-access'] });
test.describe.configure({ mode: 'serial' });

let peer: Peer;
test.beforeAll(async () => {
  peer = await startPeer('hostile-catalog');
});
test.afterAll(async () => {
  await peer?.stop();
});

type Window = {
  toolgate: {
    call(request: object): Promise<unknown>;
    ready: Promise<{
      auditLog?: {
        verify(): Promise<{ ok: boolean }>;
        query(q: object): Promise<{ entries: { outcome: string; reason?: string }[] }>;
      };
    }>;
  };
  verifyAudit(): Promise<{ ok: boolean } | undefined>;
};

const openPanel = (page: Page, servers: HostileServer[]) =>
  openHostilePanel(page, peer, { origin: ORIGIN, title: 'Hostile schemas' }, servers);

/** How many elements the panel's shadow root holds now. */
function panelElements(page: Page): Promise<number> {
  return page.evaluate(
    () => document.querySelector('toolgate-panel')?.shadowRoot?.querySelectorAll('*').length ?? 0,
  );
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
  test(`${label}: listing, opening and calling stay within bounds (the panel does not grow with the schema), and every attempt is on record`, async ({
    page,
  }) => {
    await openPanel(page, [{ case: caseName, id: 'bomb' }]);
    await page.getByRole('tab', { name: 'Tools' }).click();
    await page.locator('.tg-tool-button', { hasText: tool }).first().click();
    await expect(page.locator('.tg-tool-detail')).toBeVisible();
    expect(await panelElements(page), 'list and open').toBeLessThan(MAX_PANEL_ELEMENTS);

    // The person's call from the form: asked, with the reason the arguments cannot be checked.
    const form = page.locator('.tg-try');
    await form.getByRole('button', { name: /^Call / }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(limit);
    expect(await panelElements(page), 'the approval dialog').toBeLessThan(MAX_PANEL_ELEMENTS);
    await dialog.getByRole('button', { name: 'Deny' }).click();
    await expect(form.getByRole('status').last()).toContainText('denied');
    await expect.poll(() => auditOf(page, tool)).toEqual([{ outcome: 'denied', reason: expect.any(String) }]);

    // A host's code calling it: refused (nothing sent), with the reason, on record.
    const refused = await page.evaluate(
      ({ tool }) =>
        (window as unknown as Window).toolgate
          .call({
            serverId: 'bomb',
            toolName: tool,
            arguments: { value: 'x', choice: 'value-7' },
            caller: {
              kind: 'site',
              label: 'https://agent.example',
            },
          })
          .then(
            () => 'ran',
            (error: Error) => error.message,
          ),
      { tool },
    );
    expect(refused).toContain(limit);
    const entries = await auditOf(page, tool);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toEqual({ outcome: 'denied', reason: expect.stringContaining(limit) });
    expect((await peer.events()).calls.filter((c) => c.tool === tool)).toEqual([]);
    await auditVerifies(page);
  });
}

test('tools whose inputSchema is not an object are listed as not callable with the reason, and calls to them are refused on record', async ({
  page,
}) => {
  await openPanel(page, [{ case: 'invalid-schemas', id: 'invalid' }]);
  await page.getByRole('tab', { name: 'Tools' }).click();
  const excluded = page.getByRole('list', { name: 'Listed, but cannot be called' }).getByRole('listitem');
  const fix = 'not an object: the server must fix its tool definition.';
  await expect(excluded).toHaveText([
    `null_schema on hostile-catalog-invalid-schemas: not callable, inputSchema is null, ${fix}`,
    `string_schema on hostile-catalog-invalid-schemas: not callable, inputSchema is a string, ${fix}`,
    `array_schema on hostile-catalog-invalid-schemas: not callable, inputSchema is an array, ${fix}`,
    `number_schema on hostile-catalog-invalid-schemas: not callable, inputSchema is a number, ${fix}`,
  ]);
  // The usable tool is still there to call.
  await expect(page.locator('.tg-tool-button', { hasText: 'echo' })).toHaveCount(1);

  const refused = await page.evaluate(() =>
    (window as unknown as Window).toolgate
      .call({ serverId: 'invalid', toolName: 'string_schema', arguments: {} })
      .then(
        () => 'ran',
        (error: Error) => error.message,
      ),
  );
  expect(refused).toContain(
    'inputSchema is a string, not an object: the server must fix its tool definition',
  );
  expect(await auditOf(page, 'string_schema')).toEqual([
    {
      outcome: 'denied',
      reason: expect.stringContaining(
        'inputSchema is a string, not an object: the server must fix its tool definition',
      ),
    },
  ]);
  expect((await peer.events()).calls.filter((c) => c.tool === 'string_schema')).toEqual([]);
  await auditVerifies(page);
});

test('a name listed twice is flagged in the Tools view and in the approval dialog; different twins are refused on record', async ({
  page,
}) => {
  await openPanel(page, [{ case: 'twins', id: 'twins' }]);
  await page.getByRole('tab', { name: 'Tools' }).click();
  for (const name of ['twin', 'pair'])
    await expect(
      page
        .locator('.tg-tool-button', {
          has: page.locator('.tg-tool-title', { hasText: new RegExp(`^${name}$`) }),
        })
        .locator('.tg-badge-danger', { hasText: 'name listed twice' }),
    ).toHaveCount(2);

  // Two identical definitions under one name: the call can reach the person, who is told.
  const pair = page.evaluate(() =>
    (window as unknown as Window).toolgate.call({ serverId: 'twins', toolName: 'pair', arguments: {} }).then(
      () => 'ran',
      (error: Error) => error.name,
    ),
  );
  const dialog = page.getByRole('dialog');
  await expect(
    dialog.getByRole('list', { name: 'Problems with how the server lists this tool' }),
  ).toContainText('Another tool of this server has the same name');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await pair).toBe('DeniedError');

  // Two different definitions under one name: refused before anyone is asked, on record.
  const twin = await page.evaluate(() =>
    (window as unknown as Window).toolgate.call({ serverId: 'twins', toolName: 'twin', arguments: {} }).then(
      () => 'ran',
      (error: Error) => error.message,
    ),
  );
  expect(twin).not.toBe('ran');
  expect(await auditOf(page, 'twin')).toEqual([{ outcome: 'denied', reason: twin }]);
  await auditVerifies(page);
});

test('a definition changed since first seen is shown in every approval dialog, whoever calls, until the person has answered one', async ({
  page,
}) => {
  await openPanel(page, [{ case: 'changing', id: 'chg' }]);
  await page.getByRole('tab', { name: 'Tools' }).click();
  await page.locator('.tg-tool-button', { hasText: 'lookup' }).click();
  await expect(page.locator('.tg-tool-detail')).toContainText('Looks up a word in the dictionary.');

  // The server changes the tool and says so (tools/list_changed); the panel follows.
  const changed = await fetch(peer.url.replace(/\/mcp\/plain$/, '/__control/change/changing'), {
    method: 'POST',
  });
  expect(changed.ok).toBe(true);
  await expect(page.locator('.tg-tool-detail')).toContainText('collector number', { timeout: 15_000 });

  // The host app's agent calls it: it has no remembered approval, yet the change is shown.
  const callAs = (caller: object | undefined) =>
    page.evaluate(
      (caller) =>
        (window as unknown as Window).toolgate
          .call({ serverId: 'chg', toolName: 'lookup', arguments: { word: 'hello' }, caller: caller })
          .then(
            () => 'ran',
            (error: Error) => error.name,
          ),
      caller,
    );
  const first = callAs({ kind: 'host', label: 'agent' });
  const dialog = page.getByRole('dialog');
  const diff = dialog.locator('.tg-diff');
  await expect(diff.locator('summary').first()).toContainText('changed since first seen');
  await expect(diff.locator('.tg-before').first()).toContainText('Looks up a word in the dictionary.');
  await expect(diff.locator('.tg-after').first()).toContainText('collector number');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await first).toBe('DeniedError');

  // Answered once: the next dialog, for another caller, no longer shows it.
  const second = callAs(undefined);
  await expect(dialog.getByRole('button', { name: 'Deny' })).toBeVisible();
  await expect(dialog).toContainText('lookup');
  await expect(dialog.locator('.tg-diff')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await second).toBe('DeniedError');

  // The acknowledgement is kept in the settings store: still seen after a reload.
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await expect(page.locator('[data-server="chg"] .tg-badge')).toContainText('connected', { timeout: 30_000 });
  const third = callAs({ kind: 'host', label: 'agent' });
  await expect(dialog.getByRole('button', { name: 'Deny' })).toBeVisible();
  await expect(dialog.locator('.tg-diff')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await third).toBe('DeniedError');
  await auditVerifies(page);
});

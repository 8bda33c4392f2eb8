/**
 * Servers and first run (issue 26), in Chromium against real servers: the list comes first, each
 * server with a coloured dot and its state in words, trust explained once; "+ Add server" takes a
 * scheme-less loopback URL and a configuration pasted from another client (saying what it left
 * out); a failed add is shown at its field with Edit and Remove; a server that needs signing in
 * offers it on a card instead of opening a dialog on load, and "Not now" is recorded as declined;
 * Activity says who stopped a call in plain words.
 */
import { createServer } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { type OidcProtected, startOidcProtected } from './peers/oidc-protected.mjs';
import { type Peer, startPeer } from './support/peers.js';
import { closeAfterEach, exportedLog, openSignInPage, signInSiteForFile } from './support/sign-in-site.js';
import { axe, openTab, openWidget } from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });

let sdk: Peer;
test.beforeAll(async () => {
  sdk = await startPeer('sdk1-stateful-sse');
});
test.afterAll(async () => {
  await sdk?.stop();
});

/** A loopback port nobody listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The order in which two elements of the panel come (true when `first` precedes `second`). */
const precedes = (page: Page, first: string, second: string) =>
  page.evaluate(
    ([a, b]) => {
      const root = document.querySelector('toolgate-panel')!.shadowRoot!;
      const x = root.querySelector(a!);
      const y = root.querySelector(b!);
      return !!x && !!y && (x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    },
    [first, second],
  );

test('the list comes first, with a coloured dot and words per state, and trust explained once', async ({
  page,
}) => {
  const down = await closedPort();
  await openWidget(
    page,
    [
      { url: sdk.url, id: 'sdk' },
      { url: `http://127.0.0.1:${down}/mcp`, id: 'down' },
    ],
    { failing: ['down'] },
  );
  const connected = page.locator('[data-server="sdk"]');
  const failed = page.locator('[data-server="down"]');
  await expect(connected).toHaveAttribute('data-status', 'connected');
  await expect(connected.locator('.tg-badge')).toContainText(/^connected · \d+ tools · /);
  await expect(failed).toHaveAttribute('data-status', 'failed');
  await expect(failed.locator('.tg-badge')).toHaveText('failed');
  // The dots differ in colour, and the words say the state beside them.
  const colour = (row: typeof connected) =>
    row.locator('.tg-dot').evaluate((dot) => getComputedStyle(dot).backgroundColor);
  expect(await colour(connected)).not.toBe(await colour(failed));
  // No "legacy": the protocol is named by its date.
  await expect(connected.locator('.tg-badge')).not.toContainText('legacy');
  await expect(connected.locator('.tg-badge')).toContainText(/protocol|older protocol \(\d{4}-\d{2}-\d{2}\)/);
  // Trust is explained once, under the list, not on every card.
  await expect(page.locator('.tg-trust-note')).toHaveCount(1);
  await expect(
    page.locator('.tg-server').filter({ hasText: 'Annotations from untrusted servers' }),
  ).toHaveCount(0);
  // The list first, the add form behind "+ Add server".
  await expect(page.getByLabel(/^Server URL/)).toHaveCount(0);
  expect(await precedes(page, '.tg-server-list', '.tg-add-toggle')).toBe(true);
  // A failure beside the server offers Edit and Remove, not only Retry.
  const problem = page.locator('[data-problem="down"]');
  await expect(problem.getByRole('button', { name: /^Retry / })).toBeVisible();
  await expect(problem.getByRole('button', { name: /^Edit / })).toBeVisible();
  await problem.getByRole('button', { name: /^Remove / }).click();
  await expect(page.locator('[data-server="down"]')).toHaveCount(0);
  await axe(page, 'servers list');
});

test('+ Add server takes a scheme-less loopback URL, a pasted configuration (naming what it left out), and refuses other schemes', async ({
  page,
}) => {
  await openWidget(page, []);
  // With no server yet, the form is open: there is nothing else to do.
  const field = page.getByLabel(/^Server URL/);
  await field.fill('javascript:alert(1)');
  await page.getByRole('button', { name: 'Add server', exact: true }).click();
  await expect(page.locator('.tg-add-server .tg-error')).toContainText(
    '“javascript:” addresses are not supported',
  );
  await expect(field).toHaveAttribute('aria-invalid', 'true');

  const schemeless = sdk.url.replace(/^http:\/\//, '');
  expect(schemeless).toMatch(/^127\.0\.0\.1:\d+\//);
  await field.fill(
    JSON.stringify({
      mcpServers: { Files: { url: schemeless }, git: { command: 'npx', args: ['server-git'] } },
    }),
  );
  await page.getByRole('button', { name: 'Add server', exact: true }).click();
  await expect(page.locator('.tg-add-server [role=status]')).toContainText(
    'Left out: “git” (it starts a local program',
  );
  const row = page.locator('.tg-server', { hasText: 'Files' });
  await expect(row).toHaveAttribute('data-status', 'connected', { timeout: 20_000 });
  await expect(row).toContainText(sdk.url.replace(/\/$/, ''));
  await expect(field).toHaveValue('');
  await axe(page, 'add form');
});

test('a failed add is shown at its field with Edit and Remove, and said once', async ({ page }) => {
  await openWidget(page, [{ url: sdk.url, id: 'sdk' }]);
  await page.getByRole('button', { name: '+ Add server' }).click();
  const field = page.getByLabel(/^Server URL/);
  await expect(field).toBeFocused();
  const first = await closedPort();
  await field.fill(`localhost:${first}/mcp`);
  await page.getByRole('button', { name: 'Add server', exact: true }).click();
  const atField = page.locator('.tg-add-failed');
  await expect(atField).toContainText('could not connect', { timeout: 20_000 });
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveValue(`localhost:${first}/mcp`);
  // Said at the field, not again in the problems above the list.
  await expect(page.getByRole('region', { name: 'Connection problems' })).toHaveCount(0);
  const failedId = await atField.getAttribute('data-add-failed');
  expect(failedId).toContain(`localhost:${first}`);

  // Edit: change the address and connect again; the failed server is replaced, not kept beside it.
  await atField.getByRole('button', { name: 'Edit' }).click();
  await expect(field).toBeFocused();
  const second = await closedPort();
  await field.fill(`127.0.0.1:${second}/mcp`);
  await page.getByRole('button', { name: 'Save and connect' }).click();
  await expect(page.locator(`.tg-add-failed[data-add-failed*="127.0.0.1:${second}"]`)).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.locator(`[data-server="${failedId}"]`)).toHaveCount(0);
  await expect(page.locator('.tg-server')).toHaveCount(2);

  // Remove: the failed server goes, and the field is clear for the next address.
  await page.locator('.tg-add-failed').getByRole('button', { name: 'Remove' }).click();
  await expect(page.locator('.tg-server')).toHaveCount(1);
  await expect(page.locator('.tg-add-failed')).toHaveCount(0);
  await expect(field).toHaveValue('');
});

test.describe('sign-in on first run', () => {
  const site = signInSiteForFile('e2e/fixtures/sign-in-modes/page.ts', 'Servers first run');
  let peer: OidcProtected | undefined;
  closeAfterEach(() => peer);

  test('no dialog on load: a card offers sign-in, and "Not now" is recorded as declined, not failed', async ({
    page,
    context,
  }) => {
    peer = await startOidcProtected();
    await openSignInPage(page, site, { server: peer.urls.good });
    const card = page.locator('[data-sign-in-card="notes"]');
    await expect(card).toContainText('Notes asks you to sign in at', { timeout: 20_000 });
    await expect(card).toContainText(new URL(peer.issuer).origin);
    // The sign-in is waiting (its card is shown from the same state): no dialog opened by itself.
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.locator('[data-server="notes"]')).toHaveAttribute('data-status', 'sign-in');
    await expect(page.locator('[data-server="notes"] .tg-badge')).toHaveText('needs sign-in');
    expect(context.pages()).toHaveLength(1);
    await axe(page, 'sign-in card');

    // The dialog comes when the person asks for it.
    await card.getByRole('button', { name: 'Sign in to Notes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to Notes?' });
    await expect(dialog).toContainText(new URL(peer.issuer).origin);
    await dialog.getByRole('button', { name: 'Not now' }).click();
    await expect(page.locator('[data-not-signed-in="notes"]')).toContainText(/chose not to sign in/, {
      timeout: 20_000,
    });
    expect(peer.seen.authorizations).toHaveLength(0);

    // On record as the person's refusal, not as a failure that never happened.
    await expect.poll(() => exportedLog(page)).toContain('auth/sign-in-declined');
    const log = await exportedLog(page);
    expect(log).not.toContain('auth/sign-in-failed');
    expect(log).toContain('You chose not to sign in');
    // The audit view names it plainly and says who decided.
    await page.getByRole('tab', { name: 'Audit log' }).click();
    const declined = page.getByRole('button', { name: /^Details of Sign-in declined/ });
    await expect(declined).toHaveCount(1);
    await expect(page.locator('.tg-log-table tbody tr').first()).toContainText('Sign-in declined');
    await declined.click();
    const drawer = page.getByRole('dialog', { name: /Sign-in declined/ });
    await expect(drawer).toContainText('You declined to sign in (Not now)');
    await expect(drawer).not.toContainText('Refused by policy');
  });
});

test('Activity says who stopped a call, in plain words', async ({ page }) => {
  await openWidget(page, [{ url: sdk.url, id: 'sdk' }]);
  // Calls from the host app keep the full approval dialog.
  const call = (toolName: string, args: object) =>
    page.evaluate(
      ([name, input]) =>
        (window as unknown as { toolgate: { call(request: object): Promise<unknown> } }).toolgate
          .call({
            serverId: 'sdk',
            toolName: name,
            arguments: input,
            caller: { kind: 'host', label: 'tests' },
          })
          .then(
            () => 'ok',
            (error: Error) => error.message,
          ),
      [toolName, args] as const,
    );
  const denied = call('echo', { message: 'hi' });
  await page.getByRole('dialog').getByRole('button', { name: 'Deny' }).click();
  expect(await denied).toMatch(/denied/);
  await openTab(page, /Activity/);
  const latest = page.locator('.tg-finished-call').first();
  await expect(latest).toContainText('You denied this call');
  await expect(latest).not.toContainText('The person denied');

  const slept = call('sleep', { ms: 60_000 });
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  const running = page.locator('.tg-running-call');
  await expect(running).toContainText('running');
  await running.getByRole('button', { name: 'Cancel' }).click();
  expect(await slept).not.toBe('ok');
  await expect(page.locator('.tg-finished-call').first()).toContainText(/Cancelled by you after \d/);
  await expect(page.locator('.tg-finished-call').first()).not.toContainText('was cancelled');
});

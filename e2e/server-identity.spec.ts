/**
 * A server's identity is its exact address, in the widget in Chromium against our SDK 1.x server:
 * two servers added from the panel at one host and path that differ only in their query
 * (`?tenant=a`, `?tenant=b`) are two servers, and what the person decided about one (trust, "Always
 * allow") is not applied to the other; removing a server forgets its trust and approvals, so adding
 * it again asks again. The server's own record of calls is the evidence of what ran.
 */
import { expect, type Page, test } from '@playwright/test';
import { type Peer, startPeer } from './support/peers.js';
import { fillServerUrl, openWidget } from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });

let sdk: Peer;
test.beforeAll(async () => {
  sdk = await startPeer('sdk1-stateful-sse');
});
test.afterAll(async () => {
  await sdk?.stop();
});

/** Adds a server from the panel's form, as a person does; resolves with the id it was given. */
async function addFromPanel(page: Page, url: string): Promise<string> {
  await page.getByRole('tab', { name: 'Servers' }).click();
  await fillServerUrl(page, url);
  await page.getByRole('button', { name: 'Add server' }).click();
  await expect(page.getByRole('button', { name: 'Add server' })).toBeEnabled({ timeout: 20_000 });
  await expect(page.locator('.tg-add-server .tg-error')).toHaveCount(0);
  const id = await page.evaluate(
    (address) =>
      (
        window as unknown as {
          toolgate: { servers: { value: { id: string; config: { url?: string } }[] } };
        }
      ).toolgate.servers.value.find((server) => server.config.url === address)?.id,
    url,
  );
  if (!id) throw new Error(`${url} was not added`);
  await expect(page.locator(`[data-server="${id}"] .tg-badge`)).toContainText('connected', {
    timeout: 20_000,
  });
  return id;
}

/** Calls a tool as the host app's model; resolves with "ran" or the error's name. */
function callAsHost(page: Page, serverId: string, toolName: string, args: object): Promise<string> {
  return page.evaluate(
    ([server, tool, input]) =>
      (
        window as unknown as {
          toolgate: { call(request: object): Promise<unknown> };
        }
      ).toolgate
        .call({
          serverId: server,
          toolName: tool,
          arguments: input,
          caller: { kind: 'host', label: 'the assistant' },
        })
        .then(
          () => 'ran',
          (error: Error) => error.name,
        ),
    [serverId, toolName, args] as const,
  );
}

const setTrust = (page: Page, serverId: string) =>
  page.evaluate(
    (id) =>
      (
        window as unknown as { toolgate: { setTrust(id: string, trust: string): Promise<void> } }
      ).toolgate.setTrust(id, 'trusted'),
    serverId,
  );

const calls = async () =>
  (await sdk.events()).calls.map((call) => `${call.tool} ${JSON.stringify(call.arguments)}`);

/** Trusts the server and gives the host "Always allow" for echo on it, then shows both apply. */
async function trustAndAlwaysAllow(page: Page, serverId: string): Promise<void> {
  await setTrust(page, serverId);
  const first = callAsHost(page, serverId, 'echo', { message: 'first' });
  await page.getByRole('dialog').getByRole('button', { name: 'Always allow this tool' }).click();
  expect(await first).toBe('ran');
  // Remembered: the same call again runs unasked.
  expect(await callAsHost(page, serverId, 'echo', { message: 'again' })).toBe('ran');
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

test('?tenant=a and ?tenant=b are two servers: trust and "Always allow" given to one are not the other’s', async ({
  page,
}) => {
  await openWidget(page, []);
  const before = (await calls()).length;
  const a = await addFromPanel(page, `${sdk.url}?tenant=a`);
  const b = await addFromPanel(page, `${sdk.url}?tenant=b`);
  expect(a).not.toBe(b);
  expect(a).toBe(`${sdk.url}?tenant=a`);
  await trustAndAlwaysAllow(page, a);

  // The same call at tenant b is asked, and the dialog says which server it is.
  const atB = callAsHost(page, b, 'echo', { message: 'to b' });
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('tenant=b');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await atB).toBe('DeniedError');
  // Tenant b is not trusted either.
  await expect(page.locator(`[data-server="${b}"] select`)).toHaveValue('untrusted');
  await expect(page.locator(`[data-server="${a}"] select`)).toHaveValue('trusted');
  expect((await calls()).slice(before)).toEqual(['echo {"message":"first"}', 'echo {"message":"again"}']);
});

test('a server removed and added again is asked again: its trust and approvals went with it', async ({
  page,
}) => {
  await openWidget(page, []);
  const before = (await calls()).length;
  const url = `${sdk.url}?tenant=a`;
  const id = await addFromPanel(page, url);
  await trustAndAlwaysAllow(page, id);

  await page.locator(`[data-server="${id}"]`).getByRole('button', { name: 'Remove' }).click();
  await expect(page.locator(`[data-server="${id}"]`)).toHaveCount(0);
  await page.getByRole('tab', { name: 'Approvals' }).click();
  await expect(page.locator('.tg-remembered tbody tr', { hasText: 'echo' })).toHaveCount(0);

  expect(await addFromPanel(page, url)).toBe(id);
  await expect(page.locator(`[data-server="${id}"] select`)).toHaveValue('untrusted');
  const again = callAsHost(page, id, 'echo', { message: 'after re-adding' });
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('echo');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await again).toBe('DeniedError');
  expect((await calls()).slice(before)).toEqual(['echo {"message":"first"}', 'echo {"message":"again"}']);
});

test('a later page at the same host and path with another query does not inherit what was decided for the first', async ({
  page,
}) => {
  await openWidget(page, []);
  const before = (await calls()).length;
  const a = await addFromPanel(page, `${sdk.url}?tenant=a`);
  await trustAndAlwaysAllow(page, a);

  // The settings live in this origin's IndexedDB; the next visit works for tenant b.
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  const b = await addFromPanel(page, `${sdk.url}?tenant=b`);
  await expect(page.locator(`[data-server="${b}"] select`)).toHaveValue('untrusted');
  const atB = callAsHost(page, b, 'echo', { message: 'to b' });
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Allow echo');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await atB).toBe('DeniedError');
  expect((await calls()).slice(before)).toEqual(['echo {"message":"first"}', 'echo {"message":"again"}']);
});

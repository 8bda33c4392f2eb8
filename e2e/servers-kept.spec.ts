/**
 * Servers that stay, in Chromium against real SDK servers (issue 30): servers the person adds and
 * those the host adds with `controller.addServer({ url })` are listed and connect again after a
 * reload; Forget ends that; a host that turns keeping off keeps nothing; nothing secret rests in
 * clear in IndexedDB. Import from Claude Desktop and VS Code files (stdio entries skipped with the
 * reason), export in VS Code's format, and the demo's `?server=` deep link that asks first.
 */
import { expect, type Page, test } from '@playwright/test';
import type { Controller } from '../src/widget.js';
import { type Peer, startPeer } from './support/peers.js';
import { buildAndServeSite, type StaticServer } from './support/static-server.js';
import { axe, openWidget } from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });

let sdk: Peer;
let other: Peer;
test.beforeAll(async () => {
  [sdk, other] = await Promise.all([startPeer('sdk1-stateful-sse'), startPeer('sdk1-stateless-json')]);
});
test.afterAll(async () => {
  await Promise.all([sdk?.stop(), other?.stop()]);
});

const row = (page: Page, url: string) =>
  page.locator('.tg-server', { hasText: new URL(url).host }).filter({ hasText: new URL(url).pathname });

/** Adds a server through the add form, as a person does, and waits until it is connected and kept. */
async function addFromForm(page: Page, url: string): Promise<void> {
  const toggle = page.getByRole('button', { name: '+ Add server' });
  if (await toggle.isVisible()) await toggle.click();
  await page.getByLabel('Server URL, or a pasted configuration').fill(url);
  await page.getByRole('button', { name: 'Add server', exact: true }).click();
}

/** The host adds a server with the controller, as an app does; resolves to its id. */
function addAsHost(page: Page, config: Record<string, unknown>): Promise<string> {
  return page.evaluate(
    (c) => (window as unknown as { toolgate: Controller }).toolgate.addServer(c).then((s) => s.id),
    config,
  );
}

async function reload(page: Page): Promise<void> {
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
}

/** Every value in every IndexedDB database of the page, as text (what rests on disk, sealed or not). */
function everythingStored(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const out: string[] = [];
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(info.name!);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const name of db.objectStoreNames) {
        const all = await new Promise<unknown[]>((resolve) => {
          const request = db.transaction(name).objectStore(name).getAll();
          request.onsuccess = () => resolve(request.result);
        });
        const keys = await new Promise<unknown[]>((resolve) => {
          const request = db.transaction(name).objectStore(name).getAllKeys();
          request.onsuccess = () => resolve(request.result);
        });
        out.push(JSON.stringify([info.name, name, keys, all]));
      }
      db.close();
    }
    return out.join('\n');
  });
}

test('servers added by the person and by the host are listed and connect again after a reload; Forget ends it', async ({
  page,
}) => {
  await openWidget(page, []);
  await addFromForm(page, sdk.url);
  await expect(row(page, sdk.url).locator('.tg-badge')).toContainText('connected', { timeout: 20_000 });
  await addAsHost(page, { url: other.url });
  await expect(row(page, other.url).locator('.tg-badge')).toContainText('connected', { timeout: 20_000 });
  // Kept once written: each then offers Forget.
  await expect(row(page, sdk.url).getByRole('button', { name: /^Forget / })).toBeVisible();
  await expect(row(page, other.url).getByRole('button', { name: /^Forget / })).toBeVisible();

  await reload(page);
  await expect(row(page, sdk.url).locator('.tg-badge')).toContainText('connected', { timeout: 20_000 });
  await expect(row(page, other.url).locator('.tg-badge')).toContainText('connected', { timeout: 20_000 });
  await expect(page.locator('.tg-server')).toHaveCount(2);

  await row(page, sdk.url)
    .getByRole('button', { name: /^Forget / })
    .click();
  await expect(row(page, sdk.url)).toHaveCount(0);
  await reload(page);
  await expect(row(page, other.url).locator('.tg-badge')).toContainText('connected', { timeout: 20_000 });
  await expect(row(page, sdk.url)).toHaveCount(0);
  await expect(page.locator('.tg-server')).toHaveCount(1);
});

test('a host that adds its server on every load gets it once, with its own config', async ({ page }) => {
  await openWidget(page, []);
  expect(await addAsHost(page, { url: sdk.url, id: 'mine' })).toBe('mine');
  await expect(page.locator('[data-server="mine"]').getByRole('button', { name: /^Forget / })).toBeVisible({
    timeout: 20_000,
  });
  await reload(page);
  // Listed from the kept list, then added again by the host: one row, connected, no "already" error.
  await expect(page.locator('[data-server="mine"] .tg-badge')).toContainText('connected', {
    timeout: 20_000,
  });
  expect(await addAsHost(page, { url: sdk.url, id: 'mine', label: 'Mine again' })).toBe('mine');
  await expect(page.locator('[data-server="mine"] .tg-badge')).toContainText('connected', {
    timeout: 20_000,
  });
  await expect(page.locator('.tg-server')).toHaveCount(1);
  await expect(page.locator('[data-server="mine"] strong')).toHaveText('Mine again');
});

test('a host that turns keeping off keeps nothing', async ({ page }) => {
  await openWidget(page, [], { query: 'keep=off' });
  await addAsHost(page, { url: sdk.url });
  await expect(row(page, sdk.url).locator('.tg-badge')).toContainText('connected', { timeout: 20_000 });
  await expect(row(page, sdk.url).getByRole('button', { name: /^Forget / })).toHaveCount(0);
  await reload(page);
  await expect(page.getByText('No servers yet.')).toBeVisible();
  expect(await everythingStored(page)).not.toContain(new URL(sdk.url).host);
});

test('a URL secret and headers are never stored in clear, and come back for the connection', async ({
  page,
}) => {
  await openWidget(page, []);
  const url = `${sdk.url}?api_key=tg-kept-key-123456`;
  await addAsHost(page, { url, headers: { Authorization: 'Bearer tg-kept-token-654321' } });
  await expect(row(page, sdk.url).getByRole('button', { name: /^Forget / })).toBeVisible({ timeout: 20_000 });
  const stored = await everythingStored(page);
  expect(stored).toContain(new URL(sdk.url).host);
  expect(stored).not.toContain('tg-kept-key-123456');
  expect(stored).not.toContain('tg-kept-token-654321');

  // What the page sends on the reconnection, as Chromium sent it.
  const sent: (string | undefined)[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(sdk.url) && request.method() === 'POST')
      sent.push(request.headers().authorization);
  });
  await reload(page);
  await expect(row(page, sdk.url).locator('.tg-badge')).toContainText('connected', { timeout: 20_000 });
  expect(sent.length).toBeGreaterThan(0);
  expect(new Set(sent)).toEqual(new Set(['Bearer tg-kept-token-654321']));
  const config = await page.evaluate(
    () => (window as unknown as { toolgate: Controller }).toolgate.servers.value[0]!.config,
  );
  expect(config).toMatchObject({ url, headers: { Authorization: 'Bearer tg-kept-token-654321' } });
});

test('import a Claude Desktop and a VS Code file: remote entries shown before they are added, stdio skipped', async ({
  page,
}) => {
  await openWidget(page, []);
  const claudeDesktop = JSON.stringify({
    mcpServers: {
      files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
      mine: { command: 'npx', args: ['-y', 'mcp-remote', sdk.url] },
    },
  });
  const vscode = JSON.stringify({
    servers: {
      remote: { type: 'http', url: other.url, headers: { Authorization: 'Bearer tg-import-key' } },
      fetch: { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] },
    },
  });

  await page.getByRole('button', { name: 'Import a file or export the list…' }).click();
  const file = page.getByLabel(/A configuration file/);
  await file.setInputFiles({
    name: 'claude_desktop_config.json',
    mimeType: 'application/json',
    buffer: Buffer.from(claudeDesktop),
  });
  const list = page.getByRole('list', { name: 'Servers in the file' });
  await expect(page.getByText('Read as Claude or Cursor')).toBeVisible();
  await expect(list.locator('[data-import="files"]')).toContainText(
    'skipped, it starts a program on your computer (stdio)',
  );
  await expect(list.locator('[data-import="mine"]')).toContainText('bridged through mcp-remote');
  // The stdio entry comes with the bridge recipe, made from its own command line and this page's origin.
  await list.locator('[data-import="files"]').getByText('Use files here through a bridge').click();
  const origin = new URL(page.url()).origin;
  await expect(list.locator('[data-import="files"] code').first()).toHaveText(
    `npx -y supergateway --stdio "npx -y @modelcontextprotocol/server-filesystem /tmp" --outputTransport streamableHttp --port 8000 --cors "${origin}"`,
  );
  await expect(list.locator('[data-import="files"]')).toContainText('Then add http://127.0.0.1:8000/mcp');
  // Nothing is added before the person presses the button.
  await expect(page.locator('.tg-server')).toHaveCount(0);
  await axe(page, 'import preview');
  await page.getByRole('button', { name: 'Add 1 server' }).click();
  await expect(page.locator('[role=status]', { hasText: 'Added 1 server' })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.tg-server', { hasText: 'mine' }).locator('.tg-badge')).toContainText(
    'connected',
  );

  await file.setInputFiles({ name: 'mcp.json', mimeType: 'application/json', buffer: Buffer.from(vscode) });
  await expect(page.getByText('Read as VS Code')).toBeVisible();
  await expect(list.locator('[data-import="fetch"]')).toContainText('skipped');
  // Its header is named, and sent only if the person ticks it.
  const headers = list.getByLabel(/Also send its headers: Authorization/);
  await expect(headers).not.toBeChecked();
  await headers.check();
  const sent: (string | undefined)[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(other.url) && request.method() === 'POST')
      sent.push(request.headers().authorization);
  });
  await page.getByRole('button', { name: 'Add 1 server' }).click();
  await expect(page.locator('.tg-server', { hasText: 'remote' }).locator('.tg-badge')).toContainText(
    'connected',
    {
      timeout: 20_000,
    },
  );
  expect(sent).toContain('Bearer tg-import-key');
});

test('export the list in VS Code format, without headers or URL secrets', async ({ page }) => {
  await openWidget(page, [{ url: sdk.url, id: 'sdk', label: 'Docs' }]);
  await addAsHost(page, { url: `${other.url}?token=tg-export-secret`, label: 'Other', headers: { A: 'b' } });
  await page.getByRole('button', { name: '+ Add server' }).click();
  await page.getByRole('button', { name: 'Import a file or export the list…' }).click();
  await expect(page.getByLabel('Format')).toHaveValue('vscode');
  const text = page.locator('.tg-export-text');
  await expect(text).toContainText('"Other"');
  const exported = JSON.parse((await text.textContent()) ?? '');
  expect(exported).toEqual({
    servers: {
      Docs: { type: 'http', url: sdk.url },
      Other: { type: 'http', url: `${other.url}?token=***` },
    },
  });
  await expect(page.getByText('Headers and secrets in URLs are left out')).toBeVisible();
  await axe(page, 'export');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download mcp.json' }).click();
  expect((await download).suggestedFilename()).toBe('mcp.json');
  await page.getByLabel('Format').selectOption('urls');
  await expect(text).toHaveText(`${sdk.url}\n${other.url}?token=***\n`);
});

test.describe('the demo page’s deep link', () => {
  let site: StaticServer;
  test.beforeAll(async () => {
    site = await buildAndServeSite();
  });
  test.afterAll(async () => {
    await site?.stop();
  });

  test('?server= asks first, connects only when the person adds it, and refuses other schemes', async ({
    page,
  }) => {
    const before = (await other.events()).messages.length;
    const link = `${site.origin}/?server=${encodeURIComponent(other.url)}&name=Linked&server=${encodeURIComponent('javascript:alert(1)')}`;
    await page.goto(link);
    const dialog = page.getByRole('dialog', { name: 'Add servers from this link?' });
    await expect(dialog).toContainText(other.url);
    await expect(dialog).toContainText(`connects to ${new URL(other.url).origin}`);
    await expect(dialog).toContainText('Not offered: “javascript:” addresses are not servers');
    // Asked, not connected: the server has heard nothing.
    expect((await other.events()).messages.length).toBe(before);
    await dialog.getByRole('button', { name: 'Not now' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.locator('.tg-server', { hasText: 'Linked' })).toHaveCount(0);
    expect((await other.events()).messages.length).toBe(before);

    await page.goto(link);
    await page.getByRole('dialog').getByRole('button', { name: 'Add server' }).click();
    await page.getByRole('tab', { name: 'Servers' }).click();
    const linked = page.locator('.tg-server', { hasText: 'Linked' });
    await expect(linked.locator('.tg-badge')).toContainText('connected', { timeout: 20_000 });
    // The query is cleared, and the server is kept: a reload lists it without asking again.
    expect(new URL(page.url()).search).toBe('');
    await page.reload();
    await page.getByRole('tab', { name: 'Servers' }).click();
    await expect(page.locator('.tg-server', { hasText: 'Linked' }).locator('.tg-badge')).toContainText(
      'connected',
      {
        timeout: 20_000,
      },
    );
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('&transport=sse connects a legacy HTTP+SSE server without trying Streamable HTTP, now and after a reload', async ({
    page,
  }) => {
    const legacy = await startPeer('sdk1-legacy-sse');
    try {
      // Every request the page makes to the peer: detection would first POST to the SSE endpoint.
      const posts: string[] = [];
      const endpoint = new URL(legacy.url);
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (
          url.origin === endpoint.origin &&
          url.pathname === endpoint.pathname &&
          request.method() === 'POST'
        )
          posts.push(request.url());
      });
      await page.goto(`${site.origin}/?server=${encodeURIComponent(legacy.url)}&name=Legacy&transport=sse`);
      const dialog = page.getByRole('dialog', { name: 'Add servers from this link?' });
      await expect(dialog).toContainText('over HTTP+SSE');
      await dialog.getByRole('button', { name: 'Add server' }).click();
      await page.getByRole('tab', { name: 'Servers' }).click();
      const linked = page.locator('.tg-server', { hasText: 'Legacy' });
      await expect(linked.locator('.tg-badge')).toContainText('connected', { timeout: 20_000 });
      // The peer heard the legacy handshake on its own paths (GET /sse, POST /messages) only.
      const heard = await legacy.events();
      expect(heard.streams.length).toBeGreaterThan(0);
      expect(heard.messages.map((message) => message.method)).toContain('initialize');
      expect(posts).toEqual([]);

      // Kept with its transport: the next visit connects the same way.
      await page.reload();
      await page.getByRole('tab', { name: 'Servers' }).click();
      await expect(page.locator('.tg-server', { hasText: 'Legacy' }).locator('.tg-badge')).toContainText(
        'connected',
        { timeout: 20_000 },
      );
      expect(posts).toEqual([]);
    } finally {
      await legacy.stop();
    }
  });
});

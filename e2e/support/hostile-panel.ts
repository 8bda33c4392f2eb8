/**
 * The hostile-panel fixture (e2e/fixtures/hostile-panel/page.ts) opened on cases of the hostile
 * catalog peer (e2e/peers/hostile-catalog.mjs, one case per path), as the specs about hostile
 * catalogs, schemas and titles open it: said once here.
 */
import { expect, type Page } from '@playwright/test';
import { serveFixture } from './fixture-page.js';
import type { Peer } from './peers.js';

/** One server of the page: a case of the hostile catalog peer under a panel id. */
export interface HostileServer {
  case: string;
  id: string;
}

/** The URL of one case of a running hostile-catalog peer. */
function hostileCaseUrl(peer: Peer, name: string): string {
  return peer.url.replace(/\/mcp\/plain$/, `/mcp/${name}`);
}

/** Serves the fixture at `origin`, opens it on `servers` and waits until each is connected. */
export async function openHostilePanel(
  page: Page,
  peer: Peer,
  where: { origin: string; title: string },
  servers: HostileServer[],
  options: { timeoutMs?: number } = {},
): Promise<void> {
  await serveFixture(page, where.origin, 'e2e/fixtures/hostile-panel/page.ts', where.title);
  const query = servers.map((s) => `server=${encodeURIComponent(hostileCaseUrl(peer, s.case))}&id=${s.id}`);
  if (options.timeoutMs) query.push(`timeout=${options.timeoutMs}`);
  await page.goto(`${where.origin}/?${query.join('&')}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  for (const s of servers)
    await expect(page.locator(`[data-server="${s.id}"] .tg-badge`)).toContainText('connected', {
      timeout: 30_000,
    });
}

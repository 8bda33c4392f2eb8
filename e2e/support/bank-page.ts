/**
 * The grants fixture page (e2e/fixtures/grants/page.ts) against the bank peer, and the calls the
 * scoped-grant and batch specs make from it: as the host's model (`host.run`, `host.runMany`) or
 * as a web site (the controller with a site caller).
 */
import { expect, type Page } from '@playwright/test';
import type { BankPeer } from '../fixtures/grants/start-peer.js';
import { serveFixture } from './fixture-page.js';

export const BANK_ORIGIN = 'https://bank-host.test';

export async function openBank(page: Page, peer: BankPeer): Promise<void> {
  await serveFixture(page, BANK_ORIGIN, 'e2e/fixtures/grants/page.ts', 'Toolgate grants');
  await page.goto(`${BANK_ORIGIN}/?server=${encodeURIComponent(peer.url)}&id=bank`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await expect(page.locator('[data-server="bank"]')).toContainText('connected', { timeout: 20_000 });
}

/** A call by the host's model; resolves to the tool's text or the error's name. */
export function modelCall(page: Page, tool: string, args: Record<string, unknown> = {}): Promise<string> {
  return page.evaluate(
    `window.host.run(${JSON.stringify({ serverId: 'bank', toolName: tool, arguments: args })}).then((o) => o.error ? o.error.name : o.result.content[0].text)`,
  ) as Promise<string>;
}

/** Several calls the model proposed at once; resolves to each one's text or error name, in order. */
export function modelBatch(
  page: Page,
  calls: { tool: string; args?: Record<string, unknown> }[],
): Promise<string[]> {
  const list = calls.map((c) => ({ serverId: 'bank', toolName: c.tool, arguments: c.args ?? {} }));
  return page.evaluate(
    `window.host.runMany(${JSON.stringify(list)}).then((all) => all.map((o) => o.error ? o.error.name : o.result.content[0].text))`,
  ) as Promise<string[]>;
}

/** A call by a web site through the controller; resolves to the tool's text or the error's name. */
export function siteCall(page: Page, tool: string, args: Record<string, unknown> = {}): Promise<string> {
  const request = {
    serverId: 'bank',
    toolName: tool,
    arguments: args,
    caller: { kind: 'site', label: 'https://a.example' },
  };
  return page.evaluate(
    `window.toolgate.call(${JSON.stringify(request)}).then((r) => r.result.content[0].text, (e) => e.name)`,
  ) as Promise<string>;
}

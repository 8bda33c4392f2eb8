/**
 * The widget's test page (e2e/fixtures/widget/page.ts) served at a fixed https origin, with the
 * helpers the widget specs share: open it with servers, run axe, take a screenshot for a reviewer,
 * and read what has focus inside the panel's shadow root.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { serveFixture } from './fixture-page.js';

export const WIDGET_ORIGIN = 'https://widget.test';

export interface PanelServer {
  url: string;
  id: string;
  /** A label of the person's (else the server's own name). */
  label?: string;
}

/** Opens the test page with `servers` and waits until each is connected (or, with `failing`, failed). */
export async function openWidget(
  page: Page,
  servers: PanelServer[],
  /** `failing`: servers expected to fail; `query`: more of the page's query (`confirmOwnCalls=always`). */
  options: { failing?: readonly string[]; query?: string } = {},
): Promise<void> {
  await serveFixture(page, WIDGET_ORIGIN, 'e2e/fixtures/widget/page.ts', 'Toolgate widget');
  const query = servers
    .map(
      (s) =>
        `server=${encodeURIComponent(s.url)}&id=${encodeURIComponent(s.id)}&label=${encodeURIComponent(s.label ?? '')}`,
    )
    .join('&');
  await page.goto(`${WIDGET_ORIGIN}/?${query}${options.query ? `&${options.query}` : ''}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  for (const s of servers)
    await expect(page.locator(`[data-server="${s.id}"] .tg-badge`)).toContainText(
      options.failing?.includes(s.id) ? 'failed' : 'connected',
      { timeout: 30_000 },
    );
}

export async function axe(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${screen}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

/** What has focus inside the panel's shadow root: its tag, id, text and accessible hints, or null. */
export function focusInPanel(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('toolgate-panel')?.shadowRoot;
    const active = root?.activeElement as HTMLElement | null | undefined;
    if (!active) return null;
    return {
      tag: active.tagName.toLowerCase(),
      id: active.id,
      text: (active.textContent ?? '').trim().slice(0, 80),
      label: active.getAttribute('aria-label') ?? '',
    };
  });
}

/** Opens a tab of the panel by its name. */
export async function openTab(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('tab', { name }).click();
}

/** Tools tab, search for `tool`, pick the first tool so named, and wait for its detail. */
export async function pickTool(page: Page, tool: string): Promise<void> {
  await openTab(page, 'Tools');
  await page.getByLabel('Search tools').fill(tool);
  await page
    .locator('.tg-tool-button', { hasText: new RegExp(`^${tool}\\b`) })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: tool, level: 3 })).toBeVisible();
}

/** The widths that would show a horizontal scroll bar: the page's and the panel's. */
export function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('toolgate-panel')?.shadowRoot?.querySelector('.tg-root') as
      | HTMLElement
      | undefined;
    const doc = document.documentElement;
    return {
      page: doc.scrollWidth - doc.clientWidth,
      panel: root ? root.scrollWidth - root.clientWidth : Number.NaN,
    };
  });
}

/**
 * Types `url` into the Servers view's add form, opening it first with "+ Add server" when the list
 * has servers (the form then waits behind that button).
 */
export async function fillServerUrl(page: Page, url: string): Promise<void> {
  const field = page.getByLabel(/^Server URL/);
  const toggle = page.getByRole('button', { name: '+ Add server' });
  await expect(field.or(toggle)).toBeVisible();
  if (await toggle.isVisible()) await toggle.click();
  await field.fill(url);
}

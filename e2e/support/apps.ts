/**
 * What the MCP Apps suites (the widget's apps.spec.ts and the side panel's extension-apps.spec.ts)
 * both do with the official basic app (`get-time`, rendered by ui://get-time/mcp-app.html): find
 * it, wait for it to run in the Apps tab, let its button's call be denied then allowed, and try a
 * fetch its CSP does not declare against a real server that counts what reaches it.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Frame, type Page } from '@playwright/test';
import { serveFixture } from './fixture-page.js';

/** Where the apps' test page is served, and the sandbox proxy on an origin of its own. */
export const APPS_PAGE_ORIGIN = 'https://widget.test';
export const SANDBOX_ORIGIN = 'https://apps-sandbox.test';
export const SANDBOX_URL = `${SANDBOX_ORIGIN}/mcp-app-sandbox.html`;

/** Serves the apps' test page (e2e/fixtures/apps/page.ts) and Toolgate's sandbox proxy page. */
export async function serveAppsPage(page: Page): Promise<void> {
  const sandboxPage = await readFile('public/mcp-app-sandbox.html', 'utf8');
  await page.route(`${SANDBOX_ORIGIN}/**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: sandboxPage }),
  );
  await serveFixture(page, APPS_PAGE_ORIGIN, 'e2e/fixtures/apps/page.ts', 'Toolgate apps');
}

export const BASIC_APP = 'ui://get-time/mcp-app.html';

/** The figure in the panel's Apps tab that holds the basic app (the newest first). */
export const basicAppFigure = (page: Page) => page.locator(`figure[data-app="${BASIC_APP}"]`);

/** The basic app's own document: the sandbox proxy's inner frame. */
export const basicApp = (page: Page) =>
  page.frameLocator(`figure[data-app="${BASIC_APP}"] iframe`).frameLocator('iframe');

/**
 * Shows the Apps tab and waits until the basic app runs there and its frame has its reported height
 * (until then it is 160 px, and the app's document scrolls inside it). The tests press the app's
 * buttons with the keyboard: a pointer click is aimed at where the button was, and a frame that
 * resizes or a document that scrolls back between aim and click sends it elsewhere (CI saw both).
 */
export async function showBasicAppTab(page: Page): Promise<void> {
  await page.getByRole('tab', { name: /^Apps/ }).click();
  const figure = basicAppFigure(page);
  await expect(figure).toHaveAttribute('data-app-state', 'running', { timeout: 20_000 });
  const frame = figure.locator('iframe');
  await expect
    .poll(async () => (await frame.boundingBox())?.height ?? 0)
    .toBeGreaterThan(INITIAL_FRAME_HEIGHT);
}

/** The height an app's frame has before the app reports its own (src/ui/views/app-view.tsx). */
const INITIAL_FRAME_HEIGHT = 160;

/** Every console line `page` writes from now on, in order. */
export function consoleLinesOf(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (message) => lines.push(message.text()));
  return lines;
}

/**
 * The app's "Get Server Time" button, twice: the approval dialog names the app; denied (with a
 * reason the panel shows) nothing reaches the server, allowed the call is sent and the app shows
 * the new time. `toolCalls` is what the server's recording proxy saw; one get-time came before.
 * `screenshot`: a path to capture the page at while the dialog asks.
 */
export async function denyThenAllowAppCall(
  page: Page,
  toolCalls: () => string[],
  screenshot?: string,
): Promise<void> {
  await basicApp(page).getByRole('button', { name: 'Get Server Time' }).press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Asked by the MCP App ${BASIC_APP}`);
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  await dialog.getByLabel(/Reason if you deny/).fill('not from the app');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'App requests that did not succeed' })).toContainText(
    'not from the app',
  );
  expect(toolCalls()).toEqual(['get-time']);

  const before = await basicApp(page).locator('#server-time').textContent();
  await basicApp(page).getByRole('button', { name: 'Get Server Time' }).press('Enter');
  await expect(dialog).toContainText(BASIC_APP);
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect.poll(toolCalls).toEqual(['get-time', 'get-time']);
  await expect(basicApp(page).locator('#server-time')).not.toHaveText(before ?? '');
}

/** What an app's fetch and image load of an address came to, and the CSP violations they raised. */
export interface ReachAttempt {
  fetched: string;
  image: string;
  violations: string[];
}

/**
 * Runs `attempt` with the address of a real server on 127.0.0.1 (open to any origin) that counts
 * the requests reaching it, and returns what the attempt saw and that count; the server is closed
 * after.
 */
export async function againstCountingServer(
  attempt: (url: string) => Promise<ReachAttempt>,
): Promise<{ url: string; outcome: ReachAttempt; hits: number }> {
  let hits = 0;
  const target = createServer((_request, response) => {
    hits++;
    response.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/exfiltrate`;
  try {
    return { url, outcome: await attempt(url), hits };
  } finally {
    await new Promise<void>((resolve) => target.close(() => resolve()));
  }
}

/** In the app's frame: fetch `url` and load `url`.png as an image, recording CSP violations. */
export const tryToReach = (frame: Frame, url: string): Promise<ReachAttempt> =>
  frame.evaluate(async (address) => {
    const violations: string[] = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(`${event.effectiveDirective} ${event.blockedURI}`),
    );
    const fetched = await fetch(address).then(
      () => 'fetched',
      (error: Error) => `failed: ${error.name}`,
    );
    const image = await new Promise<string>((resolve) => {
      const img = new Image();
      img.onload = () => resolve('loaded');
      img.onerror = () => resolve('failed');
      img.src = `${address}.png`;
    });
    // Violation events are dispatched after the failure itself.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { fetched, image, violations };
  }, url);

/** Builds the extension once and loads it unpacked into a persistent Chromium context. */

import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BrowserContext,
  type CDPSession,
  chromium,
  expect,
  type Page,
  type Worker,
} from '@playwright/test';
import { sitePattern } from '../../extension/site-patterns.js';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';

export const EXTENSION_DIR = join(process.cwd(), 'dist', 'extension');
/** A host name that resolves to 127.0.0.1 but is not loopback to Chrome: a plain-http site "out there". */
export const REMOTE_HTTP_HOST = 'insecure.test';

/** How long Chrome may take to start the extension's service worker on a busy machine. */
const WORKER_START_TIMEOUT_MS = 30_000;

export interface LoadedExtension {
  context: BrowserContext;
  extensionId: string;
  serviceWorker(): Promise<Worker>;
  /** The side panel's page, opened in a tab (the real side panel cannot be opened from a test). */
  openPanel(): Promise<Page>;
  /**
   * The person turns Toolgate on for a site from the panel's Sites tab ("Let this site use your
   * tools"). Chrome then shows its permission prompt, which Playwright cannot click; the test gives
   * the answer the person would, beforehand, where a person can give it too: the extension's
   * "Site access" in chrome://extensions. Chrome then grants the extension's own request without
   * showing the prompt, and everything after it is the extension's real path.
   */
  turnOnSite(panel: Page, origin: string): Promise<void>;
  /**
   * The answer the person gives Chrome's host-permission prompt for `origin`, given beforehand in
   * chrome://extensions (Playwright cannot click Chrome's prompt): the extension's own request for
   * that origin is then granted without showing it.
   */
  allowOriginInSettings(origin: string): Promise<void>;
  /**
   * Reports the service worker's running state ("running", "stopped", ...) as Chrome's DevTools
   * protocol sees it, from a page that does not talk to the worker (so watching never wakes it).
   */
  watchWorker(): Promise<WorkerWatch>;
  close(): Promise<void>;
}

export interface WorkerWatch {
  status(): string;
  /** Stops the worker (as Chrome does when it is idle) and waits until it has stopped. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

/** The Sites tab's row for exactly this origin (one port is never mistaken for a longer one). */
export function siteRow(panel: Page, origin: string) {
  return panel.locator('.tg-server').filter({
    has: panel.locator('strong', {
      hasText: new RegExp(`^${origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    }),
  });
}

/** `args`: more Chromium switches (`--enable-features=WebMCP` for the tab's WebMCP tools). */
export async function launchWithExtension(options: { args?: string[] } = {}): Promise<LoadedExtension> {
  // Built once by e2e/global-setup.ts; never rebuilt here, where another worker may be using it.
  await access(join(EXTENSION_DIR, 'manifest.json')).catch(() => {
    throw new Error(`${EXTENSION_DIR} has no manifest.json: run \`npm run build:extension\`.`);
  });
  const profile = await mkdtemp(join(tmpdir(), 'toolgate-extension-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
      `--host-resolver-rules=MAP ${REMOTE_HTTP_HOST} 127.0.0.1`,
      ...(options.args ?? []),
    ],
    ignoreDefaultArgs: ['--disable-extensions'],
  });
  const serviceWorker = async () =>
    context.serviceWorkers()[0] ??
    (await context
      .waitForEvent('serviceworker', { timeout: WORKER_START_TIMEOUT_MS })
      .catch((error: unknown) => {
        throw new Error(
          `The extension in ${EXTENSION_DIR} did not start its service worker within ${WORKER_START_TIMEOUT_MS / 1000} s: Chrome could not load it.`,
          { cause: error },
        );
      }));
  const extensionId = new URL((await serviceWorker()).url()).host;
  const allowOriginInSettings = async (origin: string) => {
    const settings = await context.newPage();
    await settings.goto(`chrome://extensions/?id=${extensionId}`);
    await settings.evaluate(
      ([id, pattern]) =>
        (
          chrome as unknown as {
            developerPrivate: { addHostPermission(id: string, host: string): Promise<void> };
          }
        ).developerPrivate.addHostPermission(id!, pattern!),
      [extensionId, sitePattern(origin)],
    );
    await settings.close();
  };
  return {
    context,
    extensionId,
    serviceWorker,
    async openPanel() {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/sidepanel.html`);
      return page;
    },
    allowOriginInSettings,
    async turnOnSite(panel, origin) {
      await allowOriginInSettings(origin);
      await panel.getByRole('tab', { name: 'Sites' }).click();
      await panel.getByLabel('Site address').fill(origin);
      await panel.getByRole('button', { name: 'Let this site use your tools' }).click();
      await expect(
        panel.getByRole('status').filter({ hasText: `Toolgate is on for ${origin}` }),
      ).toBeVisible();
      await expect(siteRow(panel, origin).locator('.tg-site-state')).toHaveText('on');
    },
    async watchWorker() {
      // An extension resource with no script: a DevTools session there sees the extension's worker.
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/manifest.json`);
      const session: CDPSession = await context.newCDPSession(page);
      let status = 'unknown';
      session.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
        for (const version of versions)
          if (version.scriptURL.endsWith('/background.js')) status = version.runningStatus;
      });
      await session.send('ServiceWorker.enable');
      await expect.poll(() => status).not.toBe('unknown');
      return {
        status: () => status,
        async stop() {
          await session.send('ServiceWorker.stopAllWorkers');
          await expect.poll(() => status).toBe('stopped');
        },
        async close() {
          await session.detach();
          await page.close();
        },
      };
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

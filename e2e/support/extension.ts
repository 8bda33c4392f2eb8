/** Builds the extension once and loads it unpacked into a persistent Chromium context. */

import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type BrowserContext, chromium, type Page, type Worker } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';

export const EXTENSION_DIR = join(process.cwd(), 'dist', 'extension');

let built: Promise<void> | undefined;
/** `npm run build:extension`, once per test run. */
export function buildExtension(): Promise<void> {
  built ??= promisify(execFile)(process.execPath, ['scripts/build-extension.mjs'], {
    cwd: process.cwd(),
  }).then(() => undefined);
  return built;
}

export interface LoadedExtension {
  context: BrowserContext;
  extensionId: string;
  serviceWorker(): Promise<Worker>;
  /** The side panel's page, opened in a tab (the real side panel cannot be opened from a test). */
  openPanel(): Promise<Page>;
  close(): Promise<void>;
}

export async function launchWithExtension(): Promise<LoadedExtension> {
  await buildExtension();
  const profile = await mkdtemp(join(tmpdir(), 'toolgate-extension-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
    ],
    ignoreDefaultArgs: ['--disable-extensions'],
  });
  const serviceWorker = async () =>
    context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL((await serviceWorker()).url()).host;
  return {
    context,
    extensionId,
    serviceWorker,
    async openPanel() {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/sidepanel.html`);
      return page;
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

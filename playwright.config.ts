import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './e2e/support/chromium.js';

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  timeout: 60_000,
  // Assertions wait for what a busy CI machine takes to get there (a worker starting, a frame
  // loading); a wrong value still fails, only later.
  expect: {
    timeout: 10_000,
    // Screenshots (e2e/screenshots.spec.ts, extension-screenshots.spec.ts): one font is forced and
    // what varies is frozen (two runs here are pixel-identical), so 1% only absorbs another machine's
    // anti-aliasing; a moved, missing or reworded element is more than that.
    toHaveScreenshot: { maxDiffPixelRatio: 0.01, animations: 'disabled', caret: 'hide', scale: 'css' },
  },
  // Baselines without a platform suffix: CI runs Linux too, and the font is forced.
  snapshotPathTemplate: '{testDir}/__screenshots__/{testFilePath}/{arg}{ext}',
  workers: 2,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    headless: true,
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
  },
});

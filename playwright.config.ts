import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './e2e/support/chromium.js';

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  timeout: 60_000,
  // Assertions wait for what a busy CI machine takes to get there (a worker starting, a frame
  // loading); a wrong value still fails, only later.
  expect: { timeout: 10_000 },
  workers: 2,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    headless: true,
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
  },
});

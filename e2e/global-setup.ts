/**
 * Runs once, in Playwright's main process, before any worker starts. The extension is built here
 * rather than by each worker: a second worker's build empties dist/extension while the first
 * worker's Chromium may be loading it, and an extension loaded from a half-written directory never
 * starts its service worker (the test then waits out its whole timeout).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export default async function globalSetup(): Promise<void> {
  await promisify(execFile)(process.execPath, ['scripts/build-extension.mjs'], { cwd: process.cwd() });
}

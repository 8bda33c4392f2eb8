// The browser every Playwright test drives, found the same way on every system (scripts/chromium.mjs).
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumForThisMachine } from '../../scripts/chromium.mjs';

export { CHROMIUM_ARGS };
export const CHROMIUM = chromiumForThisMachine(chromium).path;

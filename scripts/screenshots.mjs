#!/usr/bin/env node
// `node scripts/screenshots.mjs`: the manual's screenshots of each panel tab (docs/screenshots/),
// taken from `npm start`'s demo in headless Chromium after one approved call, at 900 x 700.
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumForThisMachine } from './chromium.mjs';

const out = join(process.cwd(), 'docs', 'screenshots');
await mkdir(out, { recursive: true });
const server = spawn(process.execPath, ['scripts/start.mjs'], { env: { ...process.env, PORT: '0' } });
const url = await new Promise((resolve, reject) => {
  let text = '';
  server.stdout.on('data', (chunk) => {
    text += chunk;
    const match = /Toolgate demo: (http:\/\/\S+)/.exec(text);
    if (match) resolve(match[1]);
  });
  server.on('exit', () => reject(new Error(`npm start ended: ${text}`)));
});
const browser = await chromium.launch({
  executablePath: chromiumForThisMachine(chromium).path,
  args: CHROMIUM_ARGS,
  headless: true,
});
try {
  const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
  await page.goto(url);
  const signIn = page.getByRole('dialog', { name: /^Sign in to/ });
  await signIn.waitFor();
  await page.screenshot({ path: join(out, 'sign-in.png') });
  await signIn.getByRole('button', { name: 'Not now' }).click();
  await page.locator('[data-server="demo"]').getByText('connected').first().waitFor({ timeout: 20_000 });
  await page.evaluate(() => {
    void window.toolgate.call('demo', 'echo', { message: 'hello from the README' }).catch(() => undefined);
  });
  const approval = page.getByRole('dialog');
  await approval.waitFor();
  await page.screenshot({ path: join(out, 'approval.png') });
  await approval.getByRole('button', { name: 'Allow once' }).click();
  // The demo's MCP App: its call, approved, opens the Apps tab.
  await page.evaluate(() => {
    void window.toolgate.call('demo', 'counter', { start: 41 }).catch(() => undefined);
  });
  await approval.getByRole('button', { name: 'Allow once' }).click();
  await page
    .frameLocator('iframe')
    .first()
    .frameLocator('iframe')
    .first()
    .getByText('41')
    .first()
    .waitFor({ timeout: 20_000 })
    .catch(() => console.warn('the counter app did not show 41 in time; its screenshot may be early'));
  await page.waitForTimeout(500);
  const tabs = page.getByRole('tab');
  for (const name of await tabs.allInnerTexts()) {
    await page.getByRole('tab', { name }).click();
    // Views load on first use (and the dev server compiles them then): wait for the requests to end.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(400);
    const file = name
      .replace(/\s*\(\d+\)$/, '')
      .toLowerCase()
      .replace(/\s+/g, '-');
    await page.screenshot({ path: join(out, `${file}.png`) });
    console.log(`docs/screenshots/${file}.png`);
  }
} finally {
  await browser.close();
  server.kill();
}

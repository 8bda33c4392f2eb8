/**
 * `npm start`'s sign-in demo, with no outside service: the protected MCP server on the demo's
 * origin, the local authorization server (oidc-provider) it names, the demo site's callback page
 * (src/demo/oauth-callback.html, served by Vite) and its Client ID Metadata Document. A page of the
 * demo's origin connects with connect({ auth }), the person clicks "Sign in", logs in and consents
 * in oidc-provider's popup, and the demo's own callback page hands the answer back; then a tool that
 * needs a second scope asks once more. (The panel's own "Sign in" prompt is the UI's; this proves
 * the parts it will use.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { bundle } from './support/bundle.js';
import { signInAtOidcProvider } from './support/sign-in-site.js';

let child: ChildProcess;
let lines: Record<string, string>;

test.beforeAll(async () => {
  child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: { ...process.env, PORT: '0', AUTH_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  lines = await new Promise<Record<string, string>>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`npm start printed no address:\n${output}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!/^Toolgate demo: /m.test(output)) return;
      clearTimeout(timer);
      const found: Record<string, string> = {};
      for (const match of output.matchAll(/^([A-Z][\w ]+): (http:\/\/127\.0\.0\.1:\d+\S*)/gm))
        found[match[1] ?? ''] = match[2] ?? '';
      resolve(found);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
});

test.afterAll(() => {
  child?.kill('SIGTERM');
});

async function signInThroughPopup(page: Page, context: BrowserContext, expected: RegExp): Promise<void> {
  const button = page.locator('#sign-in');
  await expect(button).toHaveText(expected);
  await signInAtOidcProvider(context, () => button.click());
}

test('npm start: signs in to the protected demo server at the local authorization server, through the demo callback page', async ({
  page,
  context,
}) => {
  const demo = lines['Toolgate demo'] ?? '';
  const protectedUrl = lines['Protected MCP endpoint'] ?? '';
  const issuer = lines['Authorization server'] ?? '';
  expect(protectedUrl).toBe(`${demo}protected/mcp`);
  expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const callback = `${demo}src/demo/oauth-callback.html`;
  const callbackLoads: string[] = [];
  page.context().on('request', (request) => {
    if (request.url().startsWith(callback)) callbackLoads.push(request.url());
  });

  // A page of the demo's origin (its callback page, opened on its own, does nothing else).
  await page.goto(callback);
  await expect(page.locator('#status')).toContainText('has nothing to do on its own');
  await page.addScriptTag({ content: await bundle('e2e/fixtures/oidc/page.ts'), type: 'module' });
  await page.waitForFunction(() => 'oidcApi' in window);

  const connecting = page.evaluate(([url, redirect]) => window.oidcApi.connect(url, 'protected', redirect), [
    protectedUrl,
    callback,
  ] as const);
  await signInThroughPopup(page, context, new RegExp(`^Sign in to ${protectedUrl} at ${issuer} `));
  expect(await connecting).toEqual({ ok: true });
  expect((await page.evaluate(() => window.oidcApi.call('protected', 'whoami'))).text).toMatch(
    /with .*mcp:tools/,
  );
  // The demo's callback page received the code (its query) and handed it back.
  expect(callbackLoads.some((url) => new URL(url).searchParams.has('code'))).toBe(true);

  const writing = page.evaluate(() => window.oidcApi.call('protected', 'add_note', { text: 'hello' }));
  await signInThroughPopup(page, context, /mcp:tools .*mcp:write\)$/);
  expect(await writing).toEqual({ ok: true, text: 'noted (1 in all)' });
});

test('npm start: the demo site serves its Client ID Metadata Document, naming its own address and callback page', async ({
  request,
}) => {
  const demo = lines['Toolgate demo'] ?? '';
  const response = await request.get(`${demo}client-metadata.json`);
  expect(response.headers()['content-type']).toContain('application/json');
  expect(await response.json()).toMatchObject({
    client_id: `${demo}client-metadata.json`,
    client_name: 'Toolgate demo',
    redirect_uris: [`${demo}src/demo/oauth-callback.html`],
    token_endpoint_auth_method: 'none',
  });
});

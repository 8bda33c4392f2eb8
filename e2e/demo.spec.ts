import { type ChildProcess, spawn } from 'node:child_process';
import { chromium, expect, type Page, test } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './support/chromium.js';

// `npm start`'s own entry point, on a free port: the line it prints is the contract other tooling reads.
let child: ChildProcess;
let demoUrl: string;

test.beforeAll(async () => {
  child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  demoUrl = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`npm start printed no address:\n${output}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^Toolgate demo: (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
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

async function openTool(page: Page, title: string): Promise<void> {
  await page.getByRole('tab', { name: 'Tools' }).click();
  await page.getByLabel('Search tools').fill(title);
  await page.locator('.tg-tool-button', { hasText: title }).filter({ hasText: 'npm start' }).first().click();
}

test('npm start: the demo page connects to both demo servers and calls a tool with progress', async ({
  page,
}) => {
  await page.goto(demoUrl);
  // The demo lands on Tools, with a first call suggested, and no dialog opens by itself.
  await expect(page.getByRole('tab', { name: 'Tools' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#demo-first-call')).toContainText('pick Echo');
  // The intro says what is connected, from the live state: two of three, by name, and who waits.
  await expect(page.locator('#demo-connected')).toHaveText(
    '2 of 3 servers are connected: Demo server (in your browser) and Demo server (npm start). Protected demo (npm start, sign-in) needs you to sign in (see Servers).',
    { timeout: 20_000 },
  );
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // The protected demo server offers the sign-in on its card (e2e/demo-sign-in.spec.ts signs in);
  // here the person declines, and the server says why it is not connected.
  await page.getByRole('tab', { name: 'Servers' }).click();
  await page.locator('[data-sign-in-card="demo-protected"]').getByRole('button', { name: 'Not now' }).click();
  await expect(page.locator('[data-server="demo-protected"]')).toContainText('needs sign-in', {
    timeout: 20_000,
  });
  // A choice, not a failure: listed first, calmly, with the way to sign in; no alarm.
  await expect(page.locator('.tg-not-signed-in')).toContainText(/chose not to sign in/);
  await expect(page.getByRole('button', { name: /^Sign in to Protected demo/ })).toBeVisible();
  await expect(page.locator('.tg-connect-problems')).toHaveCount(0);
  // The bundled Node server (official SDK 1.x, Streamable HTTP) and the in-browser one.
  await expect(page.locator('[data-server="demo"]')).toContainText('connected', { timeout: 20_000 });
  await expect(page.locator('[data-server="demo-browser"]')).toContainText('connected', { timeout: 20_000 });
  await page.getByRole('tab', { name: 'Tools' }).click();
  await expect(page.locator('.tg-view [role=status]').first()).toHaveText('25 tools');

  await openTool(page, 'Countdown');
  await expect(page.locator('.tg-tool-detail')).toContainText('on Demo server (npm start)');
  await page.locator('.tg-try').getByLabel(/steps/).fill('4');
  await page
    .locator('.tg-try')
    .getByLabel(/delayMs/)
    .fill('250');
  await page
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();
  // The person's own click on Call is the approval: no dialog.
  await page.getByRole('tab', { name: /Activity/ }).click();
  // The progress bar moves before the result arrives.
  await expect(page.locator('progress[value]').first()).toHaveAttribute('value', /[1-3]/);
  await expect(page.locator('.tg-finished-call').first()).toContainText('Counted down 4 steps.');

  // A tool error is shown as one, not as a success.
  await openTool(page, 'Fail');
  await page
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();
  await page.getByRole('tab', { name: /Activity/ }).click();
  // Shown as the tool's own error (isError), with its text, in this call's entry.
  const failed = page.locator('.tg-finished-call').first().locator('.tg-result.tg-tool-error');
  await expect(failed.locator('h4')).toHaveText('The tool reported an error');
  await expect(failed).toContainText('failed on purpose');
});

test('npm start: a long task started from the demo survives a reload and finishes in Activity and the log', async ({
  page,
}) => {
  // The Node demo server's, not the in-browser one's: a Web Worker dies with its page, so only a
  // server outside the page can finish a task across a reload.
  await page.goto(demoUrl);
  await expect(page.locator('#demo-connected')).toContainText('Demo server (npm start)', { timeout: 20_000 });
  await openTool(page, 'Long report');
  await page.locator('.tg-try').getByLabel(/topic/).fill('otters');
  await page
    .locator('.tg-try')
    .getByLabel(/seconds/)
    .fill('6');
  await page
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();
  await page.getByRole('tab', { name: /Activity/ }).click();
  const running = page.locator('.tg-running-call', { hasText: 'long_report' });
  await expect(running).toContainText('running as a task');
  await expect(running.locator('.tg-task-status')).toContainText(/of 4/);
  const invocationId = await running.getAttribute('data-invocation');

  await page.reload();
  await expect(page.locator('#demo-connected')).toContainText('Demo server (npm start)', { timeout: 20_000 });
  await page.getByRole('tab', { name: /Activity/ }).click();
  // Taken up again by the reloaded page, and finished with the server's result.
  const finished = page.locator(`.tg-finished-call[data-invocation="${invocationId}"]`);
  await expect(finished).toContainText('Report on otters: ready after 6s', { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const row = page.locator('.tg-log-table tbody tr', { hasText: 'long_report' });
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-outcome', 'success');
  const entry = await page.evaluate(async () => {
    const w = window as unknown as {
      toolgate: { ready: Promise<{ auditLog: { query(q: object): Promise<{ entries: object[] }> } }> };
    };
    const { auditLog } = await w.toolgate.ready;
    return (await auditLog.query({ toolName: 'long_report' })).entries[0] as {
      outcome: string;
      task?: { status: string };
      resultSummary?: string;
    };
  });
  expect(entry.outcome).toBe('success');
  expect(entry.task?.status).toBe('completed');
  expect(entry.resultSummary).toContain('Report on otters');
});

test('npm start: the example app runs its approve and deny loop', async ({ page }) => {
  await page.goto(new URL('examples/agent/', demoUrl).href);
  await expect(page.locator('#status')).toContainText('may ask to use 12 tools', { timeout: 20_000 });
  await page.getByRole('button', { name: /^Send:/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Allow weather on Demo server (in your browser)?');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.locator('#conversation')).toContainText('"city":"Lisbon"');
  await expect(page.locator('#conversation li.tool').first()).toContainText('Lisbon');
});

test("npm start: the demo's counter app opens, and its button's call is asked under the app's name", async ({
  page,
}) => {
  const COUNTER_APP = 'ui://toolgate-demo/counter.html';
  await page.goto(demoUrl);
  await expect(page.locator('#demo-connected')).toContainText('connected: Demo server (in your browser)', {
    timeout: 20_000,
  });
  // The in-browser server's, as on the static site.
  await page.getByRole('tab', { name: 'Tools' }).click();
  await page.getByLabel('Search tools').fill('Counter');
  await page
    .locator('.tg-tool-button', { hasText: 'Counter' })
    .filter({ hasText: 'in your browser' })
    .first()
    .click();
  await page.locator('.tg-try').getByLabel(/start/).fill('41');
  await page
    .locator('.tg-try')
    .getByRole('button', { name: /^Call / })
    .click();

  // The person's own call (no dialog: their click approved it): the panel shows its app at once, in the Apps tab.
  await expect(page.getByRole('tab', { name: /^Apps/ })).toHaveAttribute('aria-selected', 'true');
  const figure = page.locator(`figure[data-app="${COUNTER_APP}"]`);
  await expect(figure).toHaveAttribute('data-app-state', 'running', { timeout: 20_000 });
  const counter = page.frameLocator(`figure[data-app="${COUNTER_APP}"] iframe`).frameLocator('iframe');
  await expect(counter.locator('#count')).toHaveText('41');

  // The app's button asks to call add: the person is asked, and the dialog names the app.
  await counter.getByRole('button', { name: /Add 1/ }).press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Asked by the MCP App ${COUNTER_APP}`);
  await expect(dialog).toContainText('Demo server (in your browser)');
  await page.screenshot({ path: 'test-results/screenshots/demo-app-approval.png', fullPage: true });
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(counter.locator('#count')).toHaveText('42');
  await expect(counter.locator('#status')).toHaveText('add answered 42.');
});

test('npm start: with WebMCP, the demo page offers its agent two tools of its own, each call asked and recorded', async () => {
  // A Chromium of its own, with WebMCP on (the other tests' has it off).
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, '--enable-features=WebMCP'],
  });
  try {
    const page = await (await browser.newContext({ permissions: ['local-network-access'] })).newPage();
    await page.goto(demoUrl);
    await expect
      .poll(async () => (await page.webmcp.tools()).map((tool) => tool.name).sort(), { timeout: 20_000 })
      .toEqual(['list_connected_servers', 'show_note']);
    // The panel lists them on "This page", where the person can call them too.
    const origin = new URL(demoUrl).origin;
    await page.getByRole('tab', { name: 'Servers' }).click();
    await expect(page.locator(`[data-server="webmcp:${origin}"]`)).toContainText('connected · 2 tools', {
      timeout: 20_000,
    });

    // The browser's agent asks to show a note: the person is asked first, then the page shows it.
    const shown = page.webmcp.callTool('show_note', { text: 'Hello from the agent' });
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`the browser's agent on ${origin}`);
    await expect(page.locator('#demo-agent-note')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    expect(await shown).toMatchObject({ content: [{ type: 'text', text: 'Shown: Hello from the agent' }] });
    await expect(page.locator('#demo-agent-note')).toHaveText(
      "Note from the browser's agent: Hello from the agent",
    );
    await page.getByRole('tab', { name: 'Audit log' }).click();
    await expect(page.locator('.tg-log-table tbody tr', { hasText: 'show_note' })).toHaveCount(1);
  } finally {
    await browser.close();
  }
});

import { type ChildProcess, spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';

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

test('the demo page connects to the bundled server, lists tools, calls one with progress', async ({
  page,
}) => {
  // The gate asks before each call; here the person says yes, after reading what will be sent.
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
  await page.goto(demoUrl);
  await expect(page.locator('#server-url')).toHaveValue(new URL('/mcp', demoUrl).href);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.locator('#status')).toContainText('Connected to toolgate-demo');
  await expect(page.locator('#tool option')).toHaveCount(11);

  await page.locator('#tool').selectOption('countdown');
  await page.locator('#args').fill('{"steps": 4, "delayMs": 150}');
  await page.getByRole('button', { name: 'Call' }).click();
  // The progress bar moves before the result arrives.
  await expect(page.locator('#progress')).toHaveAttribute('value', /[1-3]/);
  await expect(page.locator('#result')).toContainText('Counted down 4 steps.');
  expect(asked[0]).toContain('Allow "countdown"');
  expect(asked[0]).toContain('"steps": 4');
  expect(asked[0]).toContain('not trusted');

  await page.locator('#tool').selectOption('fail');
  await page.locator('#args').fill('{}');
  await page.getByRole('button', { name: 'Call' }).click();
  await expect(page.locator('#status')).toHaveText('fail reported an error.');
  await expect(page.locator('#result')).toContainText('"isError": true');
});

test('the demo page says clearly when arguments are not JSON, and sends nothing', async ({ page }) => {
  await page.goto(demoUrl);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.locator('#status')).toContainText('Connected');
  await page.locator('#tool').selectOption('echo');
  await page.locator('#args').fill('{message: hi}');
  await page.getByRole('button', { name: 'Call' }).click();
  await expect(page.locator('#status')).toContainText('not valid JSON');
  await expect(page.locator('#result')).toHaveText('');
});

test('through the gate: a denial returns the reason and no result; invalid arguments never reach the dialog', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(demoUrl);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.locator('#status')).toContainText('Connected');
  await page.locator('#tool').selectOption('delete_file');
  await page.locator('#args').fill('{"path": "/tmp/important"}');
  await page.getByRole('button', { name: 'Call' }).click();
  await expect(page.locator('#status')).toContainText(
    'The person denied delete_file on demo: the visitor said no',
  );
  expect(asked[0]).toContain('claims (unverified): destructiveHint');
  await expect(page.locator('#result')).toHaveText('');

  await page.locator('#tool').selectOption('weather');
  await page.locator('#args').fill('{"unit": "kelvin"}');
  await page.getByRole('button', { name: 'Call' }).click();
  await expect(page.locator('#status')).toContainText('weather on demo was not called');
  await expect(page.locator('#status')).toContainText('city: is required');
  expect(asked).toHaveLength(1);
});

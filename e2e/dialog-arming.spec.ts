/**
 * A dialog answers only input aimed at it (issue 24, finding 2), in Chromium, through the real
 * widget against a real SDK server (e2e/fixtures/approval/peer.mjs, which reports the calls that
 * ran). The person's own call is on screen and another caller's call waits behind it: the second
 * click of a double click and a held Enter answer nothing in the dialog drawn next, and a press
 * that began while a dialog armed counts for nothing. Each test waits for the new dialog's buttons
 * to become enabled (the condition), never for a time.
 */
import { expect, type Page, test } from '@playwright/test';
import { type ApprovalPeer, startApprovalPeer } from './fixtures/approval/start-peer.js';
import { serveFixture } from './support/fixture-page.js';

const ORIGIN = 'https://arming.test';
const SERVER = 'appr';
const ASSISTANT = { kind: 'host', label: 'the assistant' };
test.use({ permissions: ['local-network-access'] });

let peer: ApprovalPeer;
test.beforeAll(async () => {
  peer = await startApprovalPeer();
});
test.afterAll(async () => {
  await peer?.stop();
});

async function openPanel(page: Page, query = ''): Promise<void> {
  await serveFixture(page, ORIGIN, 'e2e/fixtures/approval/page.ts', 'Toolgate arming');
  await page.goto(`${ORIGIN}/?server=${encodeURIComponent(peer.url)}&id=${SERVER}${query}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await expect(page.locator(`[data-server="${SERVER}"]`)).toContainText('connected', { timeout: 20_000 });
}

/**
 * Starts a call from the page under `name` (the person's own unless a caller is given); its outcome
 * (the result's text, or the error's name) is kept on the page, 'waiting' until then. `abortable`
 * keeps an AbortController for `abort`.
 */
async function start(
  page: Page,
  name: string,
  tool: string,
  args: Record<string, unknown>,
  caller?: Record<string, string>,
): Promise<void> {
  await page.evaluate(
    ({ name, server, tool, args, caller }) => {
      const w = window as unknown as {
        toolgate: {
          call(...a: unknown[]): Promise<{ result: { content: { text: string }[] } }>;
        };
        outcomes?: Record<string, string>;
        aborts?: Record<string, AbortController>;
      };
      w.outcomes ??= {};
      w.aborts ??= {};
      const abort = new AbortController();
      w.aborts[name] = abort;
      w.outcomes[name] = 'waiting';
      w.toolgate
        .call({
          serverId: server,
          toolName: tool,
          arguments: args,
          caller: caller ?? undefined,
          signal: abort.signal,
        })
        .then(
          (r) => {
            w.outcomes![name] = r.result.content[0]!.text;
          },
          (e: Error) => {
            w.outcomes![name] = e.name;
          },
        );
    },
    { name, server: SERVER, tool, args, caller: caller ?? null },
  );
}

function outcome(page: Page, name: string): Promise<string | undefined> {
  return page.evaluate((n) => (window as unknown as { outcomes: Record<string, string> }).outcomes[n], name);
}

/** How many approvals wait; an answer leaves the queue inside the click's or key's own handler. */
function waitingApprovals(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      (window as unknown as { toolgate: { approvals: { value: unknown[] } } }).toolgate.approvals.value
        .length,
  );
}

/** The dialog for the call asked by `who` ("you", or the app's description), once it takes input. */
async function armedDialog(page: Page, who: string) {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Asked by ${who}.`);
  // The last button to arm, and every dialog has it.
  await expect(dialog.getByRole('button', { name: 'Deny' })).toBeEnabled();
  return dialog;
}

/** Asserts the assistant's call still waits for its own answer and never reached the server, then denies it. */
async function assistantStillWaits(page: Page, name: string, word: string): Promise<void> {
  const dialog = await armedDialog(page, 'the app (the assistant)');
  expect(await outcome(page, name)).toBe('waiting');
  expect((await peer.calls()).map((c) => c.arguments.word)).not.toContain(word);
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect.poll(() => outcome(page, name)).toBe('DeniedError');
}

test('a new dialog reads as disabled until it takes input, then takes it', async ({ page }) => {
  await openPanel(page);
  await start(page, 'mine', 'lookup', { word: 'first' });
  const dialog = page.getByRole('dialog');
  // Shown at once, armed a moment later: the buttons say so (aria-disabled), then are enabled.
  await expect(dialog).toContainText('Asked by you.');
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeEnabled();
  await expect(dialog).not.toHaveAttribute('data-arming');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect.poll(() => outcome(page, 'mine')).toContain('lookup ran');
});

test('while it arms, its buttons read as disabled and a click or a key answers nothing', async ({ page }) => {
  // An hour: the dialog stays in its first moment for the whole test.
  await openPanel(page, '&armingDelayMs=3600000');
  await start(page, 'mine', 'lookup', { word: 'too soon' });
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Asked by you.');
  await expect(dialog).toHaveAttribute('data-arming', '');
  const allow = dialog.getByRole('button', { name: 'Allow once' });
  for (const name of ['Deny', 'Allow once', 'Allow for this session', 'Always allow this tool'])
    await expect(dialog.getByRole('button', { name })).toHaveAttribute('aria-disabled', 'true');
  await expect(allow).toBeDisabled();

  const waiting = () =>
    page.evaluate(
      () =>
        (window as unknown as { toolgate: { approvals: { value: unknown[] } } }).toolgate.approvals.value
          .length,
    );
  // An answer leaves the queue inside the click's own handler, so these read after it.
  await allow.click({ force: true });
  expect(await waiting()).toBe(1);
  await allow.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press(' ');
  await page.keyboard.press('Escape');
  expect(await waiting()).toBe(1);
  expect(await outcome(page, 'mine')).toBe('waiting');
  await page.evaluate(() =>
    (window as unknown as { aborts: Record<string, AbortController> }).aborts.mine!.abort(),
  );
  await expect(dialog).toBeHidden();
});

test('a double click on "Allow once" approves only the dialog it was aimed at', async ({ page }) => {
  await openPanel(page);
  await start(page, 'mine', 'lookup', { word: 'mine' });
  const dialog = await armedDialog(page, 'you');
  await start(page, 'theirs', 'lookup', { word: 'theirs' }, ASSISTANT);
  await expect(dialog).toContainText('1 more waiting');

  await dialog.getByRole('button', { name: 'Allow once' }).dblclick();
  await expect.poll(() => outcome(page, 'mine')).toContain('lookup ran');
  await assistantStillWaits(page, 'theirs', 'theirs');
});

test('a double click on "Always allow" stores no grant for the caller queued behind', async ({ page }) => {
  await openPanel(page);
  await start(page, 'mine', 'lookup', { word: 'always mine' });
  const dialog = await armedDialog(page, 'you');
  await start(page, 'theirs', 'lookup', { word: 'always theirs' }, ASSISTANT);
  await expect(dialog).toContainText('1 more waiting');

  await dialog.getByRole('button', { name: 'Always allow this tool' }).dblclick();
  await expect.poll(() => outcome(page, 'mine')).toContain('lookup ran');
  await assistantStillWaits(page, 'theirs', 'always theirs');
  const grants = await page.evaluate(() =>
    (
      window as unknown as { toolgate: { listRemembered(): Promise<{ type: string; caller: unknown }[]> } }
    ).toolgate
      .listRemembered()
      .then((items) => items.filter((item) => item.type === 'grant').map((item) => item.caller)),
  );
  // The person's own grant only (stored as the person, whatever the panel calls them).
  expect(grants).toEqual([{ kind: 'person' }]);
});

test('a held Enter answers only the dialog it was pressed in', async ({ page }) => {
  await openPanel(page);
  await start(page, 'mine', 'lookup', { word: 'held' });
  const dialog = await armedDialog(page, 'you');
  // The assistant's call is destructive: Deny takes focus in its dialog, where the held key lands.
  await start(page, 'theirs', 'run_command', { command: 'echo held' }, ASSISTANT);
  await expect(dialog).toContainText('1 more waiting');
  await dialog.getByRole('button', { name: 'Allow once' }).focus();

  await page.keyboard.down('Enter');
  await expect.poll(() => outcome(page, 'mine')).toContain('lookup ran');
  const next = page.getByRole('dialog');
  await expect(next).toContainText('Asked by the app (the assistant).');
  await expect(next.getByRole('button', { name: 'Deny' })).toBeFocused();
  // The key is still held: the browser repeats it (Playwright sends repeat: true), then lets it go.
  for (let i = 0; i < 3; i++) await page.keyboard.down('Enter');
  await page.keyboard.up('Enter');

  await expect(next.getByRole('button', { name: 'Deny' })).toBeEnabled();
  await expect(next.getByRole('button', { name: 'Deny' })).toBeFocused();
  expect(await outcome(page, 'theirs')).toBe('waiting');
  // A fresh press, once the dialog takes input, acts as before.
  await page.keyboard.press('Enter');
  await expect.poll(() => outcome(page, 'theirs')).toBe('DeniedError');
  expect((await peer.calls()).map((c) => c.arguments.command)).not.toContain('echo held');
});

test('a press that began while the dialog armed does not count when released after', async ({ page }) => {
  // Five seconds: long enough to press inside the moment, and the test then waits for its end.
  await openPanel(page, '&armingDelayMs=5000');
  await start(page, 'mine', 'lookup', { word: 'pressed early' });
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Asked by you.');
  const allow = dialog.getByRole('button', { name: 'Allow once' });
  const box = (await allow.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await expect(dialog).toHaveAttribute('data-arming', '');
  await expect(allow).toBeEnabled({ timeout: 15_000 });
  await page.mouse.up();
  expect(await waitingApprovals(page)).toBe(1);
  // A whole click, once armed, is an answer.
  await allow.click();
  await expect.poll(() => outcome(page, 'mine')).toContain('lookup ran');
});

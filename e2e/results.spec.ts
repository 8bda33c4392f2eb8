/**
 * Results to use (issue 26), in Chromium against real servers (our SDK 1.x server, and the hostile
 * server for an answer that breaks the protocol): every result carries a mark in an icon and a word,
 * the server's time apart from the total since Call was pressed, Rendered and Raw JSON views with
 * JSON indented by two spaces, Copy for the result, the arguments sent and each JSON node (read back
 * from the real clipboard), a clear fallback when the browser refuses the clipboard, and arguments
 * edited in approval shown as changes with "Copy to form". The form's own call may or may not ask
 * for approval (a person's click on a non-destructive tool need not), so these tests answer a dialog
 * only when one is shown, and raise the dialog they edit with a call the host page makes.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { untilArmed } from './support/dialogs.js';
import { type Peer, startPeer } from './support/peers.js';
import { axe, openTab, openWidget, pickTool, shot, WIDGET_ORIGIN } from './support/widget-page.js';

test.use({ permissions: ['local-network-access', 'clipboard-read', 'clipboard-write'] });
test.describe.configure({ mode: 'serial' });

let sdk: Peer;
let hostile: Peer;
test.beforeAll(async () => {
  [sdk, hostile] = await Promise.all([startPeer('sdk1-stateful-sse'), startPeer('hostile')]);
});
test.afterAll(async () => {
  await Promise.all([sdk?.stop(), hostile?.stop()]);
});

const form = (page: Page) => page.locator('.tg-try');
const phase = (page: Page) => form(page).locator('.tg-call-phase');
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** Presses Call, allows the call if a dialog asks, and waits until the call has ended. */
async function callFromForm(page: Page): Promise<void> {
  await form(page)
    .getByRole('button', { name: /^Call / })
    .click();
  const dialog = page.getByRole('dialog');
  const ended = phase(page).locator('.tg-mark');
  await expect(dialog.or(ended).first()).toBeVisible();
  if (await dialog.isVisible()) {
    await untilArmed(dialog);
    await dialog
      .getByRole('button', { name: /^Allow/ })
      .first()
      .click();
    await expect(dialog).toHaveCount(0);
  }
  await expect(ended).toBeVisible();
}

/** A duration as the summary spells it ("120 ms", "1.3 s"), in milliseconds. */
function ms(text: string): number {
  const [, value, unit] = /^([\d.]+) (ms|s)$/.exec(text) ?? [];
  if (value === undefined) throw new Error(`not a duration: ${text}`);
  return unit === 's' ? Number(value) * 1000 : Number(value);
}

async function times(summary: Locator): Promise<{ server: number; total: number }> {
  const text = (await summary.textContent()) ?? '';
  const match = /server ([\d.]+ m?s) · total ([\d.]+ m?s)/.exec(text);
  if (!match) throw new Error(`no times in "${text}"`);
  return { server: ms(match[1] as string), total: ms(match[2] as string) };
}

test('a result is marked with an icon and a word, with the server time apart from the total', async ({
  page,
}) => {
  await openWidget(page, [{ url: sdk.url, id: 'sdk' }]);
  await pickTool(page, 'sleep');
  await form(page).getByLabel('ms (required)').fill('400');
  await callFromForm(page);

  const mark = phase(page).locator('.tg-mark');
  await expect(mark).toHaveText('✓ Succeeded');
  await expect(mark).toHaveAttribute('data-kind', 'succeeded');
  await expect(phase(page)).toHaveText(/^✓ Succeeded · server [\d.]+ m?s · total [\d.]+ m?s$/);
  const { server, total } = await times(phase(page));
  // The server slept 400 ms: its time covers that; the total, from the click, covers the server's.
  expect(server).toBeGreaterThanOrEqual(400);
  expect(total).toBeGreaterThanOrEqual(server);
  await expect(form(page).locator('.tg-result')).toContainText('slept 400 ms');
  await axe(page, 'result succeeded');
});

test('an isError result is marked as an error, and an answer that breaks the protocol as a failure', async ({
  page,
}) => {
  await openWidget(page, [{ url: sdk.url, id: 'sdk' }]);
  await pickTool(page, 'fail');
  await callFromForm(page);
  await expect(phase(page).locator('.tg-mark')).toHaveText('✗ Error');
  await expect(phase(page).locator('.tg-mark')).toHaveAttribute('data-kind', 'error');
  await expect(form(page).locator('.tg-result')).toContainText('the fail tool always fails');
  await axe(page, 'result error');

  // A result that is a string, not an object: the call fails at the protocol, and says so.
  const broken = hostile.url.replace(/\/mcp\/plain$/, '/mcp/string-result');
  await openWidget(page, [{ url: broken, id: 'broken' }]);
  await pickTool(page, 'echo');
  await form(page)
    .getByLabel(/^message/)
    .fill('hello');
  await callFromForm(page);
  await expect(phase(page).locator('.tg-mark')).toHaveText('✗ Failed');
  await expect(phase(page).locator('.tg-mark')).toHaveAttribute('data-kind', 'failed');
  await expect(phase(page)).toContainText(/total [\d.]+ m?s/);
});

test('Rendered shows JSON text indented; Raw JSON shows the whole result indented; Copy puts each on the clipboard', async ({
  page,
}) => {
  await openWidget(page, [{ url: sdk.url, id: 'sdk' }]);
  await pickTool(page, 'structured');
  await form(page).getByLabel('city (required)').fill('Paris');
  await callFromForm(page);
  const result = form(page).locator('.tg-call-result');
  const sentResult = {
    content: [{ type: 'text', text: JSON.stringify({ city: 'Paris', temperatureC: 21.5 }) }],
    structuredContent: { city: 'Paris', temperatureC: 21.5 },
  };

  // Rendered: the JSON the tool sent as one line of text reads as an indented structure.
  await expect(result.getByRole('button', { name: 'Rendered' })).toHaveAttribute('aria-pressed', 'true');
  await expect(result.locator('.tg-result .tg-text').first()).toHaveText(
    JSON.stringify({ city: 'Paris', temperatureC: 21.5 }, null, 2),
  );
  await result.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(result.locator('.tg-result-bar')).toContainText('Copied');
  expect(await clipboard(page)).toBe(JSON.stringify({ city: 'Paris', temperatureC: 21.5 }, null, 2));

  // Raw JSON: the whole result as received, indented by two spaces.
  await result.getByRole('button', { name: 'Raw JSON' }).click();
  await expect(result.getByRole('button', { name: 'Raw JSON' })).toHaveAttribute('aria-pressed', 'true');
  const raw = result.getByRole('region', { name: 'Raw JSON of the result' });
  await expect(raw).toHaveText(JSON.stringify(sentResult, null, 2));
  await shot(page, 'results-raw-json');
  await axe(page, 'result raw json');
  await result.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect.poll(() => clipboard(page)).toBe(JSON.stringify(sentResult, null, 2));

  // The arguments that were sent.
  await result.getByRole('button', { name: 'Copy arguments' }).click();
  await expect.poll(() => clipboard(page)).toBe(JSON.stringify({ city: 'Paris' }, null, 2));

  // Each node of the structured content's tree: a string as its text, an object as indented JSON.
  await result.getByRole('button', { name: 'Rendered' }).click();
  await result.getByRole('button', { name: 'Copy value of structuredContent.city' }).click();
  await expect.poll(() => clipboard(page)).toBe('Paris');
  await result.getByRole('button', { name: 'Copy value of structuredContent.temperatureC' }).click();
  await expect.poll(() => clipboard(page)).toBe('21.5');
  await result.getByRole('button', { name: 'Copy value of structuredContent', exact: true }).click();
  await expect
    .poll(() => clipboard(page))
    .toBe(JSON.stringify({ city: 'Paris', temperatureC: 21.5 }, null, 2));
  await shot(page, 'results-rendered');
  await axe(page, 'result rendered');
});

test('when the browser refuses the clipboard, the text is offered selected to copy by hand', async ({
  page,
}) => {
  await openWidget(page, [{ url: sdk.url, id: 'sdk' }]);
  // The browser's own refusal (as a site or a frame without the right gets), set through DevTools.
  const devtools = await page.context().newCDPSession(page);
  const { targetInfo } = await devtools.send('Target.getTargetInfo');
  await devtools.send('Browser.setPermission', {
    permission: { name: 'clipboard-write', allowWithoutSanitization: false },
    setting: 'denied',
    origin: WIDGET_ORIGIN,
    ...(targetInfo.browserContextId ? { browserContextId: targetInfo.browserContextId } : {}),
  });
  await pickTool(page, 'echo');
  await form(page).getByLabel('message (required)').fill('copy me');
  await callFromForm(page);
  const result = form(page).locator('.tg-call-result');
  await result.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(result).toContainText('The browser refused to copy');
  const box = result.getByRole('textbox', { name: 'Text to copy' });
  await expect(box).toHaveValue('Echo: copy me');
  await expect(box).toBeFocused();
  expect(await box.evaluate((el: HTMLTextAreaElement) => el.selectionEnd - el.selectionStart)).toBe(
    'Echo: copy me'.length,
  );
  await expect(result).not.toContainText('Copied');
});

test('arguments edited in approval: the result says so, lists the changes, and Copy to form fills the form', async ({
  page,
}) => {
  await openWidget(page, [{ url: sdk.url, id: 'sdk' }]);
  // The host page asks: calls from others always come with the full, editable dialog.
  await page.evaluate(() => {
    // Not awaited: the call waits for the dialog this test answers.
    void (window as unknown as { toolgate: { call(request: object): Promise<unknown> } }).toolgate
      .call({
        serverId: 'sdk',
        toolName: 'echo',
        arguments: { message: 'from the host' },
        caller: { kind: 'host', label: 'e2e' },
      })
      .catch(() => undefined);
  });
  const dialog = page.getByRole('dialog');
  await untilArmed(dialog);
  await dialog.getByRole('button', { name: 'JSON' }).click();
  await dialog.getByLabel('Arguments as JSON').fill('{"message": "edited by a person"}');
  await expect(dialog.getByRole('status')).toContainText('(edited)');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(dialog).toHaveCount(0);

  await openTab(page, /Activity/);
  const call = page.locator('.tg-finished-call').first();
  await expect(call).toContainText('Echo: edited by a person');
  expect((await sdk.events()).calls).toContainEqual({
    tool: 'echo',
    arguments: { message: 'edited by a person' },
  });
  await expect(call).toContainText('Sent with arguments edited in approval');
  await expect(call.getByRole('list', { name: 'Changes made in approval' })).toHaveText(
    'message: "from the host" → "edited by a person"',
  );
  await axe(page, 'result edited in approval');
  await shot(page, 'results-edited-in-approval');

  await call.getByRole('button', { name: 'Copy to form' }).click();
  // The tool's form, opened on the Tools tab, now holds what was sent, not what was proposed.
  await expect(page.getByRole('tab', { name: 'Tools' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'echo', level: 3 })).toBeVisible();
  await expect(form(page).getByLabel('message (required)')).toHaveValue('edited by a person');
});

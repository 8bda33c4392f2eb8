/**
 * The example host app (examples/agent/), from the static build: a scripted assistant offers the
 * in-browser demo server's tools in OpenAI's format, the person approves or denies each call in the
 * overlay, and the outcome flows back into the conversation as the model would receive it.
 */
import { expect, test } from '@playwright/test';
import { buildAndServeSite, type StaticServer } from './support/static-server.js';

let site: StaticServer;

test.beforeAll(async () => {
  site = await buildAndServeSite();
});
test.afterAll(async () => {
  await site?.stop();
});

/**
 * Records every tools/call that leaves the page for the in-browser server (it runs in a Worker and is
 * spoken to over a transferred MessagePort): the server-side view of what was sent, taken below
 * Toolgate, so it does not depend on Toolgate's own bookkeeping.
 */
function recordToolCallsSentToWorkers(): void {
  const sent: string[] = [];
  (window as unknown as { toolCallsSent: string[] }).toolCallsSent = sent;
  const original = MessagePort.prototype.postMessage;
  MessagePort.prototype.postMessage = function (this: MessagePort, message: unknown, ...rest: never[]) {
    let data = message;
    if (typeof message === 'string')
      try {
        data = JSON.parse(message);
      } catch {
        data = undefined;
      }
    for (const item of Array.isArray(data) ? data : [data]) {
      const request = item as { method?: unknown; params?: { name?: unknown } } | null;
      if (request?.method === 'tools/call') sent.push(String(request.params?.name));
    }
    return original.call(this, message, ...rest);
  } as typeof original;
}

test('the assistant proposes, the person approves and denies, results flow back', async ({ page }) => {
  await page.addInitScript(recordToolCallsSentToWorkers);
  await page.goto(`${site.origin}/examples/agent/`);
  await expect(page.locator('#status')).toContainText('may ask to use 12 tools', { timeout: 20_000 });
  const conversation = page.locator('#conversation');
  const dialog = page.getByRole('dialog');

  // 1: approved. The tool message is what an OpenAI chat model would get back.
  await page.getByRole('button', { name: /^Send: “What is the weather/ }).click();
  await expect(dialog).toContainText('Allow weather on Demo server (in your browser)?');
  await expect(dialog).toContainText('the assistant');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(conversation.locator('li.tool').nth(0)).toContainText('"city":"Lisbon"');
  await expect(conversation.locator('li.assistant').last()).toContainText('Done');

  // 2: the person edits the arguments before allowing; the edited call is what ran.
  await page.getByRole('button', { name: /^Send: “And what is 2 plus 40/ }).click();
  await dialog.getByRole('button', { name: 'JSON' }).click();
  await dialog.getByLabel('Arguments as JSON').fill('{"a": 2, "b": 3}');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(conversation.locator('li.tool').nth(1)).toHaveText('Tool: 5');

  // 3: denied with a reason; the model is told, and nothing ran.
  await page.getByRole('button', { name: /^Send: “Please delete/ }).click();
  await expect(dialog).toContainText(
    "Destructive (the server's claim) This tool says it may delete or overwrite things.",
  );
  await expect(dialog).toContainText('Toolgate does not trust this server, so it is only its word.');
  await expect(dialog).toHaveClass(/tg-risky/);
  await dialog.getByLabel(/Reason if you deny/).fill('keep my report');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(conversation.locator('li.tool').nth(2)).toContainText('keep my report');
  await expect(conversation.locator('li.assistant').last()).toContainText('I did not do that');
  await expect(page.getByRole('button', { name: 'The conversation is over' })).toBeDisabled();
  // What reached the server: the two approved calls, never the denied delete.
  const sent = await page.evaluate(() => (window as unknown as { toolCallsSent: string[] }).toolCallsSent);
  expect(sent).toHaveLength(2);
  expect(sent).not.toContain('delete_file');
});

test('a slash command from a server prompt, with completion, and an attached resource, each through the gate', async ({
  page,
}) => {
  await page.goto(`${site.origin}/examples/agent/`);
  const command = page.getByLabel('Command');
  await expect(command.locator('option', { hasText: '/summarize' })).toHaveCount(1, { timeout: 20_000 });
  const conversation = page.locator('#conversation');
  const dialog = page.getByRole('dialog');

  // Completion of the prompt's argument as the person types (completion/complete to the server).
  await page.getByLabel('Tone').fill('fr');
  await expect(page.locator('#tone-completions option')).toHaveText(['friendly']);
  await page.getByLabel('Tone').fill('friendly');

  // The prompt get is the app's: asked, with the prompt and its argument.
  await page.getByRole('button', { name: 'Use the command' }).click();
  await expect(dialog).toContainText('Use a prompt on Demo server (in your browser)?');
  await expect(dialog).toContainText('the app (the assistant)');
  await expect(dialog).toContainText('tone = friendly');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  // Its messages, as OpenAI chat messages: the text and the embedded resource under its URI.
  await expect(conversation.locator('li.user').last()).toContainText(
    'Summarize this plan in a friendly tone.',
  );
  await expect(conversation.locator('li.user').last()).toContainText(
    '[resource demo://notes/release-plan.md, text/markdown]\n# Release plan',
  );

  // Attaching a resource is a read: asked, then remembered for the session.
  await page.getByRole('button', { name: 'Attach: Release plan' }).click();
  await expect(dialog).toContainText('Read a resource on Demo server (in your browser)?');
  await expect(dialog).toContainText('demo://notes/release-plan.md');
  await dialog.getByRole('button', { name: 'Allow for this session' }).click();
  await expect(
    conversation.locator('li', { hasText: '(attached demo://notes/release-plan.md)' }),
  ).toHaveCount(1);
  await page.getByRole('button', { name: 'Attach: Release plan' }).click();
  await expect(
    conversation.locator('li', { hasText: '(attached demo://notes/release-plan.md)' }),
  ).toHaveCount(2);
  await expect(dialog).toHaveCount(0);
  await expect(conversation.locator('li.user').last()).toContainText('- Announce on Friday.');
});

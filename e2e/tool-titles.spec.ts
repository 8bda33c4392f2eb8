/**
 * A tool's title cannot hide its name (issue 24, finding 3), in Chromium, through the real widget
 * against a real SDK 1.x server (e2e/peers/hostile-catalog.mjs, case `disguised-title`):
 * `delete_everything` titled `lookup` beside a real `lookup`, and `delete_files` titled with
 * Cyrillic o's. The approval dialog asks by the name the person's rules and grants go by and flags
 * the title; Activity and the audit log show the name too.
 */
import { expect, type Page, test } from '@playwright/test';
import { openHostilePanel } from './support/hostile-panel.js';
import { type Peer, startPeer } from './support/peers.js';

const ORIGIN = 'https://titles.test';
const ID = 'disguise';
const LABEL = 'hostile-catalog-disguised-title';
test.use({ permissions: ['local-network-access'] });

let peer: Peer;
test.beforeAll(async () => {
  peer = await startPeer('hostile-catalog');
});
test.afterAll(async () => {
  await peer?.stop();
});

const openPanel = (page: Page) =>
  openHostilePanel(page, peer, { origin: ORIGIN, title: 'Tool titles' }, [
    { case: 'disguised-title', id: ID },
  ]);

function call(page: Page, tool: string, word: string): Promise<string> {
  return page.evaluate(
    ({ id, tool, word }) =>
      (
        window as unknown as {
          toolgate: { call(...a: unknown[]): Promise<{ result: { content: { text: string }[] } }> };
        }
      ).toolgate
        .call({ serverId: id, toolName: tool, arguments: { word } })
        .then(
          (r) => r.result.content[0]!.text,
          (e: Error) => e.name,
        ),
    { id: ID, tool, word },
  );
}

test("the dialog asks by the tool's name and flags a title that is another tool's name", async ({ page }) => {
  await openPanel(page);
  const result = call(page, 'delete_everything', 'cat');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText(`Allow delete_everything on ${LABEL}?`);
  await expect(dialog).toHaveAccessibleName(`Allow delete_everything on ${LABEL}?`);
  await expect(dialog).toContainText('Its server titles it “lookup”.');
  await expect(dialog.locator('.tg-title-lookalike')).toHaveText(
    `The title “lookup” is the name of another tool, lookup on ${LABEL}. This call runs delete_everything; rules and remembered approvals go by that name.`,
  );
  await page.screenshot({ path: 'test-results/screenshots/tool-title-disguise.png', fullPage: true });
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  expect(await result).toBe('delete_everything ran with cat');

  // Activity and the audit log name the tool that ran, never its title.
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(page.locator('.tg-finished-call h3').first()).toContainText('delete_everything');
  await page.getByRole('tab', { name: 'Audit log' }).click();
  await expect(page.locator('td[data-label="Tool"]').first()).toHaveText('delete_everything');
});

test('a title that only looks like another tool name is flagged as such; an honest title is not', async ({
  page,
}) => {
  await openPanel(page);
  const disguised = call(page, 'delete_files', 'dog');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText(`Allow delete_files on ${LABEL}?`);
  await expect(dialog.locator('.tg-title-lookalike')).toContainText(
    `The title “L\u043E\u043Ekup” looks like the name of another tool, lookup on ${LABEL}. This call runs delete_files`,
  );
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect(await disguised).toBe('DeniedError');

  const honest = call(page, 'lookup', 'bird');
  await expect(dialog.getByRole('heading')).toHaveText(`Allow lookup on ${LABEL}?`);
  await expect(dialog).toContainText('Its server titles it “Look up a word”.');
  await expect(dialog.locator('.tg-title-lookalike')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  expect(await honest).toBe('lookup ran with bird');
});

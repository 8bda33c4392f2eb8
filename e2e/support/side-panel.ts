/**
 * What the extension specs do in the side panel's own views: name a server the way the panel does,
 * and call a tool from the Tools tab as the person would (the click on Call approves it).
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** The id the panel gives a server added by URL: its whole address (src/client/server-id.ts). */
export const serverIdOf = (url: string) => {
  const { protocol, host, pathname, search } = new URL(url);
  return `${protocol}//${host}${pathname}${search}`;
};

/** The name the panel shows for a server added by URL, until the server says its own. */
export const serverLabelOf = (url: string) => `${new URL(url).host}${new URL(url).pathname}`;

export interface PanelCall {
  /** Which of the tools found picks the tool: text its button shows (default: the search itself). */
  button?: string | RegExp;
  /** Values for the call form's fields, by label. */
  fill?: Record<string, string>;
}

/** Finds a tool by `search`, fills the form and calls it (no dialog: the click approves it); returns the result's place. */
export async function startPanelCall(panel: Page, search: string, options: PanelCall = {}): Promise<Locator> {
  await panel.getByRole('tab', { name: 'Tools' }).click();
  await panel.getByLabel('Search tools').fill(search);
  await panel.locator('.tg-tool-button', { hasText: options.button ?? search }).click();
  const form = panel.locator('.tg-try');
  for (const [label, value] of Object.entries(options.fill ?? {})) await form.getByLabel(label).fill(value);
  await form.getByRole('button', { name: /^Call / }).click();
  return form.locator('.tg-result');
}

/** As startPanelCall, then waits for the result; resolves with its text. */
export async function callFromPanel(panel: Page, search: string, options: PanelCall = {}): Promise<string> {
  const result = await startPanelCall(panel, search, options);
  await expect(result).toBeVisible({ timeout: 20_000 });
  return (await result.textContent()) ?? '';
}

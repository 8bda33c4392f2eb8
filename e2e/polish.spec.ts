/**
 * What a person notices (issue 19, item 5), in Chromium against our SDK server: each tab says what
 * it is for when empty; long names and addresses wrap or are cut with the full text at hand, and
 * never widen the panel; focus rings show on every kind of control; form controls follow the dark
 * theme. Axe, light and dark, on each of those screens.
 */
import { expect, type Page, test } from '@playwright/test';
import { type Peer, startPeer } from './support/peers.js';
import { axe, horizontalOverflow, openTab, openWidget, shot } from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });
test.describe.configure({ mode: 'serial' });

let sdk: Peer;
test.beforeAll(async () => {
  sdk = await startPeer('sdk1-stateful-sse');
});
test.afterAll(async () => {
  await sdk?.stop();
});

const TABS = ['Servers', 'Tools', /Activity/, 'Audit log', 'Approvals', 'Rules', 'Inspect'] as const;

/** What each tab says when there is nothing to show. */
const EMPTY_TEXT: ReadonlyArray<readonly [(typeof TABS)[number], RegExp]> = [
  ['Servers', /No servers yet/],
  ['Tools', /No servers yet: add one in the Servers tab/],
  [/Activity/, /No calls yet/],
  ['Audit log', /The log is empty/],
  ['Approvals', /Nothing is remembered/],
  ['Rules', /No rules yet/],
  ['Inspect', /No servers yet/],
];

// One test per tab and theme: axe over twelve screens in one test outgrew its time on a busy machine.
for (const scheme of ['light', 'dark'] as const)
  for (const [tab, text] of EMPTY_TEXT)
    test(`${String(tab).replaceAll('/', '')} says what it is for when there is nothing to show, axe clean (${scheme})`, async ({
      page,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openWidget(page, []);
      await openTab(page, tab);
      await expect(page.locator('.tg-empty')).toHaveText(text);
      await axe(page, `${String(tab)} empty (${scheme})`);
      if (scheme === 'dark' && tab === 'Servers') await shot(page, 'polish-empty-dark');
    });

const LONG_LABEL = `A-server-whose-name-goes-on-and-on-${'without-a-single-space-'.repeat(5)}end`;

test('long names and addresses wrap or are cut with the full text at hand; the panel never widens', async ({
  page,
}) => {
  await page.setViewportSize({ width: 400, height: 900 });
  const url = `${sdk.url}?${'long-parameter-name=long-value&'.repeat(6)}end=1`;
  await openWidget(page, [{ url, id: 'long', label: LONG_LABEL }]);
  const row = page.locator('[data-server="long"]');
  // Wrapped, whole.
  await expect(row.locator('strong')).toHaveText(LONG_LABEL);
  await expect(row.locator('.tg-muted').first()).toHaveAttribute('title', url);
  expect(await horizontalOverflow(page)).toEqual({ page: 0, panel: 0 });

  await openTab(page, 'Tools');
  const tool = page.locator('.tg-tool-button', { hasText: /^echo\b/ });
  // The row names its server in its title; the server's heading over the rows is cut to one line,
  // with the full text in its title.
  await expect(tool).toHaveAttribute('title', `echo · ${LONG_LABEL}`);
  const heading = page.locator('.tg-tool-group span');
  await expect(heading).toHaveAttribute('title', LONG_LABEL);
  const cut = await heading.evaluate((element) => element.scrollWidth > element.clientWidth);
  expect(cut).toBe(true);
  await tool.click();
  await expect(page.locator('.tg-tool-detail .tg-muted').first()).toContainText(LONG_LABEL);
  expect(await horizontalOverflow(page)).toEqual({ page: 0, panel: 0 });

  const call = page.evaluate(() =>
    (window as unknown as { toolgate: { call(...a: unknown[]): Promise<unknown> } }).toolgate.call({
      serverId: 'long',
      toolName: 'echo',
      arguments: { message: 'x'.repeat(300) },
    }),
  );
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { level: 2 })).toContainText(LONG_LABEL);
  const dialogOverflow = await dialog.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(dialogOverflow).toBe(0);
  await axe(page, 'approval with a long name at 400 px');
  await shot(page, 'polish-long-names-dialog');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await call;
  for (const tab of TABS) {
    await openTab(page, tab);
    expect(await horizontalOverflow(page), String(tab)).toEqual({ page: 0, panel: 0 });
  }
  await openTab(page, /Activity/);
  await expect(page.locator('.tg-finished-call h3')).toContainText(LONG_LABEL);
  await shot(page, 'polish-long-names-activity');
});

/** The focused control's outline, as the browser draws it. */
function outlineOfFocused(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('toolgate-panel')!.shadowRoot!;
    const active = root.activeElement as HTMLElement;
    const style = getComputedStyle(active);
    const accent = getComputedStyle(root.querySelector('.tg-root')!).getPropertyValue('--tg-accent').trim();
    return {
      tag: active.tagName.toLowerCase(),
      style: style.outlineStyle,
      width: style.outlineWidth,
      accent,
      color: style.outlineColor,
    };
  });
}

test('focus rings on every kind of control, and controls that follow the dark theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openWidget(page, [{ url: sdk.url, id: 'sdk' }]);
  // From the tab list through the Servers view with the keyboard: tab, select, input, summary, button.
  await openTab(page, 'Servers');
  // The add form waits behind "+ Add server" once the list has a server; opening it focuses its field.
  await page.getByRole('button', { name: '+ Add server' }).click();
  await expect(page.getByLabel(/^Server URL/)).toBeFocused();
  // Keyboard from here on (rings are for keyboard focus: :focus-visible).
  await page.keyboard.press('Shift+Tab');
  const seen = new Set<string>();
  // The kind of server, its URL, custom headers, Add server, Close.
  for (let i = 0; i < 5; i++) {
    const ring = await outlineOfFocused(page);
    seen.add(ring.tag);
    expect(ring.style, ring.tag).toBe('solid');
    expect(ring.width, ring.tag).toBe('2px');
    // The accent colour (#7cacf8 in dark) draws the ring.
    expect(ring.color, ring.tag).toBe('rgb(124, 172, 248)');
    await page.keyboard.press('Tab');
  }
  expect([...seen].sort()).toEqual(expect.arrayContaining(['button', 'input', 'select', 'summary']));

  const controls = await page.evaluate(() => {
    const root = document.querySelector('toolgate-panel')!.shadowRoot!;
    const styleOf = (selector: string) => {
      const style = getComputedStyle(root.querySelector(selector)!);
      return { background: style.backgroundColor, color: style.color, scheme: style.colorScheme };
    };
    return { input: styleOf('#tg-server-url'), select: styleOf('#tg-server-kind') };
  });
  // Dark fields with light text, and native parts (pickers, arrows, scroll bars) in the dark scheme.
  for (const control of Object.values(controls))
    expect(control).toEqual({ background: 'rgb(13, 17, 23)', color: 'rgb(230, 237, 243)', scheme: 'dark' });
  await axe(page, 'servers (dark)');
});

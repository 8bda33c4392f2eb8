/**
 * The panel's layout and look (issue 26), in Chromium against two real SDK servers: the tool list and
 * the selected tool side by side from 720 px of panel, one column below; tools grouped by server with
 * their annotations marked as the server's claim; one scrollable row of tabs at 400 px; checkboxes
 * kept with their labels; the dark-theme toggle, kept per page; design tokens a host page overrides;
 * "/" to search the tools; placeholder lines while a lazy view loads; axe in light and dark at both
 * widths.
 */
import { expect, type Page, test } from '@playwright/test';
import { type ApprovalPeer, startApprovalPeer } from './fixtures/approval/start-peer.js';
import { serveFixture } from './support/fixture-page.js';
import { type Peer, startPeer } from './support/peers.js';
import {
  axe,
  fillServerUrl,
  focusInPanel,
  horizontalOverflow,
  openTab,
  openWidget,
  shot,
} from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });
test.describe.configure({ mode: 'serial' });

let sdk: Peer;
let risky: ApprovalPeer;
test.beforeAll(async () => {
  [sdk, risky] = await Promise.all([startPeer('sdk1-stateful-sse'), startApprovalPeer()]);
});
test.afterAll(async () => {
  await Promise.all([sdk?.stop(), risky?.stop()]);
});

const EVERYDAY = 'Everyday tools';
const RISKY = 'Risky tools';

async function openBoth(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await openWidget(page, [
    { url: sdk.url, id: 'sdk', label: EVERYDAY },
    { url: risky.url, id: 'risky', label: RISKY },
  ]);
}

/** Opens the Tools tab and picks `tool` (by the start of its row's text). */
async function pickTool(page: Page, tool: string): Promise<void> {
  await openTab(page, 'Tools');
  await page.locator('.tg-tool-button', { hasText: new RegExp(`^${tool}\\b`) }).click();
  await expect(page.locator('.tg-tool-detail h3')).toHaveText(tool);
}

/** The boxes of the tool list and of the selected tool's detail. */
async function boxes(page: Page) {
  const list = await page.locator('.tg-virtual').boundingBox();
  const detail = await page.locator('.tg-tool-detail').boundingBox();
  if (!list || !detail) throw new Error('the list or the detail is not shown');
  return { list, detail };
}

for (const width of [1100, 1280])
  test(`at ${width} px the tool list and the selected tool stand side by side`, async ({ page }) => {
    await openBoth(page, width);
    await pickTool(page, 'echo');
    const { list, detail } = await boxes(page);
    // The detail starts right of the list, level with it (not below it).
    expect(detail.x).toBeGreaterThanOrEqual(list.x + list.width);
    expect(detail.y).toBeLessThan(list.y + list.height);
    // And the form is there, beside the list, without scrolling past it.
    const call = await page.getByRole('button', { name: 'Call echo' }).boundingBox();
    expect(call!.x).toBeGreaterThanOrEqual(list.x + list.width);
    expect(await horizontalOverflow(page)).toEqual({ page: 0, panel: 0 });
    await shot(page, `layout-two-panes-${width}`);
  });

test('at 400 px the selected tool is under the list, in one column', async ({ page }) => {
  await openBoth(page, 400);
  await pickTool(page, 'echo');
  const { list, detail } = await boxes(page);
  expect(detail.y).toBeGreaterThanOrEqual(list.y + list.height);
  expect(Math.abs(detail.x - list.x)).toBeLessThan(2);
  expect(await horizontalOverflow(page)).toEqual({ page: 0, panel: 0 });
  await shot(page, 'layout-one-column-400');
});

test("tools are grouped under their server's name, titles first, with the annotations as the server's claim", async ({
  page,
}) => {
  await openBoth(page, 1280);
  await openTab(page, 'Tools');
  // The list as drawn, top to bottom: server headings and tool titles.
  const drawn = await page.locator('.tg-tool-list > li').evaluateAll((items) =>
    items
      .map((item) => ({
        top: (item as HTMLElement).offsetTop,
        group: item.classList.contains('tg-tool-group'),
        text: (item.querySelector('.tg-tool-title') ?? item).textContent ?? '',
      }))
      .sort((a, b) => a.top - b.top)
      .map((item) => (item.group ? `# ${item.text}` : item.text)),
  );
  const everyday = drawn.indexOf(`# ${EVERYDAY}`);
  const riskyAt = drawn.indexOf(`# ${RISKY}`);
  expect(everyday).toBe(0);
  expect(riskyAt).toBeGreaterThan(everyday);
  // Each server's tools under its own heading, and under no other.
  for (const tool of ['echo', 'wipe', 'add']) {
    expect(drawn.indexOf(tool)).toBeGreaterThan(everyday);
    expect(drawn.indexOf(tool)).toBeLessThan(riskyAt);
  }
  for (const tool of ['run_command', 'send_message', 'lookup'])
    expect(drawn.indexOf(tool)).toBeGreaterThan(riskyAt);

  const row = (tool: string) => page.locator('.tg-tool-button', { hasText: new RegExp(`^${tool}\\b`) });
  // The marks, each named as the server's claim (its title for the eye, its text for a reader).
  const marks = [
    ['run_command', 'Destructive'],
    ['send_message', 'Open world'],
    ['wipe', 'Read-only'],
  ] as const;
  for (const [tool, mark] of marks) {
    const badge = row(tool).locator('.tg-badge', { hasText: mark });
    await expect(badge).toHaveText(`${mark} (the server's claim)`);
    await expect(badge).toHaveAttribute('title', `${mark} (the server's claim)`);
    await expect(badge.locator('.tg-visually-hidden')).toHaveText(" (the server's claim)");
  }
  await expect(row('echo').locator('.tg-badge')).toHaveCount(0);
  // One line of description, and the server's name for whoever cannot see the heading.
  await expect(row('echo').locator('.tg-tool-description')).toHaveText('Echoes the message back');
  await expect(row('echo')).toHaveAccessibleName(/^echo · Everyday tools/);
  await shot(page, 'layout-grouped-tools');
});

test('at 400 px the tabs are one row, in their order, that scrolls; checkboxes stay with their labels', async ({
  page,
}) => {
  await openBoth(page, 400);
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveText([
    'Servers',
    'Tools',
    'Skills',
    'Activity',
    'Audit log',
    'Approvals',
    'Rules',
    'Inspect',
  ]);
  const tops = await tabs.evaluateAll((all) => all.map((tab) => tab.getBoundingClientRect().top));
  expect(new Set(tops).size).toBe(1);
  const strip = page.getByRole('tablist');
  const scroll = await strip.evaluate((element) => ({
    overflow: getComputedStyle(element).overflowX,
    hidden: element.scrollWidth - element.clientWidth,
  }));
  expect(scroll.overflow).toBe('auto');
  expect(scroll.hidden).toBeGreaterThan(0);
  // The last tab, reached with the keyboard, is scrolled into the strip's view.
  await page.getByRole('tab', { name: 'Servers' }).focus();
  await page.keyboard.press('ArrowLeft');
  const inspect = page.getByRole('tab', { name: 'Inspect' });
  await expect(inspect).toBeFocused();
  const [tabBox, stripBox] = await Promise.all([inspect.boundingBox(), strip.boundingBox()]);
  expect(tabBox!.x + tabBox!.width).toBeLessThanOrEqual(stripBox!.x + stripBox!.width + 1);
  expect(await horizontalOverflow(page)).toEqual({ page: 0, panel: 0 });

  // Selects within the panel.
  await openTab(page, 'Servers');
  const rootRight = await page.locator('.tg-root').evaluate((root) => root.getBoundingClientRect().right);
  for (const right of await page
    .locator('select')
    .evaluateAll((all) => all.map((select) => select.getBoundingClientRect().right)))
    expect(right).toBeLessThanOrEqual(rootRight);

  // A checkbox's label starts on the checkbox's line, even in a side panel's width.
  await page.setViewportSize({ width: 320, height: 900 });
  await pickTool(page, 'echo');
  const lines = await page.locator('label:has(> input[type=checkbox])').evaluateAll((labels) =>
    labels.map((label) => {
      const box = label.querySelector('input')!.getBoundingClientRect();
      const text = [...label.childNodes].find(
        (node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim(),
      );
      const range = document.createRange();
      range.selectNodeContents(text!);
      const first = range.getClientRects()[0]!;
      return { checkbox: Math.round(box.top), text: Math.round(first.top), label: label.textContent };
    }),
  );
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(Math.abs(line.checkbox - line.text), line.label ?? '').toBeLessThan(8);
  await shot(page, 'layout-narrow-320');
});

test('the dark-theme toggle is reached by keyboard, says its state, and is kept for the page', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openWidget(page, []);
  const toggle = page.getByRole('button', { name: 'Dark theme' });
  const background = () =>
    page.locator('.tg-root').evaluate((root) => getComputedStyle(root).backgroundColor);
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  expect(await background()).toBe('rgb(255, 255, 255)');
  // The first stop of the panel's tab order.
  await page.keyboard.press('Tab');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Space');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  expect(await background()).toBe('rgb(13, 17, 23)');
  await axe(page, 'dark by the toggle');

  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  expect(await background()).toBe('rgb(13, 17, 23)');
  // Back to light over a dark system: the person's choice wins over the system's.
  await page.emulateMedia({ colorScheme: 'dark' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  expect(await background()).toBe('rgb(255, 255, 255)');
});

test('a host page overrides the design tokens on the element', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openWidget(page, []);
  await page.addStyleTag({
    content:
      'toolgate-panel { --tg-accent: rgb(122, 31, 162); --tg-bg: rgb(250, 245, 235); --tg-radius: 0px; }',
  });
  const look = await page.evaluate(() => {
    const root = document.querySelector('toolgate-panel')!.shadowRoot!;
    const selected = getComputedStyle(root.querySelector('[role=tab][aria-selected=true]')!);
    const panel = getComputedStyle(root.querySelector('.tg-root')!);
    const button = getComputedStyle(root.querySelector('.tg-header button')!);
    return {
      tab: selected.borderBottomColor,
      background: panel.backgroundColor,
      radius: button.borderRadius,
    };
  });
  expect(look).toEqual({ tab: 'rgb(122, 31, 162)', background: 'rgb(250, 245, 235)', radius: '0px' });
});

test('"/" opens the Tools tab at its search, except while typing in a field', async ({ page }) => {
  await openBoth(page, 1280);
  // From a field: the key is typed, the tab stays.
  await fillServerUrl(page, '');
  const url = page.locator('#tg-server-url');
  await url.press('/');
  await expect(url).toHaveValue('/');
  await expect(page.getByRole('tab', { name: 'Servers' })).toHaveAttribute('aria-selected', 'true');
  // From anywhere else in the panel: the search, on the Tools tab.
  await page.getByRole('tab', { name: 'Servers' }).focus();
  await page.keyboard.press('/');
  await expect(page.getByRole('tab', { name: 'Tools' })).toHaveAttribute('aria-selected', 'true');
  await expect.poll(async () => (await focusInPanel(page))?.id).toBe('tg-tool-search');
  // In the search itself, "/" is a letter like any other.
  await page.keyboard.type('a/b');
  await expect(page.locator('#tg-tool-search')).toHaveValue('a/b');
  // And from the list, back to the search.
  await page.locator('#tg-tool-search').fill('');
  await page.locator('.tg-tool-button', { hasText: /^echo\b/ }).focus();
  await page.keyboard.press('/');
  await expect.poll(async () => (await focusInPanel(page))?.id).toBe('tg-tool-search');
});

test('a lazy view shows placeholder lines, announced as loading, until its chunk arrives', async ({
  page,
}) => {
  await serveFixture(page, 'https://lazy.test', 'e2e/fixtures/layout/lazy-page.tsx', 'Lazy view');
  await page.goto('https://lazy.test/');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  const placeholder = page.locator('.tg-placeholder');
  await expect(placeholder).toHaveRole('status');
  await expect(placeholder).toHaveText('Loading…');
  // Grey lines with height, not a blank area.
  const lines = await placeholder
    .locator('i')
    .evaluateAll((all) => all.map((line) => line.getBoundingClientRect().height));
  expect(lines).toHaveLength(3);
  for (const height of lines) expect(height).toBeGreaterThan(0);
  await page.evaluate(() => (window as unknown as { arrive(): void }).arrive());
  await expect(page.locator('.tg-arrived')).toHaveText('The view arrived.');
  await expect(placeholder).toHaveCount(0);
});

for (const width of [1280, 400])
  for (const scheme of ['light', 'dark'] as const)
    test(`axe clean with a tool open at ${width} px (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openBoth(page, width);
      await pickTool(page, 'echo');
      await axe(page, `tools at ${width} px (${scheme})`);
      await openTab(page, 'Servers');
      await axe(page, `servers at ${width} px (${scheme})`);
      await shot(page, `layout-servers-${width}-${scheme}`);
    });

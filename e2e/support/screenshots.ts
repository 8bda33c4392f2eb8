/**
 * What the screenshot specs share: one font on every machine, the widths and themes each view is
 * shot in, a settled view before each shot, and axe on the same state.
 *
 * Regenerate every baseline after a change to the views (one command, then review the PNGs in
 * e2e/__screenshots__/ before committing them):
 *   npx playwright test e2e/screenshots.spec.ts e2e/extension-screenshots.spec.ts --update-snapshots --workers=1
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

export const WIDTHS = [1280, 400] as const;
export const SCHEMES = ['light', 'dark'] as const;

/**
 * The panel's design tokens set to DejaVu (fonts-dejavu-core, which .ci/run installs when missing),
 * and the host page's own text with it: system-ui differs between machines, DejaVu does not.
 * `selector` is the element the panel lives in (its shadow host).
 */
export async function forceOneFont(page: Page, selector = 'toolgate-panel'): Promise<void> {
  await page.addStyleTag({
    content: `${selector} { --tg-font: "DejaVu Sans"; --tg-mono: "DejaVu Sans Mono"; }
body { font-family: "DejaVu Sans", sans-serif; } code, pre { font-family: "DejaVu Sans Mono", monospace; }`,
  });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/**
 * Waits until nothing on the page is still arriving: no loading placeholder, no "Loading…" or
 * "Reading…" line, no table still being read, no dialog still arming. (A call waiting in a dialog
 * keeps its spinner: that is the state shown, and animations are stopped for the shot.)
 */
export async function settled(page: Page): Promise<void> {
  await expect(page.locator('.tg-placeholder, table[aria-busy="true"], [data-arming]')).toHaveCount(0);
  await expect(page.getByText(/^(Loading|Reading)\b.*…$/)).toHaveCount(0);
}

/**
 * Writes "PORT" for the port of every 127.0.0.1 address shown (the test servers listen there, on
 * ports the system picks), in place in the text nodes, in the page and in every open shadow root: the shot
 * keeps the address's place and look, the same in every run.
 */
export async function pinPorts(page: Page): Promise<void> {
  await page.evaluate(() => {
    // 127.0.0.1 only, where the test servers listen: "localhost:5391" is the panel's own example.
    const loopback = /\b127\.0\.0\.1:\d+/g;
    const visit = (root: Document | ShadowRoot) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node instanceof Text) {
          if (loopback.test(node.data)) node.data = node.data.replace(loopback, '127.0.0.1:PORT');
          loopback.lastIndex = 0;
        } else if (node instanceof Element && node.shadowRoot) visit(node.shadowRoot);
      }
    };
    visit(document);
  });
}

/** The selected tab scrolled into the tab strip's view, as it is once picked at this width. */
async function showSelectedTab(page: Page): Promise<void> {
  const selected = page.locator('[role=tab][aria-selected=true]');
  if ((await selected.count()) === 1)
    await selected.evaluate((tab) => tab.scrollIntoView({ block: 'nearest', inline: 'nearest' }));
}

export interface ShotOptions {
  /** More to freeze before each shot, in place (pinPorts always runs). */
  freeze?: (page: Page) => Promise<void>;
  /** What changes between runs and is not the view's look: addresses with ports, ids, digests. */
  mask?: (page: Page) => Locator[];
  /** Which widths (default both); a popup has one. */
  widths?: readonly number[];
  /** The viewport's height (default 900). */
  height?: number;
  /** The whole page (default) or only what the viewport shows. */
  fullPage?: boolean;
}

/**
 * Shoots the view as it stands at each width and theme (switched in place: the same page, the same
 * state), and runs axe on each: `${name}-${width}-${scheme}.png`.
 */
export async function shootEveryWay(page: Page, name: string, options: ShotOptions = {}): Promise<void> {
  for (const width of options.widths ?? WIDTHS) {
    await page.setViewportSize({ width, height: options.height ?? 900 });
    for (const colorScheme of SCHEMES) {
      await page.emulateMedia({ colorScheme });
      await settled(page);
      await pinPorts(page);
      await options.freeze?.(page);
      await showSelectedTab(page);
      // No hover look left by the last click, which the new width may have put under the pointer.
      await page.mouse.move(0, 0);
      await expect(page).toHaveScreenshot(`${name}-${width}-${colorScheme}.png`, {
        fullPage: options.fullPage ?? true,
        mask: options.mask?.(page) ?? [],
      });
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${name} ${width} ${colorScheme}: ${v.id} ${v.nodes[0]?.target}`),
      ).toEqual([]);
    }
  }
}

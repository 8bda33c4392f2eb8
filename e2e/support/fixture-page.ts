/**
 * A bundled test page served at a fixed origin, as most specs open it: `/page.js` is the bundle of
 * one fixture, every other path a minimal host page (a landmark and a heading, so axe has a page to
 * judge) that loads it. Said once here instead of in each spec.
 */
import type { Page } from '@playwright/test';
import { bundle } from './bundle.js';

/** The host page around a fixture: its title, a main landmark, a heading, the fixture's script. */
export function hostPage(title: string): string {
  return `<!doctype html><html lang="en"><title>${title}</title><main><h1>Host app</h1><script type="module" src="/page.js"></script></main></html>`;
}

/** Routes `origin` to the bundle of `fixture` (at /page.js) and the host page titled `title`. */
export async function serveFixture(
  page: Page,
  origin: string,
  fixture: string,
  title: string,
): Promise<void> {
  const script = await bundle(fixture);
  await page.route(`${origin}/**`, (route) =>
    new URL(route.request().url()).pathname === '/page.js'
      ? route.fulfill({ contentType: 'application/javascript', body: script })
      : route.fulfill({ contentType: 'text/html', body: hostPage(title) }),
  );
}

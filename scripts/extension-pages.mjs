/**
 * The Vite build of the extension's pages (side panel and popup: ES modules, code-split like the
 * widget), shared by `npm run build:extension` (scripts/build-extension.mjs) and the size budget of
 * the side panel (scripts/check-size.mjs), so the budget measures what ships.
 */
import { join } from 'node:path';

/** Chrome's oldest version the extension supports (side panel API with its options). */
export const EXTENSION_TARGET = 'chrome116';

/** Build options for the pages from `root`/extension into `outDir` (or in memory with `write: false`). */
export function extensionPagesBuild(root, { outDir, write = true }) {
  const source = join(root, 'extension');
  return {
    configFile: false,
    logLevel: 'warn',
    root: source,
    base: '/',
    build: {
      ...(outDir ? { outDir, emptyOutDir: true } : {}),
      write,
      target: EXTENSION_TARGET,
      rolldownOptions: {
        input: { sidepanel: join(source, 'sidepanel.html'), popup: join(source, 'popup.html') },
      },
    },
  };
}

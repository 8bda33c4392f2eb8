/**
 * The drop-in widget as `npm run build` makes it (vite.widget.config.ts), built into a temporary
 * folder and read into memory: what the widget benches serve to Chromium.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';

/** Builds the widget; `files` maps each output file name to its bytes; `dispose` removes the folder. */
export async function buildWidget(prefix) {
  const outDir = await mkdtemp(join(tmpdir(), prefix));
  await build({
    configFile: 'vite.widget.config.ts',
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
  });
  const files = new Map();
  for (const name of await readdir(outDir)) files.set(name, await readFile(join(outDir, name)));
  return { files, dispose: () => rm(outDir, { recursive: true, force: true }) };
}

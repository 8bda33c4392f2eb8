/**
 * Bundles a TypeScript entry into one ES module string for a test page, with Vite's own build API
 * (the same bundler that ships the library), as a single file. Cached per entry for the life of the test process.
 */
import { resolve } from 'node:path';
import { build, type Rolldown } from 'vite';

const cache = new Map<string, Promise<string>>();

export function bundle(entry: string): Promise<string> {
  const absolute = resolve(entry);
  let pending = cache.get(absolute);
  if (!pending) {
    pending = buildOnce(absolute);
    cache.set(absolute, pending);
  }
  return pending;
}

async function buildOnce(entry: string): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      sourcemap: 'inline',
      lib: { entry, formats: ['es'], fileName: 'bundle' },
      // One file a test can serve: lazily imported modules (Ajv) are inlined rather than split off.
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
  const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
  for (const item of outputs.flatMap((o) => o.output))
    if (item.type === 'chunk' && item.isEntry) return item.code;
  throw new Error(`bundling ${entry} produced no entry chunk`);
}

/**
 * How many bytes a page pays before it can use a bundle: the entry chunk and every chunk it imports
 * statically ("eager files"). Chunks reached only through `import()` are not counted: they load when
 * the code that needs them runs. Two ways to count them, both gzip level 9:
 *   - per file, as a server sends the files we ship (the widget, the extension);
 *   - as one file, for the library: an app's own bundler decides how our modules are cut into
 *     files, so the eager code is counted as if it were one file (issue 25's 24.0 KB was this).
 * Shared by the size budgets (scripts/check-size.mjs) and the benchmark (bench/run.mjs).
 */
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

/** Gzip level 9 size of a file's bytes. */
export function gzipSize(code) {
  return gzipSync(code, { level: 9 }).length;
}

/**
 * Vite build options for a production bundle of one library entry, as an app would ship it:
 * minified, ES2022, `process.env.NODE_ENV` set to production. `split: false` inlines every
 * `import()` into one file (what the benchmark's navigation pages load).
 */
export function entryBuildOptions(root, entry, { split = true, outDir, write = true } = {}) {
  return {
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    // Libraries that branch on NODE_ENV get their production paths, as in any app build.
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      ...(outDir ? { outDir, emptyOutDir: false } : {}),
      write,
      copyPublicDir: false,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      lib: { entry: join(root, entry), formats: ['es'], fileName: () => `${entryName(entry)}.js` },
      rolldownOptions: { output: { codeSplitting: split } },
    },
  };
}

function entryName(entry) {
  return entry.replace(/^.*\//, '').replace(/\.[cm]?[jt]sx?$/, '');
}

/** The chunks of a Vite build result (one output, or the first of several), by file name. */
export function chunksOf(result) {
  const output = (Array.isArray(result) ? result[0] : result).output;
  return new Map(output.filter((item) => item.type === 'chunk').map((chunk) => [chunk.fileName, chunk]));
}

/**
 * The files loaded before any of `entryFile`'s code runs: it and its static imports, transitively.
 * Returns them with their gzip sizes, and the modules each holds (largest first), for reports.
 */
export function eagerFiles(chunks, entryFile) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    const chunk = chunks.get(name);
    if (!chunk) throw new Error(`the build has no chunk ${name}`);
    seen.add(name);
    for (const imported of chunk.imports) visit(imported);
  };
  visit(entryFile);
  return [...seen].map((name) => {
    const chunk = chunks.get(name);
    return {
      name,
      code: chunk.code,
      gzipBytes: gzipSize(chunk.code),
      modules: Object.entries(chunk.modules)
        .map(([id, module]) => ({ id, bytes: module.renderedLength }))
        .filter((module) => module.bytes > 0)
        .sort((a, b) => b.bytes - a.bytes),
    };
  });
}

/** Builds `entry` (a path under `root`) in memory, code-split, and returns its eager files. */
export async function eagerSizeOfEntry(root, entry) {
  const chunks = chunksOf(await build(entryBuildOptions(root, entry, { write: false })));
  const first = [...chunks.values()].find((chunk) => chunk.isEntry);
  if (!first) throw new Error(`building ${entry} made no entry chunk`);
  return eagerFiles(chunks, first.fileName);
}

/** The eager files' sizes: gzip per file (summed), gzip of them joined as one file, and minified bytes. */
export function totals(files) {
  return {
    perFileGzip: files.reduce((sum, file) => sum + file.gzipBytes, 0),
    oneFileGzip: gzipSize(files.map((file) => file.code).join('\n')),
    minified: files.reduce((sum, file) => sum + Buffer.byteLength(file.code), 0),
  };
}

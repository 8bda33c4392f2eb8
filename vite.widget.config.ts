import { build, defineConfig, type Plugin, type Rollup, type UserConfig } from 'vite';

// The widget as a drop-in script for pages without a bundler: everything bundled and minified,
// with the gate, the validators, the audit log and the rarer views in chunks loaded after the
// first paint. bench/widget.mjs measures the first load (the entry and its static imports).
//
// Library mode keeps whitespace and comments in ES output unless the bundler is told to minify
// the output itself (about 2 KB gzip of the first load); an app build would minify but add a
// module-preload helper to the first load. The minified output still kept the /* @__PURE__ */
// marks on every JSX call: they only help a bundler that tree-shakes this file again, which a
// drop-in script never meets, so they go (about 0.2 KB gzip before the first screen).
const widgetBuild = {
  outDir: 'dist/widget',
  emptyOutDir: true,
  target: 'es2022',
  minify: true,
  lib: { entry: 'src/widget.ts', formats: ['es' as const], fileName: 'toolgate-widget' },
  rolldownOptions: { output: { minify: true, comments: { legal: true, annotation: false, jsdoc: false } } },
};

/**
 * The modules the first screen loads: those of the entry chunk and of the chunks it imports
 * statically, in a build split the default way (in memory, without this plugin).
 */
async function firstScreenModules(root: string | undefined): Promise<Set<string>> {
  const result = await build({
    ...(root ? { root } : {}),
    configFile: false,
    logLevel: 'silent',
    build: { ...widgetBuild, write: false },
  });
  const output = (Array.isArray(result) ? result[0] : result) as Rollup.RollupOutput;
  const chunks = new Map<string, Rollup.OutputChunk>();
  for (const item of output.output) if (item.type === 'chunk') chunks.set(item.fileName, item);
  const modules = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string) => {
    const chunk = chunks.get(name);
    if (!chunk || seen.has(name)) return;
    seen.add(name);
    for (const id of Object.keys(chunk.modules)) modules.add(id);
    for (const imported of chunk.imports) visit(imported);
  };
  visit('toolgate-widget.js');
  return modules;
}

/**
 * Puts the first screen's modules in one chunk beside the entry, not a dozen small chunks shared
 * with the lazy views: each file is gzipped on its own and small files compress poorly (about
 * 2 KB gzip of the first load). The lazy views import from that chunk, loaded before any of them.
 */
function firstScreenChunk(): Plugin {
  return {
    name: 'toolgate-first-screen-chunk',
    apply: 'build',
    // The same root as the build it serves (bench/oauth.mjs builds a tree of its own).
    async config(user): Promise<UserConfig> {
      const first = await firstScreenModules(user.root);
      return {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: { groups: [{ name: 'first-screen', test: (id: string) => first.has(id) }] },
            },
          },
        },
      };
    },
  };
}

export default defineConfig({ plugins: [firstScreenChunk()], build: widgetBuild });

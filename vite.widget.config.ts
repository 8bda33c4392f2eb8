import { defineConfig } from 'vite';

// The widget as a drop-in script for pages without a bundler: everything bundled and minified,
// with the gate, the validators, the audit log and the rarer views in chunks loaded after the
// first paint. bench/widget.mjs measures the first load (the entry and its static imports).
//
// Library mode keeps whitespace and comments in ES output unless the bundler is told to minify
// the output itself (about 2 KB gzip of the first load); an app build would minify but add a
// module-preload helper to the first load. The minified output still kept the /* @__PURE__ */
// marks on every JSX call: they only help a bundler that tree-shakes this file again, which a
// drop-in script never meets, so they go (about 0.2 KB gzip before the first screen).
export default defineConfig({
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    lib: { entry: 'src/widget.ts', formats: ['es'], fileName: 'toolgate-widget' },
    rolldownOptions: { output: { minify: true, comments: { legal: true, annotation: false, jsdoc: false } } },
  },
});

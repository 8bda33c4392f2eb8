import { defineConfig } from 'vite';

// The widget as a drop-in script for pages without a bundler: everything bundled and minified,
// with the gate, the validators, the audit log and the rarer views in chunks loaded after the
// first paint. bench/widget.mjs measures the first load (the entry and its static imports).
export default defineConfig({
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    lib: { entry: 'src/widget.ts', formats: ['es'], fileName: 'toolgate-widget' },
  },
});

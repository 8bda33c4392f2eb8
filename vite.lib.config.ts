import { defineConfig } from 'vite';

// The library: ESM with its dependencies external (the consumer's bundler dedupes them);
// declarations come from `tsc -p tsconfig.build.json`.
export default defineConfig({
  build: {
    outDir: 'dist/lib',
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    sourcemap: true,
    lib: {
      entry: { index: 'src/index.ts', widget: 'src/widget.ts', host: 'src/host/index.ts' },
      formats: ['es'],
    },
    rolldownOptions: {
      external: [
        'eventsource-parser',
        'ajv',
        /^ajv\//,
        'ajv-formats',
        '@cfworker/json-schema',
        'idb-keyval',
        /^preact(\/|$)/,
        /^@preact\/signals/,
      ],
    },
  },
});

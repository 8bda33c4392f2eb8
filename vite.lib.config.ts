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
      // auth: `toolgate/auth`, for a host's sign-in callback page (completeSignIn) and OAuth wiring.
      entry: {
        index: 'src/index.ts',
        widget: 'src/widget.ts',
        host: 'src/host/index.ts',
        auth: 'src/auth/index.ts',
      },
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
        'oauth4webapi',
        /^preact(\/|$)/,
        /^@preact\/signals/,
      ],
    },
  },
});

import { defineConfig } from 'vite';

// The demo site (index.html). The library has its own config (vite.lib.config.ts).
export default defineConfig({
  build: { outDir: 'dist/site', emptyOutDir: true, target: 'es2022' },
  server: { host: '127.0.0.1' },
});

import { defineConfig } from 'vite';

// The demo site (index.html). The library has its own config (vite.lib.config.ts).
export default defineConfig({
  // The static site: the demo page, the example app, and (as a worker chunk) the in-browser
  // demo server.
  // Relative URLs, so it works from any path on any static host.
  base: './',
  build: {
    outDir: 'dist/site',
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      input: {
        demo: 'index.html',
        agent: 'examples/agent/index.html',
      },
    },
  },
  worker: { format: 'es' },
  server: { host: '127.0.0.1' },
});

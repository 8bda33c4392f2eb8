import { defineConfig } from 'vite';
import { clientMetadataDocumentPlugin } from './src/demo/client-metadata-document.mjs';

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
        // The redirect URI of the demo's OAuth client: hands the sign-in back to the demo page.
        'oauth-callback': 'src/demo/oauth-callback.html',
      },
    },
  },
  worker: { format: 'es' },
  // The demo's Client ID Metadata Document (OAuth client identity): see the plugin.
  plugins: [clientMetadataDocumentPlugin()],
  server: { host: '127.0.0.1' },
});

/**
 * The demo site's OAuth client identity as a Client ID Metadata Document (the MCP specification's
 * first choice): a JSON document whose own https URL is the client id. The document names its own
 * address and the callback page's, so it belongs to one deployment:
 * - Vite's dev server (and `npm start`) serves it at <base>client-metadata.json, built for the
 *   address the request came to;
 * - the static build writes it when told where the site will live:
 *   `TOOLGATE_SITE_URL=https://tools.example.com/toolgate/ npm run build`; without that it writes
 *   none (a guessed address would be a client id nobody serves) and the demo registers dynamically.
 * The page learns which applies from `import.meta.env.VITE_CLIENT_METADATA_DOCUMENT`: 'served'
 * (dev), the document's URL (a build that has one), or '' (none).
 */

export const CLIENT_METADATA_PATH = 'client-metadata.json';
/** Where the callback page is, relative to the site's base (src/demo/oauth-callback.html). */
export const CALLBACK_PATH = 'src/demo/oauth-callback.html';

/** The document for a site whose base URL (ending in '/') is `siteUrl`. */
export function clientMetadataDocument(siteUrl) {
  const base = new URL(siteUrl);
  return {
    client_id: new URL(CLIENT_METADATA_PATH, base).href,
    client_name: 'Toolgate demo',
    client_uri: base.href,
    redirect_uris: [new URL(CALLBACK_PATH, base).href],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    // A page keeps no secret: a public client, which PKCE protects.
    token_endpoint_auth_method: 'none',
  };
}

/** The Vite plugin: serves the document in dev, writes it in a build that knows its address. */
export function clientMetadataDocumentPlugin() {
  const siteUrl = process.env.TOOLGATE_SITE_URL;
  let base = '/';
  let command = 'serve';
  return {
    name: 'toolgate-client-metadata-document',
    config(_config, env) {
      command = env.command;
      const where =
        env.command === 'serve'
          ? 'served'
          : siteUrl
            ? new URL(CLIENT_METADATA_PATH, withSlash(siteUrl)).href
            : '';
      return { define: { 'import.meta.env.VITE_CLIENT_METADATA_DOCUMENT': JSON.stringify(where) } };
    },
    configResolved(config) {
      base = config.base.startsWith('/') ? config.base : '/';
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (path !== `${base}${CLIENT_METADATA_PATH}`) return next();
        // Behind a TLS proxy the page is https: the address the person's browser used is the id.
        const proto = req.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
        const site = `${proto}://${req.headers.host}${base}`;
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
        res.end(JSON.stringify(clientMetadataDocument(site), null, 2));
      });
    },
    generateBundle() {
      if (command !== 'build' || !siteUrl) return;
      this.emitFile({
        type: 'asset',
        fileName: CLIENT_METADATA_PATH,
        source: `${JSON.stringify(clientMetadataDocument(withSlash(siteUrl)), null, 2)}\n`,
      });
    },
  };
}

function withSlash(url) {
  return url.endsWith('/') ? url : `${url}/`;
}

/**
 * How the demo page signs in to servers that ask (the `auth` of its server configs): the client is
 * "Toolgate demo", its redirect URI the site's callback page, and, on an https deployment whose
 * build knows its address (or Vite's dev server), its Client ID Metadata Document as the client id.
 * On plain http (npm start on 127.0.0.1) authorization servers accept no such client id, so the
 * demo registers itself (Dynamic Client Registration), the specification's fallback.
 */
import type { SignInOptions } from '../client/index.js';

/** 'served' (dev server), the document's URL (a build given TOOLGATE_SITE_URL), or '' (none). */
const metadataDocument =
  (import.meta as { env?: Record<string, string | undefined> }).env?.VITE_CLIENT_METADATA_DOCUMENT ?? '';

export function demoSignIn(): SignInOptions {
  const site = new URL('./', document.baseURI);
  const metadataDocumentUrl = clientIdDocument(site);
  return {
    client: {
      clientName: 'Toolgate demo',
      redirectUri: new URL('src/demo/oauth-callback.html', site).href,
      clientUri: site.href,
      ...(metadataDocumentUrl ? { metadataDocumentUrl } : {}),
    },
  };
}

function clientIdDocument(site: URL): string | undefined {
  if (site.protocol !== 'https:') return undefined;
  if (metadataDocument === 'served') return new URL('client-metadata.json', site).href;
  return metadataDocument || undefined;
}

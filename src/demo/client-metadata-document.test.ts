/**
 * The demo site's Client ID Metadata Document, as the static build writes it, accepted by a
 * certified authorization server: oidc-provider (with its CIMD support on) fetches the document,
 * checks it and the redirect URI, and Toolgate signs in with the document's URL as its client id,
 * then calls a tool on an SDK-built protected MCP server. The one stand-in: the document's https
 * address is served from 127.0.0.1 over http (no https host can run here), by the authorization
 * server's fetch hook; everything else is real. The person's login and consent are posted to
 * oidc-provider's own pages by a Node user agent.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build, type Rolldown } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthEvent } from '../auth/index.js';
import { clearEraCache, connect, type McpClient } from '../index.js';
import { type AuthorizationServer, startAuthorizationServer } from './authorization-server.mjs';
import { protectedServerHandler } from './protected-endpoint.mjs';

const SITE = 'https://toolgate.test/site/';

let servers: Server[] = [];
let as: AuthorizationServer | undefined;
let client: McpClient | undefined;

afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  await as?.close();
  as = undefined;
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  servers = [];
  clearEraCache();
});

/** `npm run build`'s document for a site deployed at `site` (the plugin reads TOOLGATE_SITE_URL). */
async function builtDocument(site: string): Promise<Record<string, unknown>> {
  const previous = process.env.TOOLGATE_SITE_URL;
  process.env.TOOLGATE_SITE_URL = site;
  try {
    const { clientMetadataDocumentPlugin } = await import('./client-metadata-document.mjs');
    const output = await build({
      configFile: false,
      logLevel: 'silent',
      plugins: [clientMetadataDocumentPlugin()],
      build: { write: false, rolldownOptions: { input: 'src/demo/oauth-callback.html' } },
    });
    const items = (Array.isArray(output) ? output : [output]).flatMap(
      (result) => (result as Rolldown.RolldownOutput).output,
    );
    const asset = items.find((item) => item.type === 'asset' && item.fileName === 'client-metadata.json');
    if (asset?.type !== 'asset') throw new Error('the build wrote no client-metadata.json');
    return JSON.parse(String(asset.source)) as Record<string, unknown>;
  } finally {
    if (previous === undefined) delete process.env.TOOLGATE_SITE_URL;
    else process.env.TOOLGATE_SITE_URL = previous;
  }
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The person at oidc-provider's development pages: logs in as "ada", consents; returns where it sent them back. */
async function consentAsAda(start: URL, redirectUri: string): Promise<string> {
  const cookies = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size)
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return response;
  };
  let url = start.href;
  for (let step = 0; step < 12; step++) {
    const response = await send(url);
    let location = response.headers.get('location');
    if (!location) {
      const page = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
      if (!action || !prompt) throw new Error(`unexpected page at ${url}: ${page.slice(0, 300)}`);
      const form = new URLSearchParams({
        prompt,
        ...(prompt === 'login' ? { login: 'ada', password: 'x' } : {}),
      });
      const posted = await send(new URL(action, url).href, { method: 'POST', body: form });
      location = posted.headers.get('location');
      if (!location) throw new Error(`oidc-provider answered ${posted.status} to the ${prompt} form`);
    }
    url = new URL(location, url).href;
    if (url.startsWith(redirectUri)) return url;
  }
  throw new Error('the sign-in did not come back');
}

describe("the demo site's Client ID Metadata Document", () => {
  it('is written by the static build for its address and accepted by oidc-provider as the client id', async () => {
    const document = await builtDocument(SITE);
    expect(document).toEqual({
      client_id: `${SITE}client-metadata.json`,
      client_name: 'Toolgate demo',
      client_uri: SITE,
      redirect_uris: [`${SITE}src/demo/oauth-callback.html`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });

    // The site, at its https address as far as the authorization server can tell.
    const fetched: string[] = [];
    const site = await listen((req, res) => {
      fetched.push(req.url ?? '');
      if (req.url !== '/site/client-metadata.json') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
    });
    // The protected MCP server, and oidc-provider for it.
    let protectedServer: ReturnType<typeof protectedServerHandler> | undefined;
    const mcpOrigin = await listen((req, res) => protectedServer?.(req, res));
    const resource = `${mcpOrigin}/mcp`;
    as = await startAuthorizationServer({
      resources: [{ resource, scopes: ['mcp:tools', 'mcp:write'] }],
      fetchClientMetadata: (url, init) => {
        // Only the name is stood in for; oidc-provider's own dispatcher refuses this machine's addresses.
        const { dispatcher: _refusesLoopback, ...rest } = init as RequestInit & { dispatcher?: unknown };
        return fetch(url.replace('https://toolgate.test', site), rest);
      },
    });
    const { issuer, introspect } = as;
    protectedServer = protectedServerHandler({ resource, issuer, introspect });

    const redirectUri = String((document.redirect_uris as string[])[0]);
    const events: AuthEvent[] = [];
    const { createOAuthFetch } = await import('../auth/index.js');
    client = await connect({
      url: resource,
      fetch: createOAuthFetch({
        serverUrl: resource,
        client: { clientName: 'Toolgate demo', redirectUri, metadataDocumentUrl: String(document.client_id) },
        authorize: (request) => consentAsAda(request.url, redirectUri),
        onEvent: (event) => events.push(event),
      }),
    });
    const result = await client.callTool('whoami', {});

    expect(result.content[0]).toMatchObject({ text: `client ${SITE}client-metadata.json with mcp:tools` });
    expect(fetched).toContain('/site/client-metadata.json');
    expect(events[0]).toMatchObject({ type: 'signed-in', client: 'metadata-document', issuer });
  });
});

/**
 * Client credentials against a certified authorization server: oidc-provider with its
 * client_credentials grant and resource indicators, two clients registered beforehand (one
 * authenticating with a secret, one with a signed JWT whose public key it holds), in front of an
 * MCP server built with the official SDK that requires tokens for its resource
 * (src/demo/protected-endpoint.mjs; both in e2e/peers/oidc-client-credentials.mjs). Toolgate's unchanged client runs over the OAuth fetch layer
 * in Node; no person and no window take part.
 */

import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ClientCredentialsServers,
  startClientCredentials,
} from '../../e2e/peers/oidc-client-credentials.mjs';
import { connect, type McpClient } from '../index.js';
import type { ClientCredentials } from './client-credentials.js';
import { AuthorizationError } from './errors.js';
import { createOAuthFetch } from './oauth-fetch.js';
import type { AuthEvent } from './session.js';

const SECRET = `secret-${randomBytes(16).toString('hex')}`;

let setup: ClientCredentialsServers | undefined;
let client: McpClient | undefined;

afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  await setup?.close();
  setup = undefined;
});

const start = (publicJwk: JsonWebKey) => startClientCredentials({ publicJwk, secret: SECRET });

async function connectAs(credentials: ClientCredentials, events: AuthEvent[] = []): Promise<McpClient> {
  if (!setup) throw new Error('no servers');
  client = await connect({
    url: setup.url,
    fetch: createOAuthFetch({
      serverUrl: setup.url,
      clientCredentials: credentials,
      onEvent: (event) => events.push(event),
    }),
  });
  return client;
}

async function keyPair() {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ]);
  return { pair, publicJwk: await crypto.subtle.exportKey('jwk', pair.publicKey) };
}

describe('client credentials at oidc-provider', () => {
  it('signs in with client_secret_basic at the first 401, and calls a tool with the token', async () => {
    setup = await start((await keyPair()).publicJwk);
    const events: AuthEvent[] = [];
    const mcp = await connectAs({ clientId: 'secret-app', clientSecret: SECRET }, events);
    expect((await mcp.listTools()).map((tool) => tool.name)).toContain('whoami');
    const result = await mcp.callTool('whoami', {});
    expect(JSON.stringify(result.content)).toContain('secret-app');
    expect(setup.tokenRequests).toEqual([{ clientId: 'secret-app', assertion: false }]);
    expect(events.map((event) => event.type)).toEqual(['signed-in']);
    expect(events[0]).toMatchObject({ client: 'pre-registered' });
  });

  it('signs in with private_key_jwt from a PKCS#8 PEM, the assertion verified against the registered key', async () => {
    const { pair, publicJwk } = await keyPair();
    setup = await start(publicJwk);
    const der = Buffer.from(await crypto.subtle.exportKey('pkcs8', pair.privateKey)).toString('base64');
    const pem = `-----BEGIN PRIVATE KEY-----\n${der}\n-----END PRIVATE KEY-----`;
    const mcp = await connectAs({ clientId: 'key-app', privateKey: pem, keyId: 'key-app-1' });
    const result = await mcp.callTool('whoami', {});
    expect(JSON.stringify(result.content)).toContain('key-app');
    expect(setup.tokenRequests).toEqual([{ clientId: 'key-app', assertion: true }]);
  });

  it('fetches a new token by itself when the server no longer takes the old one', async () => {
    setup = await start((await keyPair()).publicJwk);
    const mcp = await connectAs({ clientId: 'secret-app', clientSecret: SECRET });
    await mcp.callTool('whoami', {});
    await setup.revokeAll();
    const again = await mcp.callTool('whoami', {});
    expect(JSON.stringify(again.content)).toContain('secret-app');
    expect(setup.tokenRequests).toHaveLength(2);
  });

  it('is what connect({ auth: { clientCredentials } }) installs, and auth with no identity is refused at connect()', async () => {
    setup = await start((await keyPair()).publicJwk);
    const url = setup.url;
    client = await connect({
      url,
      auth: { clientCredentials: { clientId: 'secret-app', clientSecret: SECRET } },
    });
    expect(JSON.stringify((await client.callTool('whoami', {})).content)).toContain('secret-app');
    await expect(connect({ url, auth: {} })).rejects.toThrow(/needs client .* or clientCredentials/);
    expect(setup.tokenRequests).toHaveLength(1);
  });

  it('replaces a token about to expire before sending it, without a 401 in between', async () => {
    const publicJwk = (await keyPair()).publicJwk;
    setup = await startClientCredentials({ publicJwk, secret: SECRET, tokenSeconds: 2 });
    const mcp = await connectAs({ clientId: 'secret-app', clientSecret: SECRET });
    await mcp.callTool('whoami', {});
    const before = setup.tokenRequests.length;
    // Past the token's end, whatever the machine's load: it is due for replacement by then.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await mcp.callTool('whoami', {});
    expect(setup.tokenRequests.length).toBeGreaterThan(before);
    // Only the very first request went without a token (the 401 that started the sign-in).
    expect(setup.mcpRequests.filter((request) => request.authorization === null)).toHaveLength(1);
  });

  it('fails with an error naming the server and the step, never the secret', async () => {
    setup = await start((await keyPair()).publicJwk);
    const wrong = `${SECRET}-not-it`;
    const failure = await connectAs({ clientId: 'secret-app', clientSecret: wrong }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(AuthorizationError);
    const error = failure as AuthorizationError;
    expect(error.step).toBe('credentials');
    expect(error.message).toContain(setup.url);
    expect(error.message).toMatch(/invalid_client/);
    expect(error.message).not.toContain(SECRET);
  });
});

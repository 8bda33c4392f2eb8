/**
 * connect()'s `auth` option against a real MCP server that requires bearer tokens and its real
 * authorization server (official SDK, e2e/peers/oauth-protected.mjs), era detection left on auto:
 * the option installs the OAuth layer; a refused sign-in ends connect() with its own error and no
 * legacy handshake is tried after it; a handshake that times out while the person is still signing
 * in is started again once they are done. The user-agent step runs in Node (it follows the
 * authorization server's redirect as a browser would); the SDK's provider approves at once.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { type ProtectedServer, startProtectedServer } from '../../e2e/peers/oauth-protected.mjs';
import { followToCallback } from '../../test/support/follow-to-callback.js';
import { clearEraCache, connect, type McpClient, signInOf } from '../index.js';
import type { AuthorizationRequest } from './authorization-code.js';
import { forgetSignIn } from './connect-auth.js';
import { AuthorizationError } from './errors.js';
import type { AuthEvent } from './session.js';
import { memoryAuthStore } from './store.js';

const REDIRECT_URI = 'http://127.0.0.1:9/callback';

let server: ProtectedServer | undefined;
let client: McpClient | undefined;

afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  await server?.close();
  server = undefined;
  clearEraCache();
});

const rpcMethods = (peer: ProtectedServer) => peer.seen.mcp.map((request) => request.rpcMethod);

describe('connect({ auth })', () => {
  it('installs the OAuth layer: signs in at the first 401, and signInOf(client) signs out', async () => {
    server = await startProtectedServer({ refreshTokens: true });
    const events: AuthEvent[] = [];
    client = await connect({
      url: server.url,
      auth: {
        client: { clientName: 'Toolgate test', redirectUri: REDIRECT_URI },
        authorize: followToCallback,
        store: memoryAuthStore(),
        onEvent: (event) => events.push(event),
      },
    });
    const result = await client.callTool('whoami', {});

    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/with mcp:tools$/) });
    expect(server.seen.authorizations).toEqual([{ scopes: ['mcp:tools'], resource: server.url }]);
    const signIn = signInOf(client);
    expect(await signIn?.signedIn()).toBe(true);
    await signIn?.signOut();
    expect(await signIn?.signedIn()).toBe(false);
    expect(server.seen.revocations).toBe(1);
    expect(events.map((event) => event.type)).toEqual(['signed-in', 'signed-out']);
  });

  it('forgetSignIn forgets a server’s kept tokens without a connection: the next connect signs in again', async () => {
    server = await startProtectedServer();
    const store = memoryAuthStore();
    const auth = {
      client: { clientName: 'Toolgate test', redirectUri: REDIRECT_URI },
      authorize: followToCallback,
      store,
    };
    client = await connect({ url: server.url, auth });
    await client.listTools();
    await client.close();
    // Kept: a new connection with the same store signs in from it, nobody asked.
    const refused = async () => {
      throw new Error('asked to sign in');
    };
    client = await connect({ url: server.url, auth: { ...auth, authorize: refused } });
    await client.close();
    client = undefined;
    expect(server.seen.authorizations).toHaveLength(1);

    await forgetSignIn(server.url, auth);
    const error = await connect({ url: server.url, auth: { ...auth, authorize: refused } }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as Error).message).toContain('asked to sign in');
  });

  it('reports a refused sign-in as the error of connect(), without trying the legacy handshake after it', async () => {
    server = await startProtectedServer();
    const error = await connect({
      url: server.url,
      auth: {
        client: { clientName: 'Toolgate test', redirectUri: REDIRECT_URI },
        authorize: async () => {
          throw new Error('the person closed the sign-in window');
        },
        store: memoryAuthStore(),
      },
    }).then(
      () => undefined,
      (reason: unknown) => reason,
    );

    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).step).toBe('authorization');
    expect((error as Error).message).toContain(server.url);
    expect((error as Error).message).toContain('the person closed the sign-in window');
    // The modern probe met the 401; nothing was sent after the refusal, initialize least of all.
    expect(rpcMethods(server)).toEqual(['server/discover']);
  });

  it('the same for a host fetch that signs in (the sign-in failed at discovery)', async () => {
    server = await startProtectedServer({ prmResource: 'https://elsewhere.example.com/mcp' });
    const { createLazyOAuthFetch } = await import('./lazy-fetch.js');
    const error = await connect({
      url: server.url,
      fetch: createLazyOAuthFetch({
        serverUrl: server.url,
        client: { clientName: 'Toolgate test', redirectUri: REDIRECT_URI },
        authorize: followToCallback,
      }),
    }).then(
      () => undefined,
      (reason: unknown) => reason,
    );

    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).step).toBe('discovery');
    expect(rpcMethods(server)).toEqual(['server/discover']);
    expect(server.seen.registrations).toBe(0);
  });

  it('starts the handshake again when the person took longer to sign in than it waits', async () => {
    server = await startProtectedServer();
    let asked = 0;
    client = await connect({
      url: server.url,
      // The handshake gives up long before this person is done (a login takes them a while).
      connectTimeoutMs: 200,
      auth: {
        client: { clientName: 'Toolgate test', redirectUri: REDIRECT_URI },
        authorize: async (request: AuthorizationRequest) => {
          asked++;
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          return followToCallback(request);
        },
        store: memoryAuthStore(),
      },
    });
    const result = await client.callTool('whoami', {});

    expect(result.isError).toBeFalsy();
    expect(asked).toBe(1);
    expect(server.seen.authorizations).toHaveLength(1);
    // The SDK 1.x server speaks the legacy era: found after the sign-in, by its answers, not by a timeout.
    expect(client.era).toBe('legacy');
    expect(rpcMethods(server).filter((method) => method === 'initialize')).toHaveLength(1);
  });
});

/**
 * The OAuth fetch layer under Toolgate's unchanged client, against a real MCP server that requires
 * bearer tokens and a real authorization server (both from the official SDK, e2e/peers/
 * oauth-protected.mjs). The user-agent step runs in Node: it requests the authorization URL
 * without following the redirect, as a browser would, and hands back where it points; the SDK's
 * demo provider approves at once, as a person would. What reached the servers is read from their
 * own records.
 */

import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ProtectedServer, startProtectedServer } from '../../e2e/peers/oauth-protected.mjs';
import { followToCallback } from '../../test/support/follow-to-callback.js';
import { connect, type McpClient } from '../index.js';
import { AuthorizationError } from './errors.js';
import { createLazyOAuthFetch } from './lazy-fetch.js';
import { createOAuthFetch, type OAuthFetchOptions } from './oauth-fetch.js';
import type { AuthEvent } from './session.js';
import { type AuthStore, memoryAuthStore } from './store.js';

const REDIRECT_URI = 'http://127.0.0.1:9/callback';

let server: ProtectedServer | undefined;
let client: McpClient | undefined;

afterEach(async () => {
  vi.useRealTimers();
  await client?.close().catch(() => undefined);
  client = undefined;
  await server?.close();
  server = undefined;
});

function oauthOptions(
  url: string,
  events: AuthEvent[],
  extra: Partial<OAuthFetchOptions> = {},
): OAuthFetchOptions {
  return {
    serverUrl: url,
    client: { clientName: 'Toolgate test', redirectUri: REDIRECT_URI },
    authorize: followToCallback,
    onEvent: (event) => events.push(event),
    ...extra,
  };
}

/** A first page signs in and closes, leaving its tokens in the store the next page finds. */
async function signedInEarlier(peer: ProtectedServer): Promise<AuthStore> {
  const store = memoryAuthStore();
  const first = await connect({
    url: peer.url,
    era: 'legacy',
    fetch: createOAuthFetch(oauthOptions(peer.url, [], { store })),
  });
  await first.close();
  return store;
}

function bearerTokens(peer: ProtectedServer): string[] {
  return peer.seen.mcp.flatMap((request) => (request.authorization ? [request.authorization] : []));
}

describe('createOAuthFetch against an SDK-protected MCP server', () => {
  it('signs in on the first 401 (registration, PKCE, resource) and sends the token on every request after', async () => {
    server = await startProtectedServer();
    const events: AuthEvent[] = [];
    client = await connect({ url: server.url, fetch: createOAuthFetch(oauthOptions(server.url, events)) });
    const result = await client.callTool('whoami', {});

    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/with mcp:tools$/) });
    expect(server.seen.registrations).toBe(1);
    expect(server.seen.authorizations).toEqual([{ scopes: ['mcp:tools'], resource: server.url }]);
    expect(server.seen.tokenRequests).toEqual([{ grantType: 'authorization_code', resource: server.url }]);
    // Only the very first request went without a token; every later one carried the same bearer token.
    const [first, ...rest] = server.seen.mcp;
    expect(first?.authorization).toBeNull();
    expect(rest.length).toBeGreaterThan(1);
    expect(new Set(rest.map((request) => request.authorization))).toEqual(new Set([bearerTokens(server)[0]]));
    expect(bearerTokens(server)[0]).toMatch(/^Bearer \S+$/);
    // Events say who signed in where, and never carry the token.
    expect(events).toEqual([
      {
        type: 'signed-in',
        server: server.url,
        issuer: server.issuer,
        scopes: ['mcp:tools'],
        client: 'dynamic',
      },
    ]);
    const token = (bearerTokens(server)[0] ?? '').slice('Bearer '.length);
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('steps up with the union of scopes when a tool needs more, then calls it', async () => {
    server = await startProtectedServer();
    client = await connect({ url: server.url, fetch: createOAuthFetch(oauthOptions(server.url, [])) });
    const result = await client.callTool('write', {});

    expect(result.content[0]).toMatchObject({ type: 'text', text: 'written' });
    expect(server.seen.authorizations.map((request) => request.scopes)).toEqual([
      ['mcp:tools'],
      ['mcp:tools', 'mcp:write'],
    ]);
  });

  it('starts one sign-in for requests that meet a 401 together', async () => {
    server = await startProtectedServer();
    const oauthFetch = createOAuthFetch(oauthOptions(server.url, []));
    const post = (id: number) =>
      oauthFetch(server?.url ?? '', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        }),
      });
    const answers = await Promise.all([post(1), post(2), post(3)]);

    expect(answers.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(server.seen.authorizations).toHaveLength(1);
    expect(server.seen.registrations).toBe(1);
  });

  it('fails with a readable error instead of looping when the server refuses the token it asked for', async () => {
    server = await startProtectedServer({ refuseEveryToken: true });
    const connecting = connect({
      url: server.url,
      era: 'legacy',
      fetch: createOAuthFetch(oauthOptions(server.url, [])),
    });

    const error = await connecting.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).step).toBe('retry');
    expect((error as Error).message).toContain(server.url);
    expect(server.seen.authorizations).toHaveLength(1);
  });

  it('asks for no token when the resource metadata names another resource', async () => {
    server = await startProtectedServer({ prmResource: 'https://evil.example.com/mcp' });
    const events: AuthEvent[] = [];
    const oauthFetch = createOAuthFetch(oauthOptions(server.url, events));
    const error = await connect({ url: server.url, era: 'legacy', fetch: oauthFetch }).then(
      () => undefined,
      (reason: unknown) => reason,
    );

    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).step).toBe('discovery');
    expect((error as Error).message).toContain('https://evil.example.com/mcp');
    expect(server.seen.registrations).toBe(0);
    expect(server.seen.authorizations).toHaveLength(0);
    expect(events.map((event) => event.type)).toEqual(['failed']);
  });

  it('revokes and forgets the token on sign-out, and the next request signs in again', async () => {
    server = await startProtectedServer({ refreshTokens: true });
    const events: AuthEvent[] = [];
    const signals: boolean[] = [];
    const oauthFetch = createOAuthFetch(
      oauthOptions(server.url, events, {
        authorize: (request) => {
          signals.push(request.signal.aborted);
          return followToCallback(request);
        },
      }),
    );
    client = await connect({ url: server.url, era: 'legacy', fetch: oauthFetch });
    expect(await oauthFetch.signedIn()).toBe(true);

    await oauthFetch.signOut();
    expect(await oauthFetch.signedIn()).toBe(false);
    expect(server.seen.revocations).toBe(1);
    expect(events.at(-1)).toEqual({
      type: 'signed-out',
      server: server.url,
      issuer: server.issuer,
      revoked: true,
    });
    await client.listTools();
    expect(server.seen.authorizations).toHaveLength(2);
    // The second sign-in is not born cancelled by the first one's sign-out.
    expect(signals).toEqual([false, false]);
    // The registration is kept (it belongs to the authorization server, not to the sign-in).
    expect(server.seen.registrations).toBe(1);
  });

  it('refreshes on a 401 (same resource) instead of sending the person to sign in again', async () => {
    server = await startProtectedServer({ refreshTokens: true });
    const events: AuthEvent[] = [];
    client = await connect({
      url: server.url,
      era: 'legacy',
      fetch: createOAuthFetch(oauthOptions(server.url, events)),
    });
    server.expireAccessTokens();
    const result = await client.callTool('whoami', {});

    expect(result.isError).toBeFalsy();
    expect(server.seen.authorizations).toHaveLength(1);
    expect(server.seen.refreshes).toEqual([{ resource: server.url }]);
    expect(events.map((event) => event.type)).toEqual(['signed-in', 'refreshed']);
  });

  it('a new page (or a restarted extension worker) on a kept store refreshes with the kept registration, asking nobody', async () => {
    server = await startProtectedServer({ refreshTokens: true });
    const store = await signedInEarlier(server);
    server.expireAccessTokens();
    // The second fetch layer shares nothing with the first but the store, as after a reload.
    const events: AuthEvent[] = [];
    const asked: string[] = [];
    client = await connect({
      url: server.url,
      era: 'legacy',
      fetch: createOAuthFetch(
        oauthOptions(server.url, events, {
          store,
          authorize: (request) => {
            asked.push(request.url.href);
            return followToCallback(request);
          },
        }),
      ),
    });
    expect((await client.callTool('whoami', {})).isError).toBeFalsy();
    expect(asked).toEqual([]);
    expect(server.seen.registrations).toBe(1);
    expect(server.seen.refreshes).toHaveLength(1);
    expect(events.map((event) => event.type)).toEqual(['restored', 'refreshed']);
  });

  it('signing out from a new page before any 401 still revokes the kept token', async () => {
    server = await startProtectedServer({ refreshTokens: true });
    const store = await signedInEarlier(server);
    const events: AuthEvent[] = [];
    const later = createOAuthFetch(oauthOptions(server.url, events, { store }));
    await later.signOut();
    expect(server.seen.revocations).toBe(1);
    expect(events.at(-1)).toMatchObject({ type: 'signed-out', issuer: server.issuer, revoked: true });
    expect(await later.signedIn()).toBe(false);
  });

  it('refreshes once, before sending, when the token is about to expire, for requests sent together', async () => {
    server = await startProtectedServer({ refreshTokens: true, lifetimeSeconds: 600 });
    vi.useFakeTimers({ toFake: ['Date'] });
    client = await connect({
      url: server.url,
      era: 'legacy',
      fetch: createOAuthFetch(oauthOptions(server.url, [])),
    });
    const before = server.seen.mcp.length;
    const oldToken = server.seen.mcp.at(-1)?.authorization;
    // Nine and a half minutes later the token has 30 s left: less than the minute kept in reserve.
    vi.setSystemTime(Date.now() + 570_000);
    await Promise.all([client.callTool('whoami', {}), client.callTool('whoami', {}), client.listTools()]);

    expect(server.seen.refreshes).toHaveLength(1);
    expect(server.seen.authorizations).toHaveLength(1);
    const after = server.seen.mcp.slice(before);
    expect(after.length).toBeGreaterThanOrEqual(3);
    expect(after.every((request) => request.authorization && request.authorization !== oldToken)).toBe(true);
  });

  it('lazily: passes answers without a challenge through, loads the OAuth layer at the first 401', async () => {
    server = await startProtectedServer();
    const lazyFetch = createLazyOAuthFetch(oauthOptions(server.url, []));
    const metadata = await lazyFetch(
      `${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp`,
    );
    expect(metadata.status).toBe(200);
    expect(lazyFetch.loaded()).toBeUndefined();

    client = await connect({ url: server.url, era: 'legacy', fetch: lazyFetch });
    const result = await client.callTool('whoami', {});
    expect(result.isError).toBeFalsy();
    expect(lazyFetch.loaded()).toBeDefined();
    expect(server.seen.authorizations).toHaveLength(1);
  });
});

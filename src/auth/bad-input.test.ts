/**
 * Bad input on the way to a token: each fails with an error naming the server and the step, and no
 * token is asked for or sent. The misbehaving servers are real HTTP servers on 127.0.0.1 that
 * answer 401 and serve what the case needs; the wrong `state` case uses the SDK-protected peer.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProtectedServer, startProtectedServer } from '../../e2e/peers/oauth-protected.mjs';
import { AuthorizationError } from './errors.js';
import { createOAuthFetch } from './oauth-fetch.js';

const CLIENT = { clientName: 'Toolgate test', redirectUri: 'http://127.0.0.1:9/callback' };

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

/** A server whose /mcp always answers 401 and whose other paths answer from `routes`. */
async function misbehaving(routes: Record<string, (origin: string) => { type: string; body: string }>) {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push(`${req.method} ${path}`);
    const route = routes[path];
    if (path === '/mcp') return void res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
    if (!route) return void res.writeHead(404).end();
    const { type, body } = route(origin);
    res.writeHead(200, { 'content-type': type }).end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stop = () => new Promise<void>((done) => server.close(() => done()));
  return { url: `${origin}/mcp`, seen };
}

async function failureOf(url: string, authorize = async () => 'http://127.0.0.1:9/callback') {
  const oauthFetch = createOAuthFetch({ serverUrl: url, client: CLIENT, authorize });
  const error = await oauthFetch(url, { method: 'POST', body: '{}' }).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AuthorizationError);
  return error as AuthorizationError;
}

describe('bad input on the way to a token', () => {
  it('resource metadata that is not JSON: discovery fails naming the URL', async () => {
    const peer = await misbehaving({
      '/.well-known/oauth-protected-resource/mcp': () => ({ type: 'text/html', body: '<html>hello</html>' }),
    });
    const error = await failureOf(peer.url);

    expect(error.step).toBe('discovery');
    expect(error.message).toContain(peer.url);
    expect(error.message).toContain(
      '/.well-known/oauth-protected-resource/mcp is unusable: the answer is not JSON',
    );
  });

  it('an authorization server on plain http to another machine: refused before it is contacted', async () => {
    const peer = await misbehaving({
      '/.well-known/oauth-protected-resource/mcp': (origin) => ({
        type: 'application/json',
        body: JSON.stringify({
          resource: `${origin}/mcp`,
          authorization_servers: ['http://auth.example.com'],
        }),
      }),
    });
    const error = await failureOf(peer.url);

    expect(error.step).toBe('discovery');
    expect(error.message).toContain('http://auth.example.com is neither https nor on this machine');
  });

  it('authorization server metadata without PKCE S256: refused before any registration', async () => {
    const peer = await misbehaving({
      '/.well-known/oauth-protected-resource/mcp': (origin) => ({
        type: 'application/json',
        body: JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: [origin] }),
      }),
      '/.well-known/oauth-authorization-server': (origin) => ({
        type: 'application/json',
        body: JSON.stringify({
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
        }),
      }),
    });
    const error = await failureOf(peer.url);

    expect(error.step).toBe('discovery');
    expect(error.message).toMatch(/does not advertise PKCE with S256/);
    expect(peer.seen).not.toContain('POST /register');
  });

  it('a redirect back with a wrong state: the answer is discarded, no code reaches the token endpoint', async () => {
    const server: ProtectedServer = await startProtectedServer();
    stop = () => server.close();
    // The person lands on the callback with a code and a state this sign-in did not send.
    const error = await failureOf(
      server.url,
      async () => 'http://127.0.0.1:9/callback?code=stolen&state=not-ours',
    );

    expect(error.step).toBe('authorization');
    expect(error.message).toContain('does not carry the "state" this sign-in sent');
    expect(server.seen.tokenRequests).toEqual([]);
  });
});

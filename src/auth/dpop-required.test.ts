/**
 * DPoP-bound tokens that outlive the page, and resources whose metadata requires them, through
 * the unchanged OAuth layer. The authorization server and the resource server are real HTTP
 * servers on 127.0.0.1, written here (a test double: no certified authorization server in the
 * registry's test set issues DPoP-bound client-credentials tokens to a protected MCP resource);
 * they check proofs as RFC 9449 says (signature, method, URL, `ath`, the key the token is bound
 * to). The store kept at rest is the real sealed store over a record holder that structured-clones
 * what it keeps, as IndexedDB does (Node has no IndexedDB; e2e/oauth-at-rest.spec.ts runs the
 * store on Chromium's): a "reload" is a new store, a new layer and no key in memory.
 */

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { accessTokenHash, readProof, thumbprint } from '../../test/support/dpop-proof.js';
import { keyPairName } from './dpop-keys.js';
import { type SealedRecords, sealedAuthStore } from './encrypted-store.js';
import { AuthorizationError } from './errors.js';
import { createOAuthFetch, type OAuthFetchOptions } from './oauth-fetch.js';
import type { TokenSet } from './tokens.js';
import { canonicalResourceUri } from './urls.js';

const SECRET = 'app-secret';
const CREDENTIALS = { clientId: 'app', clientSecret: SECRET };

interface Peer {
  url: string;
  origin: string;
  /** Each token request: whether it came with a valid proof, and that proof's key thumbprint. */
  tokenRequests: { jkt?: string }[];
  /** Each request to /mcp with a token: the thumbprint of its proof's key, when it had a valid one. */
  resourceRequests: { scheme: string; jkt?: string }[];
  registrations: number;
}

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

/**
 * An authorization server (client credentials, ES256 DPoP unless `es256` is false) in front of a
 * resource at /mcp that takes the tokens it issued, challenging under `scheme`.
 */
async function startPeer(options: { scheme: 'DPoP' | 'Bearer'; dpopRequired?: boolean; es256?: boolean }) {
  const bound = new Map<string, string | undefined>();
  const peer: Peer = { url: '', origin: '', tokenRequests: [], resourceRequests: [], registrations: 0 };
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      void res
        .writeHead(status, { 'content-type': 'application/json', ...headers })
        .end(JSON.stringify(body));
    const prm = `${peer.origin}/.well-known/oauth-protected-resource/mcp`;
    if (path === '/.well-known/oauth-protected-resource/mcp')
      return json(200, {
        resource: peer.url,
        authorization_servers: [peer.origin],
        ...(options.dpopRequired ? { dpop_bound_access_tokens_required: true } : {}),
      });
    if (path === '/.well-known/oauth-authorization-server')
      return json(200, {
        issuer: peer.origin,
        authorization_endpoint: `${peer.origin}/authorize`,
        token_endpoint: `${peer.origin}/token`,
        registration_endpoint: `${peer.origin}/register`,
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
        grant_types_supported: ['client_credentials', 'authorization_code'],
        code_challenge_methods_supported: ['S256'],
        ...(options.es256 === false ? {} : { dpop_signing_alg_values_supported: ['ES256'] }),
      });
    if (path === '/register') {
      peer.registrations++;
      return json(201, { client_id: 'registered', redirect_uris: ['http://127.0.0.1:9/callback'] });
    }
    if (path === '/token') {
      await bodyOf(req);
      const proof = await validProof(req, 'POST', `${peer.origin}/token`);
      const jkt = proof ? await thumbprint(proof.header.jwk) : undefined;
      peer.tokenRequests.push(jkt ? { jkt } : {});
      if (req.headers.authorization !== `Basic ${btoa(`app:${SECRET}`)}`)
        return json(401, { error: 'invalid_client' });
      const token = `token-${peer.tokenRequests.length}`;
      bound.set(token, jkt);
      return json(200, { access_token: token, token_type: jkt ? 'DPoP' : 'Bearer', expires_in: 3600 });
    }
    if (path === '/mcp') {
      await bodyOf(req);
      const [scheme = '', token = ''] = (req.headers.authorization ?? '').split(' ');
      const challenge = `${options.scheme} resource_metadata="${prm}"`;
      if (!bound.has(token)) return void res.writeHead(401, { 'www-authenticate': challenge }).end();
      const proof = scheme === 'DPoP' ? await validProof(req, 'POST', peer.url, token) : undefined;
      const jkt = proof ? await thumbprint(proof.header.jwk) : undefined;
      peer.resourceRequests.push({ scheme, ...(jkt ? { jkt } : {}) });
      const wanted = bound.get(token);
      if (wanted ? jkt !== wanted : scheme !== 'Bearer')
        return void res.writeHead(401, { 'www-authenticate': `${challenge}, error="invalid_token"` }).end();
      return json(200, { ok: true });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  peer.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  peer.url = `${peer.origin}/mcp`;
  stop = () => new Promise<void>((done) => server.close(() => done()));
  return peer;
}

async function bodyOf(req: IncomingMessage): Promise<void> {
  for await (const _chunk of req) {
    // Read to the end: the answer comes after the request.
  }
}

/** The request's DPoP proof when it is valid for this method and URL (and token), else undefined. */
async function validProof(req: IncomingMessage, method: string, url: string, token?: string) {
  const header = req.headers.dpop;
  if (typeof header !== 'string') return undefined;
  const proof = await readProof(header);
  const tokenHashOk = token === undefined || proof.payload.ath === (await accessTokenHash(token));
  const ok = proof.verified && proof.payload.htm === method && proof.payload.htu === url && tokenHashOk;
  return ok ? proof : undefined;
}

/** IndexedDB's part: values kept as structured clones (a CryptoKey stays a non-extractable CryptoKey). */
function cloningRecords(): SealedRecords & { raw: Map<string, unknown> } {
  const raw = new Map<string, unknown>();
  return {
    raw,
    get: async (name) => structuredClone(raw.get(name)),
    set: async (name, value) => {
      raw.set(name, structuredClone(value));
    },
    delete: async (name) => {
      raw.delete(name);
    },
    async keepFirst<T>(name: string, candidate: T) {
      if (!raw.has(name)) raw.set(name, structuredClone(candidate));
      return structuredClone(raw.get(name)) as T;
    },
  };
}

const call = (oauthFetch: (url: string, init: RequestInit) => Promise<Response>, url: string) =>
  oauthFetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });

async function failureOf(peer: Peer, options: Partial<OAuthFetchOptions>): Promise<AuthorizationError> {
  const oauthFetch = createOAuthFetch({ serverUrl: peer.url, clientCredentials: CREDENTIALS, ...options });
  const error = await call(oauthFetch, peer.url).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AuthorizationError);
  return error as AuthorizationError;
}

describe('a DPoP-bound token kept at rest', () => {
  it('is sent again after a reload with the key it is bound to, kept non-extractable beside it', async () => {
    const peer = await startPeer({ scheme: 'DPoP' });
    const records = cloningRecords();
    const layer = () =>
      createOAuthFetch({
        serverUrl: peer.url,
        clientCredentials: CREDENTIALS,
        store: sealedAuthStore(records),
      });

    expect((await call(layer(), peer.url)).status).toBe(200);
    const issued = peer.tokenRequests[0]?.jkt;
    expect(issued).toBeDefined();

    // The reload: a new store over the same records, a new layer, nothing in memory.
    const reloaded = sealedAuthStore(records);
    const kept = await reloaded.get<TokenSet>(
      `client-credentials app ${canonicalResourceUri(new URL(peer.url))}`,
    );
    expect(kept).toMatchObject({ tokenType: 'DPoP', dpopJkt: issued });
    const again = createOAuthFetch({ serverUrl: peer.url, clientCredentials: CREDENTIALS, store: reloaded });
    expect((await call(again, peer.url)).status).toBe(200);

    expect(peer.tokenRequests).toHaveLength(1);
    expect(peer.resourceRequests.at(-1)).toEqual({ scheme: 'DPoP', jkt: kept?.dpopJkt });
    const pair = records.raw.get(`pair ${keyPairName(peer.origin)}`) as CryptoKeyPair;
    expect(pair.privateKey).toBeInstanceOf(CryptoKey);
    expect(pair.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', pair.privateKey)).rejects.toThrow();
    // Nothing of the pair went through JSON: no sealed value holds a key.
    for (const [name, value] of records.raw)
      if (name.startsWith('value ')) expect(value).not.toHaveProperty('privateKey');
  });

  it("a store with no place for keys (the memory store, a host's own) keeps today's behaviour: the key stays with the page", async () => {
    const peer = await startPeer({ scheme: 'DPoP' });
    const records = cloningRecords();
    const sealed = sealedAuthStore(records);
    // A host's own store kept at rest, without a place for keys: today's behaviour.
    const keyless = { get: sealed.get, set: sealed.set, delete: sealed.delete };
    expect(
      (
        await call(
          createOAuthFetch({ serverUrl: peer.url, clientCredentials: CREDENTIALS, store: keyless }),
          peer.url,
        )
      ).status,
    ).toBe(200);
    expect([...records.raw.keys()].some((name) => name.startsWith('pair '))).toBe(false);
  });
});

describe('dpop_bound_access_tokens_required in the resource metadata', () => {
  it('gets a DPoP-bound token under auto, even from a resource that challenges with Bearer', async () => {
    const peer = await startPeer({ scheme: 'Bearer', dpopRequired: true });
    const oauthFetch = createOAuthFetch({ serverUrl: peer.url, clientCredentials: CREDENTIALS });
    expect((await call(oauthFetch, peer.url)).status).toBe(200);
    expect(peer.tokenRequests[0]?.jkt).toBeDefined();
    expect(peer.resourceRequests).toEqual([{ scheme: 'DPoP', jkt: peer.tokenRequests[0]?.jkt }]);
  });

  it('without it, a Bearer resource gets a bearer token under auto', async () => {
    const peer = await startPeer({ scheme: 'Bearer' });
    const oauthFetch = createOAuthFetch({ serverUrl: peer.url, clientCredentials: CREDENTIALS });
    expect((await call(oauthFetch, peer.url)).status).toBe(200);
    expect(peer.tokenRequests).toEqual([{}]);
    expect(peer.resourceRequests).toEqual([{ scheme: 'Bearer' }]);
  });

  it('fails naming the server and step when the authorization server offers no ES256 DPoP', async () => {
    const peer = await startPeer({ scheme: 'Bearer', dpopRequired: true, es256: false });
    const error = await failureOf(peer, {});
    expect(error.step).toBe('discovery');
    expect(error.message).toContain(peer.url);
    expect(error.message).toContain('requires DPoP-bound tokens');
    expect(error.message).toContain(`${peer.origin} offers no ES256 DPoP`);
    expect(peer.tokenRequests).toEqual([]);
  });

  it("under dpop: 'never' fails saying what to change, before a token is asked for", async () => {
    const peer = await startPeer({ scheme: 'DPoP', dpopRequired: true });
    const error = await failureOf(peer, { dpop: 'never' });
    expect(error.step).toBe('discovery');
    expect(error.message).toContain(peer.url);
    expect(error.message).toContain("set dpop to 'auto'");
    expect(peer.tokenRequests).toEqual([]);
  });

  it("a person's sign-in stops there too, before registration and before the person is asked", async () => {
    const peer = await startPeer({ scheme: 'DPoP', dpopRequired: true });
    const asked: string[] = [];
    const oauthFetch = createOAuthFetch({
      serverUrl: peer.url,
      client: { clientName: 'Toolgate test', redirectUri: 'http://127.0.0.1:9/callback' },
      authorize: async (request) => {
        asked.push(request.url.href);
        return 'http://127.0.0.1:9/callback';
      },
      dpop: 'never',
    });
    const error = await call(oauthFetch, peer.url).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).message).toContain("set dpop to 'auto'");
    expect(asked).toEqual([]);
    expect(peer.registrations).toBe(0);
  });
});

/**
 * DPoP proofs as servers check them (RFC 9449 §4.3): WebCrypto in Node makes and verifies the
 * real signatures. The resource server here is a function answering the request the layer sends
 * (a test double: what matters is the request's headers and how many were sent), as the
 * conformance scenarios auth/dpop and auth/dpop-nonce do for real in Chromium.
 */

import { afterEach, describe, expect, it, vi } from 'vitest';
import { accessTokenHash, readProof, thumbprint } from '../../test/support/dpop-proof.js';
import type { AuthorizationServerMetadata } from './authorization-server.js';
import { DPoPPolicy, sendWithProof } from './dpop.js';
import { dpopKeyFor, keyForToken } from './dpop-keys.js';

afterEach(() => {
  vi.restoreAllMocks();
});

let issuers = 0;
/** Each test its own authorization server: keys are kept per issuer for the page's life. */
const freshIssuer = () => `https://as-${++issuers}.example`;

function recordingServer(answers: (() => Response)[]) {
  const sent: Headers[] = [];
  return {
    sent,
    send: async (headers: Headers) => {
      sent.push(headers);
      const answer = answers[Math.min(sent.length - 1, answers.length - 1)] as () => Response;
      return answer();
    },
  };
}

const ok = () => new Response('{}', { status: 200 });
const nonceChallenge = (nonce: string) => () =>
  new Response(null, {
    status: 401,
    headers: { 'www-authenticate': 'DPoP error="use_dpop_nonce"', 'dpop-nonce': nonce },
  });

describe('the page DPoP key', () => {
  it('is an ECDSA P-256 pair whose private half no script can export', async () => {
    const generate = vi.spyOn(crypto.subtle, 'generateKey');
    await dpopKeyFor(freshIssuer());
    expect(generate).toHaveBeenCalledTimes(1);
    const [algorithm, extractable] = generate.mock.calls[0] as unknown as [EcKeyGenParams, boolean];
    expect(algorithm).toEqual({ name: 'ECDSA', namedCurve: 'P-256' });
    expect(extractable).toBe(false);
    const pair = (await generate.mock.results[0]?.value) as CryptoKeyPair;
    expect(pair.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', pair.privateKey)).rejects.toThrow();
  });

  it('is one per authorization server, the same for every connection of the page', async () => {
    const issuer = freshIssuer();
    const first = await dpopKeyFor(issuer);
    expect((await dpopKeyFor(issuer)).jkt).toBe(first.jkt);
    expect((await dpopKeyFor(freshIssuer())).jkt).not.toBe(first.jkt);
  });
});

describe('sendWithProof', () => {
  it('sends the DPoP scheme and a proof bound to the method, the URL without its query, the token and the key', async () => {
    const key = await dpopKeyFor(freshIssuer());
    const server = recordingServer([ok]);
    const headers = new Headers({ 'content-type': 'application/json', authorization: 'Bearer stale' });
    const response = await sendWithProof({
      key,
      accessToken: 'token-1',
      method: 'POST',
      url: new URL('https://mcp.example/mcp?tenant=a#part'),
      headers,
      canResend: true,
      send: server.send,
    });
    expect(response.status).toBe(200);
    const [sent] = server.sent as [Headers];
    expect(sent.get('authorization')).toBe('DPoP token-1');
    expect(sent.get('content-type')).toBe('application/json');
    const proof = await readProof(sent.get('dpop'));
    expect(proof.verified).toBe(true);
    expect(proof.header.typ).toBe('dpop+jwt');
    expect(proof.header.alg).toBe('ES256');
    expect(proof.header.jwk.d).toBeUndefined();
    expect(await thumbprint(proof.header.jwk)).toBe(key.jkt);
    expect(proof.payload.htm).toBe('POST');
    expect(proof.payload.htu).toBe('https://mcp.example/mcp');
    expect(proof.payload.ath).toBe(await accessTokenHash('token-1'));
    expect(proof.payload.nonce).toBeUndefined();
  });

  it('makes a fresh proof for every request', async () => {
    const key = await dpopKeyFor(freshIssuer());
    const server = recordingServer([ok]);
    const options = { key, accessToken: 't', method: 'POST', url: new URL('https://mcp.example/mcp') };
    for (let round = 0; round < 3; round++)
      await sendWithProof({ ...options, headers: new Headers(), canResend: true, send: server.send });
    const ids = await Promise.all(
      server.sent.map(async (sent) => (await readProof(sent.get('dpop'))).payload.jti),
    );
    expect(new Set(ids).size).toBe(3);
  });

  it('answers a nonce challenge once, with the nonce, and goes on using it', async () => {
    const key = await dpopKeyFor(freshIssuer());
    const server = recordingServer([nonceChallenge('n-1'), ok]);
    const options = {
      key,
      accessToken: 't',
      method: 'POST',
      url: new URL('https://rs.example/mcp'),
      canResend: true,
    };
    const response = await sendWithProof({ ...options, headers: new Headers(), send: server.send });
    expect(response.status).toBe(200);
    expect(server.sent).toHaveLength(2);
    expect((await readProof(server.sent[0]?.get('dpop') ?? null)).payload.nonce).toBeUndefined();
    expect((await readProof(server.sent[1]?.get('dpop') ?? null)).payload.nonce).toBe('n-1');
    await sendWithProof({ ...options, headers: new Headers(), send: server.send });
    expect((await readProof(server.sent[2]?.get('dpop') ?? null)).payload.nonce).toBe('n-1');
  });

  it('resends at most once for a server that keeps asking, and never a body it cannot send again', async () => {
    const key = await dpopKeyFor(freshIssuer());
    const endless = recordingServer([nonceChallenge('again')]);
    const options = { key, accessToken: 't', method: 'POST', url: new URL('https://rs.example/mcp') };
    const answer = await sendWithProof({
      ...options,
      headers: new Headers(),
      canResend: true,
      send: endless.send,
    });
    expect(answer.status).toBe(401);
    expect(endless.sent).toHaveLength(2);
    const stream = recordingServer([nonceChallenge('n'), ok]);
    const once = await sendWithProof({
      ...options,
      headers: new Headers(),
      canResend: false,
      send: stream.send,
    });
    expect(once.status).toBe(401);
    expect(stream.sent).toHaveLength(1);
  });
});

describe('DPoPPolicy', () => {
  const as = (algorithms?: string[]): AuthorizationServerMetadata => ({
    issuer: 'https://as.example',
    ...(algorithms ? { dpop_signing_alg_values_supported: algorithms } : {}),
  });
  const challenged = (header: string) =>
    new Response(null, { status: 401, headers: { 'www-authenticate': header } });

  it('auto: only when the authorization server offers ES256 and the resource server challenged with DPoP', () => {
    const policy = new DPoPPolicy();
    expect(policy.uses(as(['ES256']))).toBe(false);
    policy.noteAnswer(challenged('Bearer resource_metadata="https://rs.example/prm"'));
    expect(policy.uses(as(['ES256']))).toBe(false);
    policy.noteAnswer(challenged('DPoP algs="ES256"'));
    expect(policy.uses(as(['ES256']))).toBe(true);
    expect(policy.uses(as(['RS256']))).toBe(false);
    expect(policy.uses(as())).toBe(false);
  });

  it('always and never hold whatever the servers say', () => {
    const always = new DPoPPolicy('always');
    const never = new DPoPPolicy('never');
    never.noteAnswer(challenged('DPoP algs="ES256"'));
    expect(always.uses(as())).toBe(true);
    expect(never.uses(as(['ES256']))).toBe(false);
  });
});

describe('keyForToken', () => {
  it('sends bearer tokens as they are, and refuses a DPoP-bound token whose key this page lacks', async () => {
    const issuer = freshIssuer();
    const key = await dpopKeyFor(issuer);
    expect(await keyForToken({ accessToken: 'a', issuer })).toBe('bearer');
    expect(await keyForToken({ accessToken: 'a', issuer, tokenType: 'DPoP', dpopJkt: key.jkt })).toBe(key);
    expect(await keyForToken({ accessToken: 'a', issuer, tokenType: 'DPoP', dpopJkt: 'another' })).toBe(
      'lost',
    );
    expect(
      await keyForToken({ accessToken: 'a', issuer: freshIssuer(), tokenType: 'DPoP', dpopJkt: key.jkt }),
    ).toBe('lost');
  });
});

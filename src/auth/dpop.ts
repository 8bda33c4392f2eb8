/**
 * DPoP (RFC 9449): sender-constrained tokens, with oauth4webapi making and signing the proofs.
 * The key is an ECDSA P-256 pair made by WebCrypto with a non-extractable private key, one per
 * authorization server for the page's life: a token bound to it is of no use to anyone who copies
 * it (a log, an extension, a stolen store), since the proof needs a key no script can read. Every
 * connection of the page to servers of that authorization server uses the same key, so a reconnect
 * keeps its token; after a reload the key is gone and a DPoP-bound token kept at rest is dropped.
 *
 * When: `auto` (the default) uses DPoP with an authorization server that advertises ES256 in
 * `dpop_signing_alg_values_supported`, for a resource server that challenged with the DPoP scheme
 * (a server that only knows Bearer would refuse a DPoP-bound token); `always` sends proofs to any
 * authorization server; `never` sends none.
 */

import * as oauth from 'oauth4webapi';
import type { AuthorizationServerMetadata } from './authorization-server.js';
import { asksForDPoPNonce, offersDPoP } from './dpop-challenge.js';
import { discardBody } from './json-body.js';

/** When Toolgate asks for DPoP-bound tokens (see the file comment). */
export type DPoPMode = 'auto' | 'always' | 'never';

/** A DPoP key of the page, with the thumbprint tokens bound to it carry (`cnf.jkt`). */
export interface DPoPKey {
  handle: oauth.DPoPHandle;
  jkt: string;
}

/** The only algorithm Toolgate signs proofs with: ES256, which every DPoP server must accept. */
export const DPOP_ALGORITHM = 'ES256';

const pageKeys = new Map<string, Promise<DPoPKey>>();

/** The page's DPoP key for an authorization server, made at its first use. */
export function dpopKeyFor(issuer: string): Promise<DPoPKey> {
  let key = pageKeys.get(issuer);
  if (!key) {
    key = makeKey();
    pageKeys.set(issuer, key);
    // A failed generation (no WebCrypto) is not remembered: the next sign-in tries again.
    key.catch(() => pageKeys.delete(issuer));
  }
  return key;
}

async function makeKey(): Promise<DPoPKey> {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ]);
  // oauth4webapi reads only the clock skew from the client; proofs do not name the client.
  const handle = oauth.DPoP({}, pair);
  return { handle, jkt: await handle.calculateThumbprint() };
}

/** The token fields that say whether (and to which key) a token is bound. */
export interface BoundToken {
  accessToken: string;
  issuer: string;
  tokenType?: 'DPoP';
  dpopJkt?: string;
}

/** One OAuth layer's DPoP decisions: what the resource server offered and what the host chose. */
export class DPoPPolicy {
  private resourceOffered = false;

  constructor(readonly mode: DPoPMode = 'auto') {}

  /** Reads a resource server's answer: a DPoP challenge means it takes DPoP-bound tokens. */
  noteAnswer(response: Response): void {
    if (offersDPoP(response.headers.get('www-authenticate'))) this.resourceOffered = true;
  }

  /** Whether token requests to `as` carry a proof. */
  uses(as: AuthorizationServerMetadata): boolean {
    if (this.mode === 'never') return false;
    if (this.mode === 'always') return true;
    const algorithms = (as as { dpop_signing_alg_values_supported?: unknown })
      .dpop_signing_alg_values_supported;
    return this.resourceOffered && Array.isArray(algorithms) && algorithms.includes(DPOP_ALGORITHM);
  }

  /** The key for token requests to `as`, or undefined when they go without a proof. */
  async forTokenRequest(as: AuthorizationServerMetadata): Promise<DPoPKey | undefined> {
    return this.uses(as) ? dpopKeyFor(as.issuer) : undefined;
  }
}

/**
 * How a token is sent: `bearer`, with `key` (DPoP-bound, the key is at hand), or `lost` (bound to
 * a key this page does not have: the token is useless and a new one must be asked for).
 */
export async function keyForToken(tokens: BoundToken): Promise<DPoPKey | 'bearer' | 'lost'> {
  if (tokens.tokenType !== 'DPoP') return 'bearer';
  const key = await pageKeys.get(tokens.issuer)?.catch(() => undefined);
  return key && key.jkt === tokens.dpopJkt ? key : 'lost';
}

/**
 * Sends a resource request with a DPoP-bound token: `Authorization: DPoP <token>` and a fresh
 * proof (method, URL without query, `ath` = the token's hash), made by oauth4webapi, which also
 * keeps the nonce a server sends. `send` makes the real request with the headers given (the
 * transport's body, signal and all). A 401 asking for a nonce (RFC 9449 §9) is answered once
 * with a new proof carrying it, when the body can be sent again.
 */
export async function sendWithProof(options: {
  key: DPoPKey;
  accessToken: string;
  method: string;
  url: URL;
  headers: Headers;
  canResend: boolean;
  send: (headers: Headers) => Promise<Response>;
}): Promise<Response> {
  const headers = new Headers(options.headers);
  // oauth4webapi sets it, and refuses headers that carry one already.
  headers.delete('authorization');
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await oauth.protectedResourceRequest(
        options.accessToken,
        options.method,
        options.url,
        headers,
        null,
        {
          DPoP: options.key.handle,
          // The transport already vetted the server's URL; this layer only adds two headers.
          [oauth.allowInsecureRequests]: true,
          [oauth.customFetch]: (_url, request) => options.send(new Headers(request.headers)),
        },
      );
    } catch (error) {
      // oauth4webapi throws for any challenge; the OAuth layer above reads it from the answer.
      if (!(error instanceof oauth.WWWAuthenticateChallengeError)) throw error;
      response = error.response;
    }
    const nonceAsked = asksForDPoPNonce(
      response.status,
      response.headers.get('www-authenticate'),
      response.headers.get('dpop-nonce'),
    );
    if (attempt > 0 || !options.canResend || !nonceAsked) return response;
    await discardBody(response);
  }
}

/**
 * A token request with a proof, sent again once when the authorization server asks for a nonce
 * (RFC 9449 §8: a 400 `use_dpop_nonce`; oauth4webapi kept the nonce from the first answer).
 */
export async function withNonceRetry<T>(key: DPoPKey | undefined, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!key || !oauth.isDPoPNonceError(error)) throw error;
    return attempt();
  }
}

const policies = new WeakMap<typeof fetch, DPoPPolicy>();

/**
 * The fetch an OAuth layer gives its sign-in session, carrying the layer's DPoP policy to the
 * token requests (tokens.ts reads it with policyOf). The session and the authorization code flow
 * hand their fetch down to the token requests unchanged, so the policy reaches them without a
 * parameter through every step in between.
 */
export function fetchWithPolicy(fetchFn: typeof fetch, policy: DPoPPolicy): typeof fetch {
  const carrying: typeof fetch = (input, init) => fetchFn(input, init);
  policies.set(carrying, policy);
  return carrying;
}

/** The DPoP policy a fetch carries; undefined for any other fetch (no proofs). */
export function policyOf(fetchFn: typeof fetch): DPoPPolicy | undefined {
  return policies.get(fetchFn);
}

/**
 * DPoP (RFC 9449): sender-constrained tokens, with oauth4webapi making and signing the proofs
 * with a non-extractable key per authorization server (dpop-keys.ts: with the page, or at rest
 * beside tokens kept at rest). The OAuth layer owns one DPoPPolicy and hands it explicitly to its
 * session, which hands it to every token request.
 *
 * When: `auto` (the default) uses DPoP with an authorization server that advertises ES256 in
 * `dpop_signing_alg_values_supported`, for a resource server that challenged with the DPoP scheme
 * (a server that only knows Bearer would refuse a DPoP-bound token) or whose Protected Resource
 * Metadata says `dpop_bound_access_tokens_required` (RFC 9728 §2, RFC 9449 §5.2); `always` sends
 * proofs to any authorization server; `never` sends none. A resource that requires DPoP from an
 * authorization server without ES256, or under `never`, stops the sign-in before the person is
 * asked, saying what to change.
 */

import * as oauth from 'oauth4webapi';
import { discardBody } from '../transport/index.js';
import type { AuthorizationServerMetadata } from './authorization-server.js';
import { asksForDPoPNonce, offersDPoP } from './dpop-challenge.js';
import { type BoundToken, type DPoPKey, dpopKeyFor, keyForToken } from './dpop-keys.js';
import type { KeyPairVault } from './store.js';

export type { DPoPKey } from './dpop-keys.js';

/** When Toolgate asks for DPoP-bound tokens (see the file comment). */
export type DPoPMode = 'auto' | 'always' | 'never';

/** The only algorithm Toolgate signs proofs with: ES256, which every DPoP server must accept. */
const DPOP_ALGORITHM = 'ES256';

/** A resource that requires DPoP-bound tokens cannot get them from this client as configured. */
export class DPoPProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DPoPProblem';
  }
}

/** One OAuth layer's DPoP decisions: what the resource server offered and what the host chose. */
export class DPoPPolicy {
  private resourceOffered = false;
  private resourceRequires = false;

  constructor(
    readonly mode: DPoPMode = 'auto',
    /** Where keys are kept at rest, with the tokens (the store's); absent, keys live with the page. */
    private readonly vault?: KeyPairVault,
  ) {}

  /** Reads a resource server's answer: a DPoP challenge means it takes DPoP-bound tokens. */
  noteAnswer(response: Response): void {
    if (offersDPoP(response.headers.get('www-authenticate'))) this.resourceOffered = true;
  }

  /**
   * Reads what discovery found: a resource whose metadata sets `dpop_bound_access_tokens_required`
   * gets DPoP-bound tokens. Throws DPoPProblem when that cannot be: `never` chosen, or (under
   * `auto`) an authorization server that offers no ES256 DPoP. `always` trusts the host's word.
   */
  noteDiscovery(found: { issuer: string; as: AuthorizationServerMetadata; dpopRequired?: boolean }): void {
    this.resourceRequires = found.dpopRequired === true;
    if (!this.resourceRequires) return;
    const required =
      'the server requires DPoP-bound tokens (dpop_bound_access_tokens_required in its resource metadata)';
    if (this.mode === 'never')
      throw new DPoPProblem(
        `${required}, and this client is set to dpop: 'never': set dpop to 'auto' (the default) or 'always'`,
      );
    if (this.mode === 'auto' && !offersES256(found.as))
      throw new DPoPProblem(
        `${required}, but its authorization server ${found.issuer} offers no ES256 DPoP (dpop_signing_alg_values_supported): the authorization server's operator must enable DPoP with ES256, or set dpop to 'always' if it takes proofs without saying so`,
      );
  }

  /** Whether token requests to `as` carry a proof. */
  uses(as: AuthorizationServerMetadata): boolean {
    if (this.mode === 'never') return false;
    if (this.mode === 'always') return true;
    return (this.resourceOffered || this.resourceRequires) && offersES256(as);
  }

  /** The key for token requests to `as`, or undefined when they go without a proof. */
  async forTokenRequest(as: AuthorizationServerMetadata): Promise<DPoPKey | undefined> {
    return this.uses(as) ? dpopKeyFor(as.issuer, this.vault) : undefined;
  }

  /** How a token is sent: `bearer`, with its key, or `lost` (see keyForToken). */
  keyForToken(tokens: BoundToken): Promise<DPoPKey | 'bearer' | 'lost'> {
    return keyForToken(tokens, this.vault);
  }
}

function offersES256(as: AuthorizationServerMetadata): boolean {
  const algorithms = (as as { dpop_signing_alg_values_supported?: unknown })
    .dpop_signing_alg_values_supported;
  return Array.isArray(algorithms) && algorithms.includes(DPOP_ALGORITHM);
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

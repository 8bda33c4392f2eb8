/**
 * The OAuth layer, loaded only when a server asks for it: this fetch passes requests through
 * untouched until the first answer that asks for a token (a 401, or a 403 insufficient_scope
 * under the Bearer or DPoP scheme); then it imports the OAuth code (oauth4webapi included), which signs in from
 * that answer and sends the request again with the token; from then on every request goes
 * through createOAuthFetch. A host that
 * connects to open servers never downloads a byte of it, so the first screen does not grow.
 *
 * It imports nothing of src/auth statically but types.
 */

import type { OAuthFetch, OAuthFetchOptions } from './oauth-fetch.js';

export interface LazyOAuthFetch {
  (input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** The loaded layer, once a server asked for a sign-in (for signOut and retrySignIn). */
  loaded(): OAuthFetch | undefined;
  /** Whether tokens for this server are held (false until the server first asked). */
  signedIn(): Promise<boolean>;
  /** Revokes where the server offers it and forgets the tokens (loads the layer if need be). */
  signOut(): Promise<void>;
  /** After a failed sign-in, lets the next 401 sign in again. */
  retrySignIn(): void;
  /** The sign-in in progress, settling when it ends; undefined when none runs (see OAuthFetch). */
  signInInProgress(): Promise<void> | undefined;
}

export function createLazyOAuthFetch(options: OAuthFetchOptions): LazyOAuthFetch {
  const base: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const serverOrigin = new URL(options.serverUrl).origin;
  let layer: Promise<OAuthFetch> | undefined;
  let ready: OAuthFetch | undefined;

  const load = () => {
    layer ??= import('./oauth-fetch.js').then(({ createOAuthFetch }) => {
      ready = createOAuthFetch(options);
      return ready;
    });
    return layer;
  };

  const lazyFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (layer) return (await layer)(input, init);
    // A Request's body can be read once: keep a copy for the case the request is sent again.
    const again = input instanceof Request ? input.clone() : input;
    const response = await base(input, init);
    const target = new URL(input instanceof Request ? input.url : String(input));
    if (target.origin !== serverOrigin || !asksForToken(response)) return response;
    // The layer signs in from this very answer (its challenge), then sends the copy with a token.
    return (await load()).continueFrom(response, again, init);
  };

  return Object.assign(lazyFetch, {
    loaded: () => ready,
    signedIn: async () => (layer ? (await layer).signedIn() : false),
    signOut: async () => (await load()).signOut(),
    retrySignIn: () => ready?.retrySignIn(),
    signInInProgress: () => {
      if (ready) return ready.signInInProgress();
      // Still importing the layer: the request that asked for it starts its sign-in right after.
      return layer?.then(
        (loadedLayer) => loadedLayer.signInInProgress(),
        () => undefined,
      );
    },
  });
}

/**
 * A challenge under the Bearer or the DPoP scheme (RFC 9449 §7.1: the same params), any casing,
 * at the header's start or after a comma, followed by a space, a comma or the end. Read with a
 * pattern, not www-authenticate.ts: this file loads with the first screen.
 */
const OAUTH_SCHEME = /(?:^|,)[ \t]*(?:bearer|dpop)(?:[ \t,]|$)/i;

/** Whether a server's answer asks for a token, so the OAuth layer is worth loading. */
export function asksForToken(response: Response): boolean {
  if (response.status !== 401 && response.status !== 403) return false;
  const challenge = response.headers.get('www-authenticate') ?? '';
  // 401: any answer asks for credentials (a server may omit the header; discovery then looks for
  // its metadata). 403: only an OAuth (Bearer or DPoP) insufficient_scope challenge is about tokens.
  return response.status === 401 || (OAUTH_SCHEME.test(challenge) && /insufficient_scope/.test(challenge));
}

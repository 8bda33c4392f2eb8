/**
 * OAuth as a fetch layer: `createOAuthFetch(...)` returns a fetch that attaches the server's bearer
 * token to every request for that server's origin, and on a 401 (or a 403 insufficient_scope)
 * signs in (discovery, client identity, authorization code with PKCE, or a refresh) and sends the
 * request again. Both HTTP transports and both protocol eras use it unchanged:
 * `connect({ url, fetch: createOAuthFetch({ serverUrl: url, ... }) })`.
 *
 * Bounded: one sign-in per request for a 401 (a server that refuses the token it just asked for
 * fails with an error, not a loop), and at most `maxScopeUpgrades` step-ups per request, none when
 * the challenged scopes are already granted. Requests to other origins go out untouched, without
 * a token.
 *
 * A host app that acts as itself gives `clientCredentials` instead of `client` and `authorize`:
 * the same layer, with a session that gets tokens without a person (client-credentials-session.ts).
 * DPoP-bound tokens (dpop.ts) go out as `Authorization: DPoP` with a fresh proof per request.
 */

import { redactUrl, untilAborted } from '../protocol/index.js';
import { discardBody } from '../transport/index.js';
import type { Authorize } from './authorization-code.js';
import type { ClientCredentials } from './client-credentials.js';
import type { ClientIdentity } from './client-identity.js';
import { type DPoPMode, DPoPPolicy, sendWithProof } from './dpop.js';
import { resourceChallenge } from './dpop-challenge.js';
import { AuthorizationError, TOKEN_REFUSED_AGAIN } from './errors.js';
import { alreadyGranted } from './scopes.js';
import { type AuthEvent, AuthSession, type RecoveryKind } from './session.js';
import { type AuthStore, memoryAuthStore } from './store.js';
import type { TokenSet } from './tokens.js';
import type { BearerChallenge } from './www-authenticate.js';

export interface OAuthFetchOptions {
  /** The MCP server URL (as given to connect). */
  serverUrl: string | URL;
  /** The fetch underneath, for the MCP requests and the OAuth ones; the global fetch by default. */
  fetch?: typeof fetch | undefined;
  /** Who this client is to authorization servers (a person signs in); or give `clientCredentials`. */
  client?: ClientIdentity | undefined;
  /** The user-agent step: open the authorization URL, resolve with the URL the person came back to. */
  authorize?: Authorize;
  /** The host app signs in as itself (no person, no window) instead of `client` and `authorize`. */
  clientCredentials?: ClientCredentials | undefined;
  /** DPoP-bound tokens (RFC 9449): `auto` (default) when both servers offer it, `always`, `never`. */
  dpop?: DPoPMode | undefined;
  /** Where registrations and tokens live; in memory by default. */
  store?: AuthStore;
  /** Ask for `offline_access` when the authorization server offers it (for refresh tokens). Default true. */
  offlineAccess?: boolean | undefined;
  /** Step-ups for scopes per request before giving up. Default 2 (three authorizations in all). */
  maxScopeUpgrades?: number | undefined;
  /** Sign-in events for the panel and the audit log; they never carry a token. */
  onEvent?: ((event: AuthEvent) => void) | undefined;
}

export type FetchFunction = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export interface OAuthFetch extends FetchFunction {
  /** Revokes the tokens where the server offers revocation, and forgets them. */
  signOut(): Promise<void>;
  /** Whether tokens for this server are held now. */
  signedIn(): Promise<boolean>;
  /** After a failed sign-in (which later 401s repeat), lets the next 401 sign in again. */
  retrySignIn(): void;
  /**
   * The sign-in in progress, settling when it ends (either way); undefined when none runs. A
   * caller whose request gave up meanwhile (a handshake's timeout) waits for it, then starts over.
   */
  signInInProgress(): Promise<void> | undefined;
  /**
   * Goes on from an answer already received for this request sent without a token (the lazy
   * layer's first 401): signs in from its challenge instead of sending the request once more.
   */
  continueFrom(answered: Response, input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
}

const DEFAULT_SCOPE_UPGRADES = 2;

/** What the layer needs of a sign-in session: AuthSession (a person) or ClientCredentialsSession. */
interface TokenSource {
  currentTokens(): Promise<TokenSet | undefined>;
  /** `signal`: the request's, told when the sign-in waits for a person (sessions without one ignore it). */
  recover(
    challenge: BearerChallenge,
    failed: TokenSet | undefined,
    kind: RecoveryKind,
    signal?: AbortSignal | null,
  ): Promise<void>;
  signOut(): Promise<void>;
  signedIn(): Promise<boolean>;
  retrySignIn(): void;
  signInInProgress(): Promise<void> | undefined;
  reportFailure(error: AuthorizationError): void;
}

export function createOAuthFetch(options: OAuthFetchOptions): OAuthFetch {
  const serverUrl = new URL(options.serverUrl);
  const shown = redactUrl(serverUrl.href);
  // Looked up per call, unbound: browsers throw "Illegal invocation" for a detached window.fetch.
  const base: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const store = options.store ?? memoryAuthStore();
  // Keys kept where the tokens are: at rest with a store that keeps them, else with the page.
  const dpop = new DPoPPolicy(options.dpop, store.keyPairs);
  const onEvent = options.onEvent ? { onEvent: options.onEvent } : {};
  let session: TokenSource;
  const { clientCredentials } = options;
  if (clientCredentials)
    // Its code is fetched when first used: a person's sign-in does not carry it.
    session = lazySession(async () => {
      const { ClientCredentialsSession } = await import('./client-credentials-session.js');
      return new ClientCredentialsSession({
        serverUrl,
        shown,
        fetchFn: base,
        credentials: clientCredentials,
        store,
        dpop,
        ...onEvent,
      });
    });
  else {
    if (!options.client || !options.authorize)
      throw new TypeError(
        `the OAuth options for ${shown} need client and authorize (a person signs in) or clientCredentials (the app signs in as itself)`,
      );
    session = new AuthSession({
      serverUrl,
      shown,
      fetchFn: base,
      dpop,
      client: options.client,
      authorize: options.authorize,
      store,
      offlineAccess: options.offlineAccess !== false,
      ...onEvent,
    });
  }
  const maxUpgrades = options.maxScopeUpgrades ?? DEFAULT_SCOPE_UPGRADES;

  const exchange = async (
    input: RequestInfo | URL,
    init: RequestInit | undefined,
    answered: Response | undefined,
  ): Promise<Response> => {
    const template = input instanceof Request ? input.clone() : undefined;
    const target = new URL(template ? template.url : String(input));
    if (target.origin !== serverUrl.origin) return base(input, init);
    const method = (init?.method ?? template?.method ?? 'GET').toUpperCase();
    const signal = init?.signal ?? template?.signal ?? undefined;

    const sendWith = (headers: Headers): Promise<Response> =>
      base(template ? template.clone() : input, { ...init, headers });
    const send = async (tokens: TokenSet | undefined): Promise<Response> => {
      const headers = new Headers(init?.headers ?? template?.headers);
      const key = tokens ? await dpop.keyForToken(tokens) : 'bearer';
      if (tokens && key === 'bearer') headers.set('authorization', `Bearer ${tokens.accessToken}`);
      // A token bound to a key this page does not have cannot be proven: sent without one, it earns the 401 that signs in again.
      if (!tokens || typeof key === 'string') return sendWith(headers);
      return sendWithProof({
        key,
        accessToken: tokens.accessToken,
        method,
        url: target,
        headers,
        canResend: !isStream(init?.body),
        send: sendWith,
      });
    };

    let tokens = await untilAborted(session.currentTokens(), signal);
    // An answer to the request without a token stands only while there is still no token to send.
    if (answered && tokens) await discardBody(answered);
    let response = answered && !tokens ? answered : await send(tokens);
    let signedInAgain = false;
    let upgrades = 0;
    for (;;) {
      // Ending a session is a courtesy: it never opens a sign-in.
      if (method === 'DELETE') return response;
      dpop.noteAnswer(response);
      const challenge: BearerChallenge = resourceChallenge(response.headers.get('www-authenticate')) ?? {};
      if (response.status === 401) {
        if (signedInAgain)
          throw await refused(response, session, shown, 'retry', `${TOKEN_REFUSED_AGAIN} (HTTP 401)`);
        await discardBody(response);
        await untilAborted(session.recover(challenge, tokens, 'unauthorized', signal), signal);
        signedInAgain = true;
      } else if (response.status === 403 && challenge.error === 'insufficient_scope') {
        if (tokens && alreadyGranted(challenge.scopes, tokens.grantedScopes))
          throw await refused(
            response,
            session,
            shown,
            'step-up',
            `it asks for ${challenge.scopes?.join(' ')}, which the token already has: signing in again cannot help`,
          );
        if (upgrades >= maxUpgrades)
          throw await refused(
            response,
            session,
            shown,
            'step-up',
            `it still wants more scopes after ${upgrades} step-ups`,
          );
        await discardBody(response);
        await untilAborted(session.recover(challenge, tokens, 'insufficient_scope', signal), signal);
        upgrades++;
      } else return response;
      if (isStream(init?.body))
        throw new AuthorizationError(
          shown,
          'retry',
          'signed in, but the request cannot be sent again (its body was a stream): try again',
        );
      tokens = await untilAborted(session.currentTokens(), signal);
      response = await send(tokens);
    }
  };

  const oauthFetch = (input: RequestInfo | URL, init?: RequestInit) => exchange(input, init, undefined);
  return Object.assign(oauthFetch, {
    continueFrom: (answered: Response, input: RequestInfo | URL, init?: RequestInit) =>
      exchange(input, init, answered),
    signOut: () => session.signOut(),
    signedIn: () => session.signedIn(),
    retrySignIn: () => session.retrySignIn(),
    signInInProgress: () => session.signInInProgress(),
  });
}

/** A session made at its first use; until then nothing is signed in or in progress. */
function lazySession(load: () => Promise<TokenSource>): TokenSource {
  let loading: Promise<TokenSource> | undefined;
  let ready: TokenSource | undefined;
  const get = (): Promise<TokenSource> => {
    if (!loading) {
      const attempt = load().then((session) => {
        ready = session;
        return session;
      });
      // A chunk that failed to load is fetched again next time, not remembered as failed.
      attempt.catch(() => {
        if (loading === attempt) loading = undefined;
      });
      loading = attempt;
    }
    return loading;
  };
  return {
    currentTokens: async () => (await get()).currentTokens(),
    recover: async (challenge, failed, kind, signal) =>
      (await get()).recover(challenge, failed, kind, signal),
    signOut: async () => (await get()).signOut(),
    signedIn: async () => (await get()).signedIn(),
    retrySignIn: () => ready?.retrySignIn(),
    signInInProgress: () => ready?.signInInProgress(),
    reportFailure: (error) => ready?.reportFailure(error),
  };
}

async function refused(
  response: Response,
  session: TokenSource,
  shown: string,
  step: 'retry' | 'step-up',
  detail: string,
): Promise<AuthorizationError> {
  await discardBody(response);
  const error = new AuthorizationError(shown, step, detail, response.status);
  session.reportFailure(error);
  return error;
}

function isStream(body: BodyInit | null | undefined): boolean {
  return typeof ReadableStream !== 'undefined' && body instanceof ReadableStream;
}

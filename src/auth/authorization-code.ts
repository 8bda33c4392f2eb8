/**
 * The authorization code grant with PKCE (S256), `state` and `resource`, and the checks on the way
 * back: the response must land on our redirect URI, and oauth4webapi validates `iss` (RFC 9207,
 * against the issuer recorded from validated metadata, by simple string comparison), `state`, and
 * only then any `error`, so a response from the wrong server is never acted on nor displayed.
 * Sending the person to the authorization server is the host's part: `authorize` opens the URL
 * (a popup, a redirect, an extension's web auth flow) and resolves with the URL they came back to.
 */

import * as oauth from 'oauth4webapi';
import type { AuthorizationServerMetadata } from './authorization-server.js';
import type { RegisteredClient } from './client-identity.js';
import { isSignInDeclined } from './declined.js';
import type { DPoPPolicy } from './dpop.js';
import { exchangeCode, type TokenSet } from './tokens.js';

/** What the host's user-agent step is given. */
export interface AuthorizationRequest {
  /** The authorization URL to open. */
  url: URL;
  /** The redirect URI the answer comes back to. */
  redirectUri: string;
  /** The authorization server's issuer, to show the person where they are sent. */
  issuer: string;
  /** The MCP server being signed in to, as shown to people. */
  server: string;
  /** The scopes asked for (may be empty). */
  scopes: string[];
  /** Aborted when nobody waits for this sign-in any more. */
  signal: AbortSignal;
  /**
   * Goes to the authorization URL in this tab instead (where popups are blocked): the data to
   * finish is kept in sessionStorage, never in the URL; this page unloads, so it never resolves.
   * Absent where the page cannot do that (no window, no sessionStorage).
   */
  continueInThisTab?: () => Promise<never>;
}

/** What a sign-in that continues in this tab must keep to finish after the return. */
export interface RedirectHandover {
  url: URL;
  state: string;
  codeVerifier: string;
}

/** Opens the authorization URL and resolves with the full URL the person was sent back to. */
export type Authorize = (request: AuthorizationRequest) => Promise<string | URL>;

export class AuthorizationProblem extends Error {
  constructor(
    message: string,
    /** `access_denied` and the like, when the server said so (and was the right server). */
    readonly oauthError?: string,
    /** The person chose not to sign in (the Authorize step rejected with a SignInDeclinedError). */
    readonly declined = false,
  ) {
    super(message);
    this.name = 'AuthorizationProblem';
  }
}

interface CodeFlowOptions {
  as: AuthorizationServerMetadata;
  registered: RegisteredClient;
  redirectUri: string;
  resource: string;
  scopes: string[];
  server: string;
  authorize: Authorize;
  fetchFn: typeof fetch;
  /** The layer's DPoP policy, for the code exchange. */
  dpop?: DPoPPolicy | undefined;
  signal: AbortSignal;
  /** Offered to `authorize` as `continueInThisTab`: keeps the handover, then navigates. */
  continueInTab?: (handover: RedirectHandover) => Promise<never>;
}

export async function authorizationCodeFlow(options: CodeFlowOptions): Promise<TokenSet> {
  const { as, registered, redirectUri } = options;
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint as string);
  const params = url.searchParams;
  params.set('response_type', 'code');
  params.set('client_id', registered.client.client_id);
  params.set('redirect_uri', redirectUri);
  params.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  params.set('code_challenge_method', 'S256');
  params.set('state', state);
  params.set('resource', options.resource);
  if (options.scopes.length > 0) params.set('scope', options.scopes.join(' '));

  let landed: string | URL;
  try {
    landed = await options.authorize({
      url,
      redirectUri,
      issuer: as.issuer,
      server: options.server,
      scopes: options.scopes,
      signal: options.signal,
      ...(options.continueInTab
        ? { continueInThisTab: () => options.continueInTab!({ url, state, codeVerifier }) }
        : {}),
    });
  } catch (error) {
    // A person's "not now" is a choice, not a failure of the sign-in: said in their words.
    if (isSignInDeclined(error)) throw new AuthorizationProblem(error.message, undefined, true);
    throw new AuthorizationProblem(
      `the sign-in at ${url.origin} did not complete: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return finishAuthorization({ ...options, landed, state, codeVerifier });
}

/**
 * The way back: checks the answer the person came back with and exchanges its code. Also where a
 * sign-in that continued in this tab ends, on the page it returned to.
 */
export async function finishAuthorization(
  options: Pick<
    CodeFlowOptions,
    'as' | 'registered' | 'redirectUri' | 'resource' | 'scopes' | 'fetchFn' | 'dpop'
  > & {
    landed: string | URL;
    state: string;
    codeVerifier: string;
  },
): Promise<TokenSet> {
  const { as, registered, redirectUri } = options;
  const callback = parseCallback(options.landed, redirectUri);
  let validated: URLSearchParams;
  try {
    validated = oauth.validateAuthResponse(as, registered.client, callback, options.state);
  } catch (error) {
    throw answerProblem(error, as.issuer);
  }
  return exchangeCode({
    as,
    registered,
    callbackParameters: validated,
    redirectUri,
    codeVerifier: options.codeVerifier,
    resource: options.resource,
    requestedScopes: options.scopes,
    fetchFn: options.fetchFn,
    dpop: options.dpop,
  });
}

/** The URL the person came back to, which must be our redirect URI (origin and path). */
function parseCallback(landed: string | URL, redirectUri: string): URL {
  let url: URL;
  try {
    url = new URL(landed);
  } catch {
    // The browser's address is not one we can read: say so instead of the parser's message.
    throw new AuthorizationProblem('the sign-in came back with an address that does not parse');
  }
  const expected = new URL(redirectUri);
  if (url.origin !== expected.origin || url.pathname !== expected.pathname)
    throw new AuthorizationProblem(
      `the sign-in came back to ${url.origin}${url.pathname}, not to ${redirectUri}`,
    );
  return url;
}

function answerProblem(error: unknown, issuer: string): AuthorizationProblem {
  if (error instanceof oauth.AuthorizationResponseError) {
    const denied = error.error === 'access_denied';
    const description = error.error_description ? `: ${error.error_description}` : '';
    return new AuthorizationProblem(
      denied
        ? `consent was denied at ${issuer}${description}`
        : `${issuer} answered ${error.error}${description}`,
      error.error,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  // RFC 9207: a wrong or missing `iss` means the answer may come from another server (mix-up):
  // nothing it says is repeated.
  if (/"iss"/.test(message))
    return new AuthorizationProblem(
      /missing/.test(message)
        ? `${issuer} promised an "iss" parameter in its answer (RFC 9207) and sent none: the answer was discarded`
        : `the answer names another issuer than ${issuer} (RFC 9207 "iss" check): the answer was discarded, nothing was sent to the token endpoint`,
    );
  if (/"state"/.test(message))
    return new AuthorizationProblem(
      'the answer does not carry the "state" this sign-in sent: it was discarded',
    );
  return new AuthorizationProblem(`the answer was refused: ${message}`);
}

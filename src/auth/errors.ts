/**
 * Why signing in to a server failed, naming the server and the step. It is a TransportError so
 * the HTTP transports pass it through to the caller as it is (they wrap any other fetch failure
 * as a network error). Messages never hold a token, a code, a verifier or a client secret: only
 * URLs (with their secrets redacted), codes and descriptions the authorization server sent.
 */

import { TransportError } from '../protocol/index.js';

/**
 * What a sign-in's error says when the server answered 401 to the token it had just asked for: the
 * connection doctor reads it in a server's last error as a 401 loop (doctor-discovery.ts).
 */
export const TOKEN_REFUSED_AGAIN = 'it refused the token it had just asked for';

/** The step of the authorization flow that failed. */
export type AuthorizationStep =
  | 'discovery'
  | 'registration'
  | 'authorization'
  | 'token'
  /** A host app's own grant (client credentials, JWT bearer): no person, no authorization code. */
  | 'credentials'
  | 'refresh'
  | 'step-up'
  | 'retry';

export class AuthorizationError extends TransportError {
  constructor(
    /** The MCP server, as shown to people. */
    readonly server: string,
    readonly step: AuthorizationStep,
    detail: string,
    status = 401,
    /** The person chose not to sign in: nothing failed, and signing in later is the way on. */
    readonly declined = false,
  ) {
    super(
      server,
      'http-status',
      declined
        ? `Not signed in to ${server}: ${detail}`
        : `Signing in to ${server} failed (${STEP_NAMES[step]}): ${detail}`,
      status,
    );
    this.name = 'AuthorizationError';
  }
}

const STEP_NAMES: Record<AuthorizationStep, string> = {
  discovery: 'discovering its authorization server',
  registration: 'registering this client',
  authorization: 'authorization',
  token: 'exchanging the authorization code',
  credentials: "getting a token with the app's own credentials",
  refresh: 'refreshing the access token',
  'step-up': 'asking for more scopes',
  retry: 'using the new access token',
};

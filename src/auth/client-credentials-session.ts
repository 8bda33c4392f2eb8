/**
 * The sign-in state of one MCP server for a host app that acts as itself (client credentials, or
 * a JWT bearer assertion): on a 401, discovery, then a token from the authorization server with
 * no person and no window; an expired token is not sent, and the 401 that follows fetches a new
 * one. One token request at a time; requests that arrive meanwhile use its result (the flight,
 * the failure, sign-out and events are sign-in-session.ts's, shared with AuthSession). The same
 * surface as AuthSession, so the OAuth fetch layer runs either.
 */

import { type ClientCredentials, preRegisteredFrom, SigningKeyProblem } from './client-credentials.js';
import { machineGrant } from './client-credentials-grant.js';
import {
  type PreRegisteredClient,
  preRegisteredClient,
  type RegisteredClient,
  RegistrationProblem,
  sameIssuer,
} from './client-identity.js';
import { type Discovery, discoverAuthorization } from './discovery.js';
import type { AuthorizationStep } from './errors.js';
import {
  type Recovery,
  type RecoveryKind,
  type SessionBaseOptions,
  SignInSession,
} from './sign-in-session.js';
import { appTokensKey } from './token-keys.js';
import { expiresSoon, revoke, TokenProblem, type TokenSet } from './tokens.js';
import type { BearerChallenge } from './www-authenticate.js';

export interface ClientCredentialsSessionOptions extends SessionBaseOptions {
  credentials: ClientCredentials;
}

export class ClientCredentialsSession extends SignInSession<ClientCredentialsSessionOptions> {
  /** The credentials with their key imported (once; again after a failed import). */
  private imported: Promise<PreRegisteredClient> | undefined;

  constructor(options: ClientCredentialsSessionOptions) {
    // Its own key: a host's own token is never mistaken for a person's, nor the other way round.
    super(options, appTokensKey(options.credentials.clientId, options.serverUrl));
  }

  /**
   * The token to send now. One about to expire is replaced first (the same scopes, from the
   * server found at the last 401), so a long-running host does not earn a 401 every hour; if that
   * fails, none is sent and the 401 that follows says why.
   */
  async currentTokens(): Promise<TokenSet | undefined> {
    if (this.flight) await this.flight.catch(() => undefined);
    const tokens = await this.storedTokens();
    if (!tokens || !expiresSoon(tokens)) return tokens;
    if (!this.discovered || this.failed) return undefined;
    const renewed = await this.recover({ scopes: tokens.requestedScopes }, tokens, 'unauthorized').then(
      () => true,
      () => false,
    );
    return renewed ? this.storedTokens() : undefined;
  }

  /** After a 401 (or a 403 insufficient_scope): a new token, unless another request got one already. */
  recover(challenge: BearerChallenge, failed: TokenSet | undefined, kind: RecoveryKind): Promise<void> {
    return this.recoverOnce({ challenge, failed, kind });
  }

  /** Revokes where the server found at the last 401 offers it. */
  protected async revokeAt(tokens: TokenSet): Promise<boolean> {
    const found = this.discovered;
    if (!found || found.issuer !== tokens.issuer) return false;
    return revoke({
      as: found.as,
      registered: await this.registeredAt(found),
      tokens,
      fetchFn: this.options.fetchFn,
    });
  }

  protected async run({ challenge, failed, kind }: Recovery): Promise<void> {
    let step: AuthorizationStep = 'discovery';
    try {
      const { credentials } = this.options;
      const found = await discoverAuthorization(
        this.options.fetchFn,
        this.options.serverUrl,
        challenge.resourceMetadata,
        credentials.issuer ? [credentials.issuer] : [],
      );
      this.discovered = found;
      this.checkDPoP(found);
      if (credentials.issuer && !sameIssuer(credentials.issuer, found.issuer))
        throw new RegistrationProblem(
          `the client credentials belong to ${credentials.issuer}, but the server's tokens come from ${found.issuer}`,
        );
      step = 'registration';
      const registered = await this.registeredAt(found);
      const previous = failed ?? (await this.storedTokens());
      const scopes =
        credentials.scopes ??
        (kind === 'insufficient_scope' && previous && challenge.scopes
          ? [...new Set([...previous.requestedScopes, ...challenge.scopes])]
          : (challenge.scopes ?? found.resourceScopes ?? []));
      step = 'credentials';
      const assertion = credentials.assertion
        ? await credentials.assertion({
            issuer: found.issuer,
            resource: found.resource,
            scopes,
            fetch: this.options.fetchFn,
          })
        : undefined;
      const tokens = await machineGrant({
        as: found.as,
        registered,
        resource: found.resource,
        scopes,
        ...(assertion !== undefined ? { assertion } : {}),
        fetchFn: this.options.fetchFn,
        dpop: this.options.dpop,
      });
      await this.options.store.set(this.tokensKey, tokens);
      this.emit({
        type: 'signed-in',
        server: this.options.shown,
        issuer: found.issuer,
        scopes: tokens.grantedScopes,
        client: 'pre-registered',
      });
    } catch (error) {
      throw this.failedWith(
        error,
        kind === 'insufficient_scope' && step === 'credentials' ? 'step-up' : step,
      );
    }
  }

  private async registeredAt(found: Discovery): Promise<RegisteredClient> {
    if (!this.imported) {
      const importing = preRegisteredFrom(this.options.credentials);
      this.imported = importing;
      importing.catch(() => {
        if (this.imported === importing) this.imported = undefined;
      });
    }
    return preRegisteredClient(found.issuer, await this.imported);
  }

  /** A signing key the host gave is the registration's; a refused grant points at the credentials. */
  protected override explain(
    error: unknown,
    step: AuthorizationStep,
  ): { step: AuthorizationStep; message: string } | undefined {
    if (error instanceof SigningKeyProblem) return { step: 'registration', message: error.message };
    if (error instanceof TokenProblem)
      return {
        step,
        message: `${error.message}; check the client credentials the host app configured for this server`,
      };
    return undefined;
  }
}

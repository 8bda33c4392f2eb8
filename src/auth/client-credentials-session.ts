/**
 * The sign-in state of one MCP server for a host app that acts as itself (client credentials, or
 * a JWT bearer assertion): on a 401, discovery, then a token from the authorization server with
 * no person and no window; an expired token is not sent, and the 401 that follows fetches a new
 * one. One token request at a time; requests that arrive meanwhile use its result. The same
 * surface as AuthSession, so the OAuth fetch layer runs either.
 */

import { type ClientCredentials, preRegisteredFrom, SigningKeyProblem } from './client-credentials.js';
import { machineGrant } from './client-credentials-grant.js';
import { type PreRegisteredClient, type RegisteredClient, RegistrationProblem } from './client-identity.js';
import { type Discovery, discoverAuthorization } from './discovery.js';
import type { DPoPPolicy } from './dpop.js';
import { AuthorizationError, type AuthorizationStep } from './errors.js';
import { DiscoveryProblem } from './resource-metadata.js';
import type { AuthEvent, RecoveryKind } from './session.js';
import type { AuthStore } from './store.js';
import { expiresSoon, revoke, TokenProblem, type TokenSet } from './tokens.js';
import { canonicalResourceUri } from './urls.js';
import type { BearerChallenge } from './www-authenticate.js';

export interface ClientCredentialsSessionOptions {
  serverUrl: URL;
  /** The server as shown to people (URL secrets redacted). */
  shown: string;
  fetchFn: typeof fetch;
  credentials: ClientCredentials;
  store: AuthStore;
  dpop: DPoPPolicy;
  onEvent?: (event: AuthEvent) => void;
}

export class ClientCredentialsSession {
  private flight: Promise<void> | undefined;
  private discovered: Discovery | undefined;
  private failed: AuthorizationError | undefined;
  /** The credentials with their key imported (once; again after a failed import). */
  private imported: Promise<PreRegisteredClient> | undefined;
  private readonly tokensKey: string;

  constructor(private readonly options: ClientCredentialsSessionOptions) {
    // Its own key: a host's own token is never mistaken for a person's, nor the other way round.
    this.tokensKey = `client-credentials ${options.credentials.clientId} ${canonicalResourceUri(options.serverUrl)}`;
  }

  /**
   * The token to send now. One about to expire is replaced first (the same scopes, from the
   * server found at the last 401), so a long-running host does not earn a 401 every hour; if that
   * fails, none is sent and the 401 that follows says why.
   */
  async currentTokens(): Promise<TokenSet | undefined> {
    if (this.flight) await this.flight.catch(() => undefined);
    const tokens = await this.options.store.get<TokenSet>(this.tokensKey);
    if (!tokens || !expiresSoon(tokens)) return tokens;
    if (!this.discovered || this.failed) return undefined;
    const renewed = await this.recover({ scopes: tokens.requestedScopes }, tokens, 'unauthorized').then(
      () => true,
      () => false,
    );
    return renewed ? this.options.store.get<TokenSet>(this.tokensKey) : undefined;
  }

  /** After a 401 (or a 403 insufficient_scope): a new token, unless another request got one already. */
  async recover(challenge: BearerChallenge, failed: TokenSet | undefined, kind: RecoveryKind): Promise<void> {
    if (this.failed) throw this.failed;
    if (this.flight) {
      await this.flight;
      const now = await this.options.store.get<TokenSet>(this.tokensKey);
      if (now && now.accessToken !== failed?.accessToken) return;
    }
    const flight = this.run(challenge, failed, kind);
    this.flight = flight;
    try {
      await flight;
    } finally {
      if (this.flight === flight) this.flight = undefined;
    }
  }

  retrySignIn(): void {
    this.failed = undefined;
  }

  reportFailure(error: AuthorizationError): void {
    this.emit({ type: 'failed', server: this.options.shown, step: error.step, message: error.message });
  }

  signInInProgress(): Promise<void> | undefined {
    return this.flight?.catch(() => undefined);
  }

  async signedIn(): Promise<boolean> {
    return (await this.options.store.get<TokenSet>(this.tokensKey)) !== undefined;
  }

  /** Revokes the token where the server offers revocation, and forgets it. */
  async signOut(): Promise<void> {
    this.failed = undefined;
    const tokens = await this.options.store.get<TokenSet>(this.tokensKey);
    await this.options.store.delete(this.tokensKey);
    let revoked = false;
    const found = this.discovered;
    if (tokens && found && found.issuer === tokens.issuer)
      revoked = await revoke({
        as: found.as,
        registered: await this.registeredAt(found),
        tokens,
        fetchFn: this.options.fetchFn,
      }).catch(() => false);
    this.emit({
      type: 'signed-out',
      server: this.options.shown,
      ...(tokens ? { issuer: tokens.issuer } : {}),
      revoked,
    });
  }

  private async run(
    challenge: BearerChallenge,
    failed: TokenSet | undefined,
    kind: RecoveryKind,
  ): Promise<void> {
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
      if (credentials.issuer && !sameIssuer(credentials.issuer, found.issuer))
        throw new RegistrationProblem(
          `the client credentials belong to ${credentials.issuer}, but the server's tokens come from ${found.issuer}`,
        );
      step = 'registration';
      const registered = await this.registeredAt(found);
      const previous = failed ?? (await this.options.store.get<TokenSet>(this.tokensKey));
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
      const failure = this.failure(
        error,
        kind === 'insufficient_scope' && step === 'credentials' ? 'step-up' : step,
      );
      this.failed = failure;
      this.reportFailure(failure);
      throw failure;
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
    const imported = this.imported;
    const entry = await imported;
    return {
      issuer: found.issuer,
      how: 'pre-registered',
      client: {
        client_id: entry.clientId,
        ...(entry.tokenEndpointAuthMethod
          ? { token_endpoint_auth_method: entry.tokenEndpointAuthMethod }
          : {}),
      },
      ...(entry.clientSecret ? { clientSecret: entry.clientSecret } : {}),
      ...(entry.privateKey ? { privateKey: entry.privateKey } : {}),
      ...(entry.keyId ? { keyId: entry.keyId } : {}),
    };
  }

  private failure(error: unknown, step: AuthorizationStep): AuthorizationError {
    if (error instanceof AuthorizationError) return error;
    const status = step === 'step-up' ? 403 : 401;
    const { shown } = this.options;
    if (error instanceof DiscoveryProblem)
      return new AuthorizationError(shown, 'discovery', error.message, status);
    if (error instanceof RegistrationProblem || error instanceof SigningKeyProblem)
      return new AuthorizationError(shown, 'registration', error.message, status);
    if (error instanceof TokenProblem)
      return new AuthorizationError(
        shown,
        step,
        `${error.message}; check the client credentials the host app configured for this server`,
        status,
      );
    return new AuthorizationError(
      shown,
      step,
      error instanceof Error ? error.message : String(error),
      status,
    );
  }

  private emit(event: AuthEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // A listener's failure is not the sign-in's.
    }
  }
}

function sameIssuer(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

/**
 * What both sign-in sessions share (AuthSession for a person, ClientCredentialsSession for a host
 * app acting as itself): the tokens of one server kept under one store key, one recovery in
 * flight at a time (a 401 on the POST and on the GET stream start one sign-in, not two; requests
 * that arrive meanwhile wait for it and use its result), the last failure repeated until
 * retrySignIn(), sign-out, the failure named by server and step, and the events. Each session
 * adds only its own steps: how it recovers, and how it revokes.
 */

import { AuthorizationProblem } from './authorization-code.js';
import { type RegisteredClient, RegistrationProblem } from './client-identity.js';
import type { Discovery } from './discovery.js';
import { type DPoPPolicy, DPoPProblem } from './dpop.js';
import { AuthorizationError, type AuthorizationStep } from './errors.js';
import { DiscoveryProblem } from './resource-metadata.js';
import type { AuthStore } from './store.js';
import type { TokenSet } from './tokens.js';
import type { BearerChallenge } from './www-authenticate.js';

/** What happened, for the panel and the audit log: never a token, a code or a secret. */
export type AuthEvent =
  | { type: 'signed-in'; server: string; issuer: string; scopes: string[]; client: RegisteredClient['how'] }
  | { type: 'refreshed'; server: string; issuer: string }
  /** Tokens from an earlier page (a store kept at rest, or a redirect sign-in): nobody was asked now. */
  | { type: 'restored'; server: string; issuer: string; scopes: string[] }
  | { type: 'signed-out'; server: string; issuer?: string; revoked: boolean }
  /** `declined`: the person chose not to sign in ("Not now"); nothing failed. */
  | { type: 'failed'; server: string; step: AuthorizationStep; message: string; declined?: true };

export type RecoveryKind = 'unauthorized' | 'insufficient_scope';

/** One recovery: the resource server's challenge, the token the request was sent with, and why. */
export interface Recovery {
  challenge: BearerChallenge;
  failed: TokenSet | undefined;
  kind: RecoveryKind;
}

/** The options every session takes. */
export interface SessionBaseOptions {
  serverUrl: URL;
  /** The server as shown to people (URL secrets redacted). */
  shown: string;
  /** For metadata, registration and token requests. */
  fetchFn: typeof fetch;
  store: AuthStore;
  /** The OAuth layer's DPoP policy, handed to every token request; absent, none carries a proof. */
  dpop?: DPoPPolicy;
  onEvent?: (event: AuthEvent) => void;
}

export abstract class SignInSession<Options extends SessionBaseOptions> {
  /** The recovery in progress; requests that need one meanwhile wait for it. */
  protected flight: Promise<void> | undefined;
  /**
   * The last sign-in failure, given to every later 401 until retrySignIn(): a person who denied
   * consent or closed the window is not sent to the authorization server again by a retry.
   */
  protected failed: AuthorizationError | undefined;
  /** What the last discovery found (where to refresh and revoke). */
  protected discovered: Discovery | undefined;

  constructor(
    protected readonly options: Options,
    /** Where this server's tokens are kept in the store. */
    protected readonly tokensKey: string,
  ) {}

  /** Lets the next 401 start a new sign-in after a failed one. */
  retrySignIn(): void {
    this.failed = undefined;
  }

  /** Reports a refusal decided outside a sign-in (a step-up that cannot help), for the event log. */
  reportFailure(error: AuthorizationError): void {
    this.emit({
      type: 'failed',
      server: this.options.shown,
      step: error.step,
      message: error.message,
      ...(error.declined ? { declined: true as const } : {}),
    });
  }

  /** The sign-in in progress, settling when it ends either way; undefined when none is running. */
  signInInProgress(): Promise<void> | undefined {
    return this.flight?.catch(() => undefined);
  }

  async signedIn(): Promise<boolean> {
    return (await this.storedTokens()) !== undefined;
  }

  /** Revokes (where the server offers it) and forgets the tokens of this server. */
  async signOut(): Promise<void> {
    this.failed = undefined;
    this.stopSignIn();
    const tokens = await this.storedTokens();
    await this.options.store.delete(this.tokensKey);
    // Revocation is a courtesy: a server that cannot be reached does not keep anyone signed in.
    const revoked = tokens ? await this.revokeAt(tokens).catch(() => false) : false;
    this.emit({
      type: 'signed-out',
      server: this.options.shown,
      ...(tokens ? { issuer: tokens.issuer } : {}),
      revoked,
    });
  }

  /** Revokes `tokens` where their server offers it; true when it did. */
  protected abstract revokeAt(tokens: TokenSet): Promise<boolean>;

  /** Stops a sign-in that waits (a person's window); nothing for sessions without one. */
  protected stopSignIn(): void {}

  protected storedTokens(): Promise<TokenSet | undefined> {
    return this.options.store.get<TokenSet>(this.tokensKey);
  }

  /** The session's own steps to a new token (a person's sign-in, or the app's own grant). */
  protected abstract run(recovery: Recovery): Promise<void>;

  /**
   * Runs `recovery` as the one recovery in flight, unless another request's recovery (which this
   * one joins, failure included) already replaced the token the request was sent with.
   */
  protected async recoverOnce(recovery: Recovery): Promise<void> {
    if (this.failed) throw this.failed;
    if (this.flight) {
      await this.flight;
      const now = await this.storedTokens();
      if (now && now.accessToken !== recovery.failed?.accessToken) return;
    }
    const flight = this.run(recovery);
    this.flight = flight;
    try {
      await flight;
    } finally {
      if (this.flight === flight) this.flight = undefined;
    }
  }

  /** Records a sign-in's failure (repeated until retrySignIn), reports it, and returns it to throw. */
  protected failedWith(error: unknown, step: AuthorizationStep): AuthorizationError {
    const failure = this.failure(error, step);
    this.failed = failure;
    this.reportFailure(failure);
    return failure;
  }

  /** Hands discovery's result to the DPoP policy, which stops a sign-in it cannot serve. */
  protected checkDPoP(found: Discovery): void {
    this.options.dpop?.noteDiscovery(found);
  }

  /** Names a failure by server and step; `explain` covers what only one kind of session throws. */
  private failure(error: unknown, step: AuthorizationStep): AuthorizationError {
    if (error instanceof AuthorizationError) return error;
    const status = step === 'step-up' ? 403 : 401;
    const { shown } = this.options;
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof DiscoveryProblem || error instanceof DPoPProblem)
      return new AuthorizationError(shown, 'discovery', message, status);
    if (error instanceof RegistrationProblem)
      return new AuthorizationError(shown, 'registration', message, status);
    if (error instanceof AuthorizationProblem && error.declined)
      return new AuthorizationError(shown, 'authorization', message, status, true);
    const explained = this.explain(error, step);
    return new AuthorizationError(shown, explained?.step ?? step, explained?.message ?? message, status);
  }

  /** A session's own reading of an error it throws (a token refusal, a signing key). */
  protected explain(
    _error: unknown,
    _step: AuthorizationStep,
  ): { step: AuthorizationStep; message: string } | undefined {
    return undefined;
  }

  protected emit(event: AuthEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // A listener's failure is not the sign-in's.
    }
  }
}

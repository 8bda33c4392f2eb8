/**
 * The sign-in state of one MCP server: which authorization server it uses now, this client's
 * identity there, and the tokens for its resource. One recovery runs at a time (a 401 on the POST
 * and on the GET stream start one sign-in, not two; one refresh is in flight at a time); requests
 * that arrive meanwhile wait for it and use its result.
 *
 * On a 401 the discovery runs again, so a server that moved to another authorization server is
 * followed: tokens and registrations of the old one are never offered to the new one.
 */

import { reportPersonWait } from '../protocol/person-wait.js';
import {
  AuthorizationProblem,
  type AuthorizationRequest,
  type Authorize,
  authorizationCodeFlow,
  finishAuthorization,
  type RedirectHandover,
} from './authorization-code.js';
import {
  type ClientIdentity,
  clientFor,
  forgetRegistration,
  knownClient,
  type RegisteredClient,
  RegistrationProblem,
} from './client-identity.js';
import { type Discovery, discoverAuthorization } from './discovery.js';
import { AuthorizationError, type AuthorizationStep } from './errors.js';
import { canRedirect, continueInThisTab, takeRedirectReturn } from './redirect.js';
import { DiscoveryProblem } from './resource-metadata.js';
import { selectScopes } from './scopes.js';
import type { AuthStore } from './store.js';
import { expiresSoon, refresh, revoke, TokenProblem, type TokenSet } from './tokens.js';
import { canonicalResourceUri } from './urls.js';
import type { BearerChallenge } from './www-authenticate.js';

/** What happened, for the panel and the audit log: never a token, a code or a secret. */
export type AuthEvent =
  | { type: 'signed-in'; server: string; issuer: string; scopes: string[]; client: RegisteredClient['how'] }
  | { type: 'refreshed'; server: string; issuer: string }
  /** Tokens from an earlier page (a store kept at rest, or a redirect sign-in): nobody was asked now. */
  | { type: 'restored'; server: string; issuer: string; scopes: string[] }
  | { type: 'signed-out'; server: string; issuer?: string; revoked: boolean }
  | { type: 'failed'; server: string; step: AuthorizationStep; message: string };

export interface SessionOptions {
  serverUrl: URL;
  /** The server as shown to people (URL secrets redacted). */
  shown: string;
  /** For metadata, registration and token requests. */
  fetchFn: typeof fetch;
  client: ClientIdentity;
  authorize: Authorize;
  store: AuthStore;
  offlineAccess: boolean;
  onEvent?: (event: AuthEvent) => void;
}

export type RecoveryKind = 'unauthorized' | 'insufficient_scope';

export class AuthSession {
  private flight: Promise<void> | undefined;
  private refreshing: Promise<TokenSet | undefined> | undefined;
  private discovered: Discovery | undefined;
  private readonly tokensKey: string;
  /** The server's canonical URI: what its tokens and a redirect sign-in's record are kept under. */
  private readonly serverKey: string;
  private readonly clients = new Map<string, RegisteredClient>();
  /** Aborts the sign-in in progress (its popup closes) on sign-out; replaced for the next one. */
  private cancel = new AbortController();
  /**
   * The last sign-in failure, given to every later 401 until retrySignIn(): a person who denied
   * consent or closed the window is not sent to the authorization server again by a retry.
   */
  private failed: AuthorizationError | undefined;
  /** Whether the person is being asked now (the authorize step: prompt, popup or redirect). */
  private askingPerson = false;
  /** Requests waiting on this sign-in, told when the person is asked and when that ends. */
  private readonly personWaits = new Set<(waiting: boolean) => void>();
  /** Whether tokens found in the store at the first read were reported (once per page). */
  private restoredChecked = false;

  constructor(private readonly options: SessionOptions) {
    this.serverKey = canonicalResourceUri(options.serverUrl);
    this.tokensKey = `tokens ${this.serverKey}`;
  }

  /** The tokens to send now; refreshed first when they are about to expire. */
  async currentTokens(): Promise<TokenSet | undefined> {
    if (this.flight) await this.flight.catch(() => undefined);
    const tokens = await this.options.store.get<TokenSet>(this.tokensKey);
    if (!this.restoredChecked) {
      this.restoredChecked = true;
      if (tokens)
        this.emit({
          type: 'restored',
          server: this.options.shown,
          issuer: tokens.issuer,
          scopes: tokens.grantedScopes,
        });
    }
    if (!tokens || !expiresSoon(tokens)) return tokens;
    if (!tokens.refreshToken) return undefined; // expired: sending it only earns a 401
    return this.refreshOnce(tokens);
  }

  /**
   * After a 401 (or a 403 insufficient_scope) for a request sent with `failed`: signs in again,
   * unless another request already did. Throws AuthorizationError naming the failed step.
   */
  async recover(
    challenge: BearerChallenge,
    failed: TokenSet | undefined,
    kind: RecoveryKind,
    /** The request's signal: told when the sign-in waits for the person (its timeout stops meanwhile). */
    signal?: AbortSignal | null,
  ): Promise<void> {
    if (this.failed) throw this.failed;
    const relay = (waiting: boolean) => reportPersonWait(signal, waiting);
    this.personWaits.add(relay);
    if (this.askingPerson) relay(true);
    try {
      await this.recoverOnce(challenge, failed, kind);
    } finally {
      this.personWaits.delete(relay);
      if (this.askingPerson) relay(false);
    }
  }

  private async recoverOnce(challenge: BearerChallenge, failed: TokenSet | undefined, kind: RecoveryKind) {
    if (this.flight) {
      // Another request is signing in already: its outcome, failure included, is ours too.
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

  /** Lets the next 401 start a new sign-in after a failed one. */
  retrySignIn(): void {
    this.failed = undefined;
  }

  /** Reports a refusal decided outside a sign-in (a step-up that cannot help), for the event log. */
  reportFailure(error: AuthorizationError): void {
    this.emit({ type: 'failed', server: this.options.shown, step: error.step, message: error.message });
  }

  /** Revokes (when the server offers it) and forgets the tokens of this server. */
  async signOut(): Promise<void> {
    this.failed = undefined;
    this.cancel.abort(new Error('signed out'));
    this.cancel = new AbortController();
    const tokens = await this.options.store.get<TokenSet>(this.tokensKey);
    await this.options.store.delete(this.tokensKey);
    let revoked = false;
    // Tokens from an earlier page or worker: discovery finds where to revoke them.
    const found =
      this.discovered ?? (tokens ? await this.discover(undefined).catch(() => undefined) : undefined);
    if (tokens && found && found.issuer === tokens.issuer) {
      const registered =
        this.clients.get(found.issuer) ??
        (await knownClient(this.options.client, found.as, this.options.store).catch(() => undefined));
      if (registered)
        revoked = await revoke({ as: found.as, registered, tokens, fetchFn: this.options.fetchFn });
    }
    this.emit({
      type: 'signed-out',
      server: this.options.shown,
      ...(tokens ? { issuer: tokens.issuer } : {}),
      revoked,
    });
  }

  /**
   * The sign-in in progress (waiting for the person, or exchanging the code), settling when it
   * ends either way; undefined when none is running.
   */
  signInInProgress(): Promise<void> | undefined {
    return this.flight?.catch(() => undefined);
  }

  async signedIn(): Promise<boolean> {
    return (await this.options.store.get<TokenSet>(this.tokensKey)) !== undefined;
  }

  private async run(
    challenge: BearerChallenge,
    failed: TokenSet | undefined,
    kind: RecoveryKind,
  ): Promise<void> {
    let step: AuthorizationStep = 'discovery';
    try {
      const found = await this.discover(challenge.resourceMetadata);
      let previous = failed ?? (await this.options.store.get<TokenSet>(this.tokensKey));
      if (previous && (previous.issuer !== found.issuer || previous.resource !== found.resource)) {
        // The server moved to another authorization server (or resource): nothing of the old one is reused.
        await this.options.store.delete(this.tokensKey);
        previous = undefined;
      }
      if (kind === 'unauthorized' && previous?.refreshToken) {
        step = 'refresh';
        const refreshed = await this.refreshOnce(previous).catch(() => undefined);
        if (refreshed && refreshed.accessToken !== failed?.accessToken) return;
      }
      // Back from a sign-in that continued in this tab (the page reloaded): finish that one.
      const back = canRedirect() ? takeRedirectReturn(this.serverKey) : undefined;
      if (back?.landed && back.issuer === found.issuer && back.resource === found.resource) {
        step = 'authorization';
        this.clients.set(found.issuer, back.registered);
        const tokens = await finishAuthorization({
          as: found.as,
          registered: back.registered,
          redirectUri: back.redirectUri,
          resource: back.resource,
          scopes: back.scopes,
          fetchFn: this.options.fetchFn,
          landed: back.landed,
          state: back.state,
          codeVerifier: back.codeVerifier,
        }).catch((error: unknown) => {
          if (error instanceof TokenProblem) step = 'token';
          throw error;
        });
        await this.signedInWith(tokens, found, back.registered);
        return;
      }
      step = 'registration';
      const registered = await this.clientAt(found);
      const scopes = selectScopes({
        ...(challenge.scopes ? { challenged: challenge.scopes } : {}),
        ...(found.resourceScopes ? { resourceSupported: found.resourceScopes } : {}),
        ...(previous ? { previous: previous.requestedScopes } : {}),
        ...(found.as.scopes_supported ? { serverSupported: found.as.scopes_supported } : {}),
        wantsOfflineAccess: this.options.offlineAccess,
      });
      step = 'authorization';
      const tokens = await authorizationCodeFlow({
        as: found.as,
        registered,
        redirectUri: this.options.client.redirectUri,
        resource: found.resource,
        scopes,
        server: this.options.shown,
        authorize: (request) => this.askPerson(request),
        fetchFn: this.options.fetchFn,
        signal: this.cancel.signal,
        ...(canRedirect()
          ? {
              continueInTab: (handover: RedirectHandover) =>
                continueInThisTab(
                  {
                    server: this.serverKey,
                    redirectUri: this.options.client.redirectUri,
                    issuer: found.issuer,
                    resource: found.resource,
                    scopes,
                    registered,
                  },
                  handover,
                ),
            }
          : {}),
      }).catch(async (error: unknown) => {
        if (error instanceof TokenProblem) {
          step = 'token';
          // A registration the server no longer knows is made again next time.
          if (/invalid_client/.test(error.message) && registered.how === 'dynamic') {
            this.clients.delete(found.issuer);
            await forgetRegistration(this.options.store, found.issuer, this.options.client.redirectUri);
          }
        }
        throw error;
      });
      await this.signedInWith(tokens, found, registered);
    } catch (error) {
      const failure = this.failure(
        error,
        kind === 'insufficient_scope' && step === 'authorization' ? 'step-up' : step,
      );
      this.failed = failure;
      this.reportFailure(failure);
      throw failure;
    }
  }

  /** The host's user-agent step, with the requests waiting on it told that a person is asked. */
  private async askPerson(request: AuthorizationRequest): Promise<string | URL> {
    this.setAskingPerson(true);
    try {
      return await this.options.authorize(request);
    } finally {
      this.setAskingPerson(false);
    }
  }

  private setAskingPerson(asking: boolean): void {
    this.askingPerson = asking;
    for (const relay of this.personWaits) relay(asking);
  }

  private async signedInWith(
    tokens: TokenSet,
    found: Discovery,
    registered: RegisteredClient,
  ): Promise<void> {
    await this.options.store.set(this.tokensKey, tokens);
    this.emit({
      type: 'signed-in',
      server: this.options.shown,
      issuer: found.issuer,
      scopes: tokens.grantedScopes,
      client: registered.how,
    });
  }

  /** PRM (the server's own word on its authorization server), then that server's metadata. */
  private async discover(named: string | undefined): Promise<Discovery> {
    // Of several authorization servers, the one pre-registered credentials are for (RFC 9728 §7.6).
    const preferred = (this.options.client.preRegistered ?? [])
      .map((entry) => entry.issuer)
      .filter((issuer) => issuer !== undefined);
    this.discovered = await discoverAuthorization(
      this.options.fetchFn,
      this.options.serverUrl,
      named,
      preferred,
    );
    return this.discovered;
  }

  private async clientAt(found: Discovery): Promise<RegisteredClient> {
    const known = this.clients.get(found.issuer);
    if (known && known.issuer === found.issuer) return known;
    const registered = await clientFor(
      this.options.client,
      found.as,
      this.options.store,
      this.options.fetchFn,
    );
    this.clients.set(found.issuer, registered);
    return registered;
  }

  /** One refresh in flight per server; resolves undefined when it fails (the tokens are dropped). */
  private refreshOnce(tokens: TokenSet): Promise<TokenSet | undefined> {
    if (this.refreshing) return this.refreshing;
    const work = (async () => {
      const found = this.discovered;
      // Nothing discovered yet (tokens from an earlier page): the 401 that follows discovers, then refreshes.
      if (!found || found.issuer !== tokens.issuer) return undefined;
      // The client the token was issued to, also when this page (or a restarted extension worker)
      // has not used it yet: a registration kept in the store counts, a new one never would.
      const registered =
        this.clients.get(found.issuer) ??
        (await knownClient(this.options.client, found.as, this.options.store));
      if (!registered) return undefined;
      try {
        const next = await refresh({ as: found.as, registered, tokens, fetchFn: this.options.fetchFn });
        await this.options.store.set(this.tokensKey, next);
        this.emit({ type: 'refreshed', server: this.options.shown, issuer: found.issuer });
        return next;
      } catch {
        await this.options.store.delete(this.tokensKey);
        return undefined;
      }
    })();
    this.refreshing = work;
    return work.finally(() => {
      if (this.refreshing === work) this.refreshing = undefined;
    });
  }

  private failure(error: unknown, step: AuthorizationStep): AuthorizationError {
    if (error instanceof AuthorizationError) return error;
    const status = step === 'step-up' ? 403 : 401;
    const { shown } = this.options;
    if (error instanceof DiscoveryProblem)
      return new AuthorizationError(shown, 'discovery', error.message, status);
    if (error instanceof RegistrationProblem)
      return new AuthorizationError(shown, 'registration', error.message, status);
    if (error instanceof TokenProblem) return new AuthorizationError(shown, 'token', error.message, status);
    if (error instanceof AuthorizationProblem)
      return new AuthorizationError(shown, step, error.message, status);
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

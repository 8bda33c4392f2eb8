/**
 * The sign-in state of one MCP server for a person: which authorization server it uses now, this
 * client's identity there, and the tokens for its resource. One recovery runs at a time and one
 * refresh is in flight at a time (sign-in-session.ts holds what both sessions share); requests
 * that arrive meanwhile wait for it and use its result.
 *
 * On a 401 the discovery runs again, so a server that moved to another authorization server is
 * followed: tokens and registrations of the old one are never offered to the new one.
 */

import { reportPersonWait } from '../protocol/index.js';
import {
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
} from './client-identity.js';
import { type Discovery, discoverAuthorization } from './discovery.js';
import type { AuthorizationStep } from './errors.js';
import { canRedirect, continueInThisTab, takeRedirectReturn } from './redirect.js';
import { selectScopes } from './scopes.js';
import {
  type Recovery,
  type RecoveryKind,
  type SessionBaseOptions,
  SignInSession,
} from './sign-in-session.js';
import { personTokensKey } from './token-keys.js';
import { expiresSoon, refresh, revoke, TokenProblem, type TokenSet } from './tokens.js';
import { canonicalResourceUri } from './urls.js';
import type { BearerChallenge } from './www-authenticate.js';

export type { AuthEvent, RecoveryKind } from './sign-in-session.js';

interface SessionOptions extends SessionBaseOptions {
  client: ClientIdentity;
  authorize: Authorize;
  offlineAccess: boolean;
}

export class AuthSession extends SignInSession<SessionOptions> {
  private refreshing: Promise<TokenSet | undefined> | undefined;
  /** The server's canonical URI: what its tokens and a redirect sign-in's record are kept under. */
  private readonly serverKey: string;
  private readonly clients = new Map<string, RegisteredClient>();
  /** Aborts the sign-in in progress (its popup closes) on sign-out; replaced for the next one. */
  private cancel = new AbortController();
  /** Whether the person is being asked now (the authorize step: prompt, popup or redirect). */
  private askingPerson = false;
  /** Requests waiting on this sign-in, told when the person is asked and when that ends. */
  private readonly personWaits = new Set<(waiting: boolean) => void>();
  /** Whether tokens found in the store at the first read were reported (once per page). */
  private restoredChecked = false;

  constructor(options: SessionOptions) {
    super(options, personTokensKey(options.serverUrl));
    this.serverKey = canonicalResourceUri(options.serverUrl);
  }

  /** The tokens to send now; refreshed first when they are about to expire. */
  async currentTokens(): Promise<TokenSet | undefined> {
    if (this.flight) await this.flight.catch(() => undefined);
    const tokens = await this.storedTokens();
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
      // Another request signing in already: its outcome, failure included, is ours too.
      await this.recoverOnce({ challenge, failed, kind });
    } finally {
      this.personWaits.delete(relay);
      if (this.askingPerson) relay(false);
    }
  }

  /** Closes the window of a sign-in in progress; the next one gets a new signal. */
  protected override stopSignIn(): void {
    this.cancel.abort(new Error('signed out'));
    this.cancel = new AbortController();
  }

  /** Tokens from an earlier page or worker: discovery finds where to revoke them. */
  protected async revokeAt(tokens: TokenSet): Promise<boolean> {
    const found = this.discovered ?? (await this.discover(undefined));
    if (found.issuer !== tokens.issuer) return false;
    const registered =
      this.clients.get(found.issuer) ??
      (await knownClient(this.options.client, found.as, this.options.store));
    return registered ? revoke({ as: found.as, registered, tokens, fetchFn: this.options.fetchFn }) : false;
  }

  protected async run({ challenge, failed, kind }: Recovery): Promise<void> {
    let step: AuthorizationStep = 'discovery';
    try {
      const found = await this.discover(challenge.resourceMetadata);
      this.checkDPoP(found);
      let previous = failed ?? (await this.storedTokens());
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
          dpop: this.options.dpop,
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
        dpop: this.options.dpop,
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
      throw this.failedWith(
        error,
        kind === 'insufficient_scope' && step === 'authorization' ? 'step-up' : step,
      );
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
        const next = await refresh({
          as: found.as,
          registered,
          tokens,
          fetchFn: this.options.fetchFn,
          dpop: this.options.dpop,
        });
        await this.options.store.set(this.tokensKey, next);
        this.emit({ type: 'refreshed', server: this.options.shown, issuer: found.issuer });
        return next;
      } catch {
        // A refresh the authorization server refuses means the grant is over: forget the tokens and sign in again.
        await this.options.store.delete(this.tokensKey);
        return undefined;
      }
    })();
    this.refreshing = work;
    return work.finally(() => {
      if (this.refreshing === work) this.refreshing = undefined;
    });
  }

  /** A token endpoint's refusal is the token step's, whichever step asked. */
  protected override explain(error: unknown): { step: AuthorizationStep; message: string } | undefined {
    return error instanceof TokenProblem ? { step: 'token', message: error.message } : undefined;
  }
}

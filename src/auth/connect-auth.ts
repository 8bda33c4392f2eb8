/**
 * The `auth` option of connect() (and of a panel's ServerConfig): what a host says once about its
 * sign-ins, turned into the lazy OAuth fetch for one server. Loaded by connect() only when a
 * server config carries `auth`; the OAuth protocol code itself still waits for a server's 401.
 */

import type { AuthorizationRequest, Authorize } from './authorization-code.js';
import type { ClientCredentials } from './client-credentials.js';
import type { ClientIdentity } from './client-identity.js';
import type { DPoPMode } from './dpop.js';
import type { EncryptedAuthStoreOptions } from './encrypted-store.js';
import { createLazyOAuthFetch, type LazyOAuthFetch } from './lazy-fetch.js';
import type { AuthEvent } from './session.js';
import { type AuthStore, memoryAuthStore } from './store.js';
import { appTokensKey, personTokensKey } from './token-keys.js';

/** How Toolgate signs in to servers that require OAuth (MCP authorization). */
export interface SignInOptions {
  /**
   * Who this client is to authorization servers when a person signs in: `clientName`,
   * `redirectUri` (a page of the host app that runs `completeSignIn()` from `toolgate/auth`),
   * optionally `metadataDocumentUrl` (a Client ID Metadata Document the host serves over https)
   * and `preRegistered` client ids. Required unless `clientCredentials` is given.
   */
  client?: ClientIdentity;
  /**
   * The host app signs in as itself instead (no person, no window): its client id with a private
   * key (private_key_jwt) or a secret (client_secret_basic), or an `assertion` provider for a JWT
   * bearer grant (workload identity; `idJagAssertion` for enterprise-managed authorization).
   * Only from the host's own configuration, never from the widget's code.
   */
  clientCredentials?: ClientCredentials;
  /**
   * DPoP-bound tokens (RFC 9449) with a non-extractable key: 'auto' (default) when the
   * authorization server advertises ES256 and the MCP server challenges with DPoP; 'always';
   * 'never'.
   */
  dpop?: DPoPMode;
  /**
   * The person's go-ahead before the sign-in window opens: show "Sign in to <server>" with
   * `request.issuer` and `request.scopes`, resolve inside their click (browsers open popups only
   * during one), reject to decline. Used by the default popup; without it the popup opens at once,
   * which works only when the request itself started from a click.
   */
  confirm?: (request: AuthorizationRequest) => Promise<void>;
  /**
   * Where the person signs in: 'popup' (default) keeps this page as it is; 'redirect' goes to the
   * authorization server in this tab and back (the page reloads: a call waiting for the sign-in is
   * shown as interrupted in the log, never sent again by itself). The redirect URI must then be a
   * page of this origin that runs `completeSignIn()` (or this page itself).
   */
  mode?: 'popup' | 'redirect';
  /**
   * The browser blocked the popup: tell the person and resolve if they choose to continue in this
   * tab (reject to decline). Without it a blocked popup fails the sign-in, saying to allow popups.
   */
  continueInTab?: (request: AuthorizationRequest) => Promise<void>;
  /** The user-agent step instead of these: an extension's web auth flow, a host's own. */
  authorize?: Authorize;
  /**
   * Where registrations and tokens live. Default: one memory store for the page, shared by every
   * connection, so a reconnect or Retry does not ask the person again; gone with the page.
   */
  store?: AuthStore;
  /**
   * Keep sign-ins across reloads (when no `store` is given): IndexedDB, every value sealed with
   * AES-GCM under a non-extractable key (see encryptedAuthStore for what that does and does not
   * protect against). Default false: tokens stay in memory, gone with the page.
   */
  keepSignedIn?: boolean | EncryptedAuthStoreOptions;
  /** Ask for `offline_access` where offered (refresh tokens). Default true. */
  offlineAccess?: boolean;
  /** Step-ups for more scopes per request. Default 2. */
  maxScopeUpgrades?: number;
  /** signed-in, refreshed, signed-out, failed: for the panel and the audit log; never a token. */
  onEvent?: (event: AuthEvent) => void;
}

/** A server's sign-in, for a "Sign out" button and a signed-in badge. */
export interface ServerSignIn {
  signedIn(): Promise<boolean>;
  signOut(): Promise<void>;
  /** After a failed sign-in, lets the next request sign in again. */
  retrySignIn(): void;
  /** The sign-in in progress, settling when it ends; undefined when none runs. */
  signInInProgress(): Promise<void> | undefined;
}

let pageStore: AuthStore | undefined;
const atRestStores = new Map<string, AuthStore>();

/** The fetch connect() gives the transports of `serverUrl` when its options carry `auth`. */
export function signInFetch(
  serverUrl: string | URL,
  options: SignInOptions,
  base: typeof fetch | undefined,
): LazyOAuthFetch {
  // Said at connect(), not at the server's first 401, where it would read as a sign-in failure.
  if (!options.client && !options.clientCredentials)
    throw new TypeError(
      `auth for ${new URL(serverUrl).origin} needs client (a person signs in) or clientCredentials (the app signs in as itself)`,
    );
  pageStore ??= memoryAuthStore();
  return createLazyOAuthFetch({
    serverUrl,
    fetch: base,
    clientCredentials: options.clientCredentials,
    client: options.client,
    dpop: options.dpop,
    authorize: options.authorize ?? browserAuthorizer(options),
    store: options.store ?? (options.keepSignedIn ? atRest(options.keepSignedIn) : pageStore),
    offlineAccess: options.offlineAccess,
    maxScopeUpgrades: options.maxScopeUpgrades,
    onEvent: options.onEvent,
  });
}

/**
 * Forgets the tokens kept for `serverUrl` where `options` keeps them, without a connection: for a
 * server that is down or not connected yet (Forget in the panel). What signOut does, but for the
 * courtesy revocation, which needs the server's authorization metadata.
 */
export async function forgetSignIn(serverUrl: string | URL, options: SignInOptions): Promise<void> {
  const store = options.store ?? (options.keepSignedIn ? atRest(options.keepSignedIn) : pageStore);
  await store?.delete(personTokensKey(serverUrl));
  if (options.clientCredentials)
    await store?.delete(appTokensKey(options.clientCredentials.clientId, serverUrl));
}

/** The popup or redirect authorizer, imported when a sign-in starts (not needed before). */
function browserAuthorizer({ mode, confirm, continueInTab }: SignInOptions): Authorize {
  return async (request) => {
    if (mode === 'redirect') {
      const { redirectAuthorizer } = await import('./redirect.js');
      return redirectAuthorizer(confirm)(request);
    }
    const { popupAuthorizer } = await import('./popup.js');
    return popupAuthorizer({ ...(confirm ? { confirm } : {}), ...(continueInTab ? { continueInTab } : {}) })(
      request,
    );
  };
}

/** One encrypted store per database for the page, its code imported at the first read or write. */
function atRest(choice: true | EncryptedAuthStoreOptions): AuthStore {
  const options = choice === true ? {} : choice;
  const name = options.databaseName ?? '';
  let store = atRestStores.get(name);
  if (!store) {
    const loaded = import('./encrypted-store.js').then(({ encryptedAuthStore }) =>
      encryptedAuthStore(options),
    );
    store = {
      get: async (key) => (await loaded).get(key),
      set: async (key, value) => (await loaded).set(key, value),
      delete: async (key) => (await loaded).delete(key),
      // DPoP key pairs at rest too, so a DPoP-bound token kept here survives a reload.
      keyPairs: {
        get: async (name) => (await loaded).keyPairs?.get(name),
        keepFirst: async (name, candidate) => {
          const vault = (await loaded).keyPairs;
          return vault ? vault.keepFirst(name, candidate) : candidate;
        },
      },
    };
    atRestStores.set(name, store);
  }
  return store;
}

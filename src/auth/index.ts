/**
 * MCP authorization (OAuth 2.1) for Toolgate, as a fetch layer: load it only when a server asks
 * for a sign-in, so the first screen does not grow. The package's `toolgate/auth` entry: a host's
 * callback page imports `completeSignIn` from here (its bundler keeps only that: `sideEffects` is
 * false), and hosts that wire the fetch themselves use createLazyOAuthFetch and popupAuthorizer.
 */

export type { AuthorizationRequest, Authorize } from './authorization-code.js';
export { type CallbackDelivery, completeSignIn } from './callback-page.js';
export {
  type AssertionRequest,
  type ClientCredentials,
  type IdJagOptions,
  idJagAssertion,
  importSigningKey,
  type SigningAlgorithm,
} from './client-credentials.js';
export type { ClientIdentity, PreRegisteredClient, TokenEndpointAuthMethod } from './client-identity.js';
export type { ServerSignIn, SignInOptions } from './connect-auth.js';
export { isSignInDeclined, SIGN_IN_DECLINED, signInDeclined } from './declined.js';
export type { DPoPMode } from './dpop.js';
export {
  type EncryptedAuthStoreOptions,
  encryptedAuthStore,
  type SealedRecords,
  sealedAuthStore,
} from './encrypted-store.js';
export { AuthorizationError, type AuthorizationStep } from './errors.js';
export { createLazyOAuthFetch, type LazyOAuthFetch } from './lazy-fetch.js';
export { createOAuthFetch, type OAuthFetch, type OAuthFetchOptions } from './oauth-fetch.js';
export { type PopupAuthorizerOptions, popupAuthorizer } from './popup.js';
export type { AuthEvent } from './session.js';
export type { KeyPairVault } from './store.js';
export { type AuthStore, memoryAuthStore } from './store.js';

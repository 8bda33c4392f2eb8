/**
 * The `auth` option the service worker gives every server it connects to by URL: signing in only
 * happens when a server answers 401 (the OAuth code is not run before), through the side panel's
 * "Sign in to <server>?" and then chrome.identity.launchWebAuthFlow.
 *
 * Who the extension is to an authorization server: it cannot serve a Client ID Metadata Document
 * (that needs an https URL it controls), so it uses a client id pre-registered for its redirect URI
 * (`https://<extension-id>.chromiumapp.org/oauth`) where the deployer supplied one, else Dynamic
 * Client Registration with that redirect URI, as a public client (no secret: an extension keeps none).
 */

import type { AuthStore, PreRegisteredClient, SignInOptions } from '../../src/auth/index.js';
import type { SignInPrompts } from './prompts.js';
import { extensionRedirectUri, webAuthFlowAuthorizer } from './web-auth-flow.js';

export interface ExtensionSignInOptions {
  prompts: SignInPrompts;
  store: AuthStore;
  /** Which server (by id) an auth option belongs to, once the controller holds it. */
  serverIdOf: (auth: SignInOptions) => string | undefined;
  /** Client ids the deployer registered for this extension's redirect URI (managed-clients.ts). */
  preRegistered?: PreRegisteredClient[];
}

export const EXTENSION_CLIENT_NAME = 'Toolgate (Chrome extension)';

/** A fresh `auth` option for one server config (its identity finds the server it belongs to). */
export function extensionSignIn(options: ExtensionSignInOptions): SignInOptions {
  const auth: SignInOptions = {
    client: {
      clientName: EXTENSION_CLIENT_NAME,
      redirectUri: extensionRedirectUri(),
      dynamicRegistration: true,
      ...(options.preRegistered?.length ? { preRegistered: options.preRegistered } : {}),
    },
    store: options.store,
    // The authorizer below asks the person itself (the worker's own queue, prompts.ts); the
    // controller's prompt lives in the worker's memory, where no panel would ever see it.
    confirm: async () => undefined,
    authorize: (request) => options.prompts.track(authorize(request)),
  };
  const authorize = webAuthFlowAuthorizer(async (request) => {
    const serverId = options.serverIdOf(auth);
    if (!serverId) throw new Error(`${request.server} is no longer in Toolgate`);
    await options.prompts.ask(serverId, request);
  });
  return auth;
}

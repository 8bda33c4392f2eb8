/**
 * The extension's user-agent step of a sign-in: chrome.identity.launchWebAuthFlow opens the
 * authorization URL in a window of Chrome's own, follows the authorization server's pages, and
 * ends when they redirect to `https://<extension-id>.chromiumapp.org/...` (Chrome catches that
 * address; nothing is fetched from it), resolving with that full URL for the code flow's checks
 * (state, iss, the redirect URI itself).
 *
 * It runs only after the person said yes in the side panel (`confirm`): the service worker has no
 * click of its own to tie the window to, so the panel's "Sign in" is the person's go-ahead.
 */

import type { AuthorizationRequest, Authorize } from '../../src/auth/index.js';

/** The redirect URI every sign-in of this extension uses (pre-register this one). */
export function extensionRedirectUri(): string {
  return chrome.identity.getRedirectURL('oauth');
}

export function webAuthFlowAuthorizer(confirm: (request: AuthorizationRequest) => Promise<void>): Authorize {
  return async (request) => {
    await confirm(request);
    request.signal.throwIfAborted();
    const flow = chrome.identity.launchWebAuthFlow({ url: request.url.href, interactive: true });
    // Chrome cannot close its window for us: a cancelled sign-in (sign-out) stops waiting for it.
    const cancelled = new Promise<never>((_, reject) => {
      const onAbort = () =>
        reject(
          request.signal.reason instanceof Error
            ? request.signal.reason
            : new Error('the sign-in was cancelled'),
        );
      request.signal.addEventListener('abort', onAbort, { once: true });
      void flow.finally(() => request.signal.removeEventListener('abort', onAbort)).catch(() => undefined);
    });
    let landed: string | undefined;
    try {
      landed = await Promise.race([flow, cancelled]);
    } catch (error) {
      throw new Error(explainFlowError(error, new URL(request.url).origin));
    }
    if (!landed) throw new Error('the sign-in window closed without coming back to Toolgate: sign in again');
    return landed;
  };
}

/** Chrome's messages are terse ("The user did not approve access."): say what happened and what to do. */
function explainFlowError(error: unknown, origin: string): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/did not approve/i.test(message))
    return 'the sign-in window was closed before it finished: press Retry to sign in again';
  if (/could not be loaded/i.test(message))
    return `the sign-in page at ${origin} could not be loaded: check that the authorization server is up, then press Retry`;
  return message;
}

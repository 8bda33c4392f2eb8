/**
 * The browser's user-agent step: the authorization URL opens in a popup, and the redirect URI's
 * page (`completeSignIn`) sends back the URL it was loaded at. Only a message from that popup and
 * from the redirect URI's exact origin is taken; the same-origin channel fallback (the popup lost
 * its opener to the authorization server's COOP) is taken only with this sign-in's `state`.
 *
 * Browsers open popups only during a user gesture: a host whose sign-in does not start from a
 * click passes `confirm`, which shows "Sign in to <server>" and resolves inside the click. Where
 * the browser blocks it anyway, `continueInTab` lets the person go on in this tab (redirect.ts).
 */

import type { AuthorizationRequest, Authorize } from './authorization-code.js';
import { CALLBACK_CHANNEL, isCallbackMessage } from './callback-message.js';

export interface PopupAuthorizerOptions {
  /** Resolves when the person chose to sign in (inside their click), rejects to decline. */
  confirm?: (request: AuthorizationRequest) => Promise<void>;
  /** How long to wait for the person; 10 minutes by default. */
  timeoutMs?: number;
  /** window.open features. */
  features?: string;
  /** The window that opens the popup (tests, iframes). */
  window?: Window;
  /**
   * The browser blocked the popup: tell the person and let them choose to continue in this tab
   * (resolve: the page goes to the authorization server and comes back) or not (reject). Without
   * it a blocked popup fails the sign-in, saying to allow popups.
   */
  continueInTab?: (request: AuthorizationRequest) => Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_FEATURES = 'popup,width=520,height=720';

export function popupAuthorizer(options: PopupAuthorizerOptions = {}): Authorize {
  return async (request) => {
    await options.confirm?.(request);
    const win = options.window ?? window;
    const expectedOrigin = new URL(request.redirectUri).origin;
    const state = request.url.searchParams.get('state');
    const popup = win.open(request.url.href, '_blank', options.features ?? DEFAULT_FEATURES);
    if (!popup) {
      if (options.continueInTab && request.continueInThisTab) {
        await options.continueInTab(request);
        return request.continueInThisTab();
      }
      throw new Error(
        `the browser blocked the sign-in window: allow popups for this site${request.continueInThisTab ? " (or sign in with mode: 'redirect')" : ''}, then sign in again`,
      );
    }
    return new Promise<string>((resolve, reject) => {
      const channel =
        typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(CALLBACK_CHANNEL) : undefined;
      const finish = () => {
        win.removeEventListener('message', onMessage);
        channel?.close();
        clearTimeout(timer);
        request.signal.removeEventListener('abort', onAbort);
      };
      const onMessage = (event: MessageEvent) => {
        if (event.origin !== expectedOrigin || event.source !== popup || !isCallbackMessage(event.data))
          return;
        finish();
        resolve(event.data.url);
      };
      if (channel)
        channel.onmessage = (event: MessageEvent) => {
          if (!isCallbackMessage(event.data) || !sameState(event.data.url, state)) return;
          finish();
          resolve(event.data.url);
        };
      const onAbort = () => {
        finish();
        popup.close();
        reject(
          request.signal.reason instanceof Error
            ? request.signal.reason
            : new Error('the sign-in was cancelled'),
        );
      };
      const timer = setTimeout(() => {
        finish();
        popup.close();
        reject(
          new Error(
            `nobody completed the sign-in within ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 60_000)} minutes`,
          ),
        );
      }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      win.addEventListener('message', onMessage);
      request.signal.addEventListener('abort', onAbort, { once: true });
      if (request.signal.aborted) onAbort();
    });
  };
}

function sameState(url: string, state: string | null): boolean {
  if (state === null) return false;
  try {
    return new URL(url).searchParams.get('state') === state;
  } catch {
    // A popup address we cannot read is not the callback.
    return false;
  }
}

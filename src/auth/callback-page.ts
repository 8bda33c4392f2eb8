/**
 * The redirect URI's page: the host app serves a page at its redirect URI that runs
 * `completeSignIn()`. It hands the URL it was loaded at (with the code) to the page that opened the
 * sign-in, by postMessage addressed to this page's own origin (the opener is a page of the same
 * app; any other opener receives nothing), or, when the authorization server cut the opener link,
 * on a same-origin BroadcastChannel. Then it closes.
 *
 * When the sign-in continued in this tab instead (no popup: redirect.ts), there is no opener: the
 * page notes the answer in this tab's sessionStorage, beside what the sign-in kept there, and goes
 * back to the page that started it, which finishes the sign-in.
 */

import { CALLBACK_CHANNEL, CALLBACK_MESSAGE_TYPE, type CallbackMessage } from './callback-message.js';
import { returnFromRedirect } from './redirect.js';

/**
 * How the answer left: to the opener, on the channel, back to the page that started a sign-in in
 * this tab ('redirect'), or not at all (no opener, no channel).
 */
export type CallbackDelivery = 'opener' | 'channel' | 'redirect' | 'none';

export function completeSignIn(win: Window = window): CallbackDelivery {
  if (returnFromRedirect(win)) return 'redirect';
  const message: CallbackMessage = { type: CALLBACK_MESSAGE_TYPE, url: win.location.href };
  let delivery: CallbackDelivery = 'none';
  const opener = win.opener as Window | null;
  if (opener && opener !== win) {
    opener.postMessage(message, win.location.origin);
    delivery = 'opener';
  } else if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(CALLBACK_CHANNEL);
    channel.postMessage(message);
    channel.close();
    delivery = 'channel';
  }
  if (delivery !== 'none') win.close();
  return delivery;
}

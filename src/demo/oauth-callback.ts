/**
 * The demo site's sign-in callback page (the redirect URI of its OAuth client): it hands the URL
 * it was loaded at, code and state included, to the demo page that opened the sign-in, and closes.
 * It imports the callback code alone, not the OAuth layer: this page must load fast and do nothing
 * else with the code.
 */
import { completeSignIn } from '../auth/callback-page.js';

const delivery = completeSignIn();
if (delivery === 'none') {
  const status = document.getElementById('status');
  // Opened directly (no opener, no channel): say so rather than keep a code on screen.
  if (status)
    status.textContent =
      'This page finishes a sign-in started from Toolgate; it has nothing to do on its own.';
}
// The code must not stay in the address bar or history once it was handed over.
history.replaceState(null, '', location.pathname);

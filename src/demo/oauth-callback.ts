/**
 * The demo site's sign-in callback page (the redirect URI of its OAuth client): it hands the URL
 * it was loaded at, code and state included, to the demo page that opened the sign-in, and closes.
 * It imports the callback code alone, not the OAuth layer: this page must load fast and do nothing
 * else with the code.
 */
import { completeSignIn } from '../auth/index.js';

const status = document.getElementById('status');
const query = new URLSearchParams(location.search);
// An authorization answer carries its state with a code or an error (RFC 6749 §4.1.2).
if (query.has('state') && (query.has('code') || query.has('error'))) {
  const delivery = completeSignIn();
  // The code must not stay in the address bar or history once it was handed over.
  history.replaceState(null, '', location.pathname);
  if (status)
    status.textContent =
      delivery === 'redirect'
        ? 'Signed in: going back to Toolgate…'
        : // Seen only where the browser kept the window open (it was not opened by the sign-in).
          'Done: you can close this window and go back to Toolgate.';
} else if (status) {
  status.textContent = 'This page finishes a sign-in started from Toolgate; it has nothing to do on its own.';
}

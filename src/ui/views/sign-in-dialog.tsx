/**
 * "Sign in to <server>?": shown when a server asks for authorization, before the sign-in window
 * opens, so the person knows where they are sent (the authorization server's origin) and what is
 * asked for (the scopes). "Sign in" opens the window inside the click (browsers allow popups only
 * then); "Not now" and Escape decline, and the server shows why it is not connected. Where the
 * sign-in goes on in this tab (the host's choice, or a blocked window), it says the page leaves
 * and comes back, and what becomes of a call that waited.
 */

import type { PendingSignIn } from '../../session/index.js';
import { ModalDialog } from '../components/modal-dialog.js';

function originOf(issuer: string): string {
  try {
    return new URL(issuer).origin;
  } catch {
    // An issuer that is not a URL is shown as given.
    return issuer;
  }
}

export function SignInDialog({ pending, serverLabel }: { pending: PendingSignIn; serverLabel: string }) {
  const titleId = `tg-sign-in-title-${pending.id}`;
  const way = pending.way ?? 'window';
  const where = <code>{originOf(pending.issuer)}</code>;
  return (
    <ModalDialog titleId={titleId} onEscape={pending.decline}>
      <h2 id={titleId}>
        {way === 'blocked'
          ? `Continue signing in to ${serverLabel} in this tab?`
          : `Sign in to ${serverLabel}?`}
      </h2>
      {way === 'window' ? (
        <p>
          {serverLabel} asks you to sign in. A window opens at {where}, where you sign in and choose what to
          allow; Toolgate never records the token.
        </p>
      ) : (
        <p>
          {way === 'blocked'
            ? 'The browser blocked the sign-in window. '
            : `${serverLabel} asks you to sign in. `}
          This tab goes to {where}, where you sign in and choose what to allow, then comes back here and
          connects; Toolgate never records the token. A call waiting for this sign-in is not sent again by
          itself: the log shows it as interrupted, and you can run it again.
        </p>
      )}
      {pending.scopes.length > 0 ? (
        <p>
          Asked for:{' '}
          {pending.scopes.map((scope, index) => (
            <span key={scope}>
              {index > 0 ? ', ' : ''}
              <code>{scope}</code>
            </span>
          ))}
        </p>
      ) : (
        <p class="tg-muted">No particular permissions are named; the sign-in page says what is granted.</p>
      )}
      <div class="tg-actions">
        <button type="button" onClick={pending.decline}>
          Not now
        </button>
        <button type="button" class="tg-allow" onClick={pending.accept}>
          {way === 'blocked' ? 'Continue in this tab' : 'Sign in'}
        </button>
      </div>
    </ModalDialog>
  );
}

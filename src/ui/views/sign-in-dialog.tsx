/**
 * "Sign in to <server>?": shown when a server asks for authorization, before the sign-in window
 * opens, so the person knows where they are sent (the authorization server's origin) and what is
 * asked for (the scopes). "Sign in" opens the window inside the click (browsers allow popups only
 * then); "Not now" and Escape decline, and the server shows why it is not connected.
 */

import type { PendingSignIn } from '../../session/controller.js';
import { ModalDialog } from '../components/modal-dialog.js';

function originOf(issuer: string): string {
  try {
    return new URL(issuer).origin;
  } catch {
    return issuer;
  }
}

export function SignInDialog({ pending, serverLabel }: { pending: PendingSignIn; serverLabel: string }) {
  const titleId = `tg-sign-in-title-${pending.id}`;
  return (
    <ModalDialog titleId={titleId} onEscape={pending.decline}>
      <h2 id={titleId}>Sign in to {serverLabel}?</h2>
      <p>
        {serverLabel} asks you to sign in. A window opens at <code>{originOf(pending.issuer)}</code>, where
        you sign in and choose what to allow; Toolgate keeps the token in this page only and never records it.
      </p>
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
          Sign in
        </button>
      </div>
    </ModalDialog>
  );
}

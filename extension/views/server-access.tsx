/**
 * Servers that refuse CORS, in the side panel: the extension's own fix, shown first in the failed
 * server's one card in the Servers view (the Panel's connectionFix). A server that failed
 * because its CORS settings shut the extension out gets "Allow Toolgate to reach <origin>" (Chrome
 * asks the person; the click must reach chrome.permissions.request before anything is awaited),
 * after which every server of that origin is retried. A server whose authorization server refuses
 * CORS while it signs in (sign-in/auth-origins.ts) gets the same offer for that origin, and the
 * sign-in is retried. The Sites tab lists the origins granted so, each with a way back.
 */

import { type ReadonlySignal, signal, useSignal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import type { ServerState } from '../../src/session/index.js';
import type { ConnectionFix, DoctorAccess } from '../../src/ui/index.js';
import type { RemoteController } from '../remote/remote-controller.js';
import { allowServerOrigin, revokeServerOrigin } from '../server-access.js';
import type { RefusedAuthOrigin } from '../sign-in/auth-origins.js';

interface Outcome {
  ok: boolean;
  text: string;
}

function originOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    // A server address that is not a URL has no origin to grant.
    return undefined;
  }
}

/** The origin to offer for a failed server, and whether it is its authorization server's. */
interface Refused {
  origin: string;
  signingIn: boolean;
}

/** What shut this server out that the extension can get past: its own origin, or its sign-in's. */
function refusedOriginOf(
  server: ServerState,
  refusedAuth: readonly RefusedAuthOrigin[],
): Refused | undefined {
  if (server.state !== 'failed') return undefined;
  const own = originOf(server.config.url);
  if (server.errorCause === 'cors' && own) return { origin: own, signingIn: false };
  const auth = refusedAuth.find(({ serverIds }) => serverIds.includes(server.id));
  return auth && { origin: auth.origin, signingIn: true };
}

/** What the person's last "Allow" for an origin came to; kept while its servers reconnect. */
const outcomes = signal<Readonly<Record<string, Outcome>>>({});

async function allow(remote: RemoteController, origin: string, granted: readonly string[]): Promise<Outcome> {
  try {
    if (!(await allowServerOrigin(origin, granted)))
      return { ok: false, text: `Toolgate still cannot reach ${origin}: Chrome’s permission was not given.` };
    // Every server this origin stopped, not only the card's: one grant covers them all.
    const auth = remote.refusedAuthOrigins.value.find((entry) => entry.origin === origin);
    const stopped = remote.servers.value.filter(
      (server) =>
        server.state === 'failed' &&
        (originOf(server.config.url) === origin || auth?.serverIds.includes(server.id)),
    );
    // Not awaited: a retried sign-in waits for the person's "Sign in", and this says what changed now.
    for (const server of stopped) void remote.retry(server.id).catch(() => undefined);
    return {
      ok: true,
      text: `Toolgate may now reach ${origin} without its CORS headers; connecting again. Take it back in the Sites tab.`,
    };
  } catch (error) {
    return { ok: false, text: (error as Error).message };
  }
}

function AllowOrigin({
  remote,
  refused,
  granted,
}: {
  remote: RemoteController;
  refused: Refused;
  granted: readonly string[];
}) {
  const { origin, signingIn } = refused;
  const outcome = outcomes.value[origin];
  const offer = !granted.includes(origin);
  return (
    <>
      {offer &&
        (signingIn ? (
          <p class="tg-wrap">
            Signing in goes through the authorization server at <code>{origin}</code>, which does not let
            browser code read its answers. As an extension, Toolgate can reach it anyway if you allow it:
            Chrome asks you to confirm, Toolgate puts nothing on that site’s pages, and the sign-in starts
            again.
          </p>
        ) : (
          <p class="tg-wrap">
            As an extension, Toolgate can reach <code>{origin}</code> anyway if you allow it: Chrome asks you
            to confirm, and Toolgate puts nothing on that site’s pages.
          </p>
        ))}
      {offer && (
        <button
          type="button"
          class="tg-allow"
          onClick={() =>
            void allow(remote, origin, granted).then((result) => {
              outcomes.value = { ...outcomes.value, [origin]: result };
            })
          }
        >
          Allow Toolgate to reach {origin}
        </button>
      )}
      {outcome && (
        <p class={outcome.ok ? 'tg-ok' : 'tg-error'} role="status">
          {outcome.text}
        </p>
      )}
    </>
  );
}

/**
 * The extension's fix for a failed server, for the Servers view's card (the Panel's
 * connectionFix): the offer to reach its origin, or what the last offer came to.
 */
export function serverAccessFix(
  remote: RemoteController,
  grantedOrigins: ReadonlySignal<readonly string[]>,
): ConnectionFix {
  // Signals read here, inside the card's render, so the card follows them.
  return (server): ComponentChildren | undefined => {
    const granted = grantedOrigins.value;
    const refused = refusedOriginOf(server, remote.refusedAuthOrigins.value);
    if (!refused) return undefined;
    if (granted.includes(refused.origin) && !outcomes.value[refused.origin]) return undefined;
    return <AllowOrigin remote={remote} refused={refused} granted={granted} />;
  };
}

/**
 * The same offer in the doctor's report, for the origin whose CORS shut Toolgate out there: the
 * server's own, or (no server has it) its authorization server's.
 */
export function serverAccessForDoctor(
  remote: RemoteController,
  grantedOrigins: ReadonlySignal<readonly string[]>,
): DoctorAccess {
  return (origin) => {
    const granted = grantedOrigins.value;
    if (granted.includes(origin) && !outcomes.value[origin]) return undefined;
    const signingIn = !remote.servers.value.some((server) => originOf(server.config.url) === origin);
    return <AllowOrigin remote={remote} refused={{ origin, signingIn }} granted={granted} />;
  };
}

/** In the Sites tab: the origins Toolgate may reach as servers, each revocable. */
export function ServerAccessList({ granted }: { granted: readonly string[] }) {
  const problem = useSignal('');
  return (
    <section aria-labelledby="tg-server-access-heading">
      <h3 id="tg-server-access-heading">Servers reached without CORS</h3>
      {granted.length === 0 ? (
        <p class="tg-muted">
          None. When a server’s CORS settings (or its authorization server’s) shut Toolgate out, you can let
          Toolgate reach its origin anyway.
        </p>
      ) : (
        <ul class="tg-server-list" aria-label="Servers reached without CORS">
          {granted.map((origin) => (
            <li key={origin} class="tg-server">
              <strong>{origin}</strong>
              <button
                type="button"
                onClick={() =>
                  void revokeServerOrigin(origin).catch((error: Error) => {
                    problem.value = error.message;
                  })
                }
              >
                Stop reaching {origin}
              </button>
            </li>
          ))}
        </ul>
      )}
      {problem.value && (
        <p class="tg-error" role="alert">
          {problem.value}
        </p>
      )}
    </section>
  );
}

/**
 * Servers that refuse CORS, in the side panel: above the panel, each server that failed because
 * its CORS settings shut the extension out gets "Allow Toolgate to reach <origin>" (Chrome asks
 * the person; the click must reach chrome.permissions.request before anything is awaited), after
 * which the server is retried. An authorization server that refuses CORS while a server signs in
 * (sign-in/auth-origins.ts) gets the same offer for its own origin, and the sign-in is retried.
 * The Sites tab lists the origins granted so, each with a way back.
 */

import { useSignal } from '@preact/signals';
import type { ServerState } from '../../src/session/index.js';
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

/** An origin to offer, the servers it stopped, and whether it is their authorization server. */
interface Refused {
  origin: string;
  servers: ServerState[];
  signingIn: boolean;
}

/** The origins of servers (or of their authorization servers) that refused CORS, not granted yet. */
function refusedOrigins(
  servers: readonly ServerState[],
  refusedAuth: readonly RefusedAuthOrigin[],
  granted: readonly string[],
): Refused[] {
  const byOrigin = new Map<string, Refused>();
  for (const server of servers) {
    const origin = originOf(server.config.url);
    if (server.state !== 'failed' || server.errorCause !== 'cors' || !origin || granted.includes(origin))
      continue;
    const entry = byOrigin.get(origin) ?? { origin, servers: [], signingIn: false };
    byOrigin.set(origin, { ...entry, servers: [...entry.servers, server] });
  }
  for (const { origin, serverIds } of refusedAuth) {
    if (granted.includes(origin) || byOrigin.has(origin)) continue;
    // Only servers still failed: one that connected since (or was removed) needs nothing.
    const stopped = servers.filter((server) => serverIds.includes(server.id) && server.state === 'failed');
    if (stopped.length > 0) byOrigin.set(origin, { origin, servers: stopped, signingIn: true });
  }
  return [...byOrigin.values()];
}

const labels = (servers: readonly ServerState[]) => servers.map((server) => server.label).join(', ');

export interface ServerAccessProps {
  remote: RemoteController;
  /** Origins granted to reach servers (server-access.ts watches the record). */
  granted: readonly string[];
}

/** Above the panel: one "Allow" per origin whose servers refused the extension on CORS. */
export function ServerAccessBar({ remote, granted }: ServerAccessProps) {
  const outcome = useSignal<Outcome | undefined>(undefined);
  const refused = refusedOrigins(remote.servers.value, remote.refusedAuthOrigins.value, granted);
  if (refused.length === 0 && !outcome.value) return null;

  const allow = async (origin: string, servers: ServerState[]): Promise<Outcome> => {
    try {
      if (!(await allowServerOrigin(origin, granted)))
        return {
          ok: false,
          text: `Toolgate still cannot reach ${origin}: Chrome’s permission was not given.`,
        };
      // Not awaited: a retried sign-in waits for the person's "Sign in", and this says what changed now.
      for (const server of servers) void remote.retry(server.id).catch(() => undefined);
      return {
        ok: true,
        text: `Toolgate may now reach ${origin} without its CORS headers. Take it back in the Sites tab.`,
      };
    } catch (error) {
      return { ok: false, text: (error as Error).message };
    }
  };

  return (
    <section class="tg-active-site" aria-label="Servers Toolgate cannot reach">
      {refused.map(({ origin, servers, signingIn }) => (
        <div key={origin} class="tg-warning">
          {signingIn ? (
            <p>
              Signing in to {labels(servers)} goes through the authorization server at <code>{origin}</code>,
              which does not let browser code read its answers (no CORS headers for Toolgate). As an
              extension, Toolgate can reach it anyway if you allow it; Chrome asks you to confirm, Toolgate
              puts nothing on that site’s pages, and the sign-in starts again.
            </p>
          ) : (
            <p>
              {labels(servers)} {servers.length === 1 ? 'does' : 'do'} not let browser code read{' '}
              {servers.length === 1 ? 'its' : 'their'} answers (no CORS headers for Toolgate). As an
              extension, Toolgate can reach <code>{origin}</code> anyway if you allow it; Chrome asks you to
              confirm, and Toolgate puts nothing on that site’s pages.
            </p>
          )}
          <button
            type="button"
            class="tg-allow"
            onClick={() =>
              void allow(origin, servers).then((result) => {
                outcome.value = result;
              })
            }
          >
            Allow Toolgate to reach {origin}
          </button>
        </div>
      ))}
      {outcome.value && (
        <p class={outcome.value.ok ? 'tg-ok' : 'tg-error'} role="status">
          {outcome.value.text}
        </p>
      )}
    </section>
  );
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

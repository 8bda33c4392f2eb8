/**
 * Authorization servers that refuse CORS to the extension. Signing in to a server fetches its
 * authorization server's metadata, registers, and exchanges the code there, all from the service
 * worker; an authorization server that sends no CORS headers for chrome-extension://<id> fails each
 * of those like a server that is down ("Failed to fetch"). Holding a host permission for its origin
 * lifts CORS, exactly as for servers (server-access.ts), so the panel offers the same per-origin
 * grant: "Allow Toolgate to reach <authorization server's origin>", then retries the sign-in.
 *
 * Each server's requests go through `fetchFor`, which only watches: a request to another origin
 * than the server's own that fails without an answer is probed with a no-cors HEAD (an opaque
 * answer proves something runs there, whatever its CORS says); when something answers, that
 * origin is recorded as refusing CORS for this server. The error itself goes on unchanged, so the
 * sign-in fails as before and the server's row says why. The server's own origin is not watched:
 * the controller already tells its CORS refusals apart (errorCause 'cors').
 */

import { type Signal, signal } from '@preact/signals';
import { probeReachable } from '../../src/session/index.js';
import { isSiteOrigin } from '../origins.js';

/** An origin that refused CORS while signing in, and the servers whose sign-in it stopped. */
export interface RefusedAuthOrigin {
  origin: string;
  serverIds: string[];
}

export interface AuthOriginWatch {
  readonly refused: Signal<RefusedAuthOrigin[]>;
  /** The fetch for one server's requests (MCP and OAuth); `serverId` is read when one fails. */
  fetchFor(serverUrl: string, serverId: () => string | undefined): typeof fetch;
  /** The server connected or was removed: its refusals are no longer news. */
  clear(serverId: string): void;
}

const urlOf = (input: RequestInfo | URL): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    // Not a URL: no origin to allow.
    return undefined;
  }
}

/** `base` is read at each request (the worker's fetch by default), so a later wrapper still applies. */
export function createAuthOriginWatch(base: () => typeof fetch = () => globalThis.fetch): AuthOriginWatch {
  const refused = signal<RefusedAuthOrigin[]>([]);
  const record = (origin: string, serverId: string) => {
    const current = refused.value.find((entry) => entry.origin === origin);
    if (current?.serverIds.includes(serverId)) return;
    refused.value = current
      ? refused.value.map((entry) =>
          entry === current ? { origin, serverIds: [...entry.serverIds, serverId] } : entry,
        )
      : [...refused.value, { origin, serverIds: [serverId] }];
  };
  return {
    refused,
    fetchFor(serverUrl, serverId) {
      const own = new URL(serverUrl).origin;
      return async (input, init) => {
        try {
          return await base()(input, init);
        } catch (error) {
          // An abort is the caller's own doing; only "no answer at all" can be CORS.
          if (error instanceof TypeError && !init?.signal?.aborted) {
            const url = urlOf(input);
            const origin = originOf(url);
            const id = serverId();
            if (origin && origin !== own && isSiteOrigin(origin) && id && (await probeReachable(url, base())))
              record(origin, id);
          }
          throw error;
        }
      };
    },
    clear(serverId) {
      if (!refused.value.some((entry) => entry.serverIds.includes(serverId))) return;
      refused.value = refused.value
        .map((entry) => ({ ...entry, serverIds: entry.serverIds.filter((id) => id !== serverId) }))
        .filter((entry) => entry.serverIds.length > 0);
    },
  };
}

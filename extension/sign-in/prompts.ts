/**
 * "Sign in to <server>?" in the extension: the service worker holds the sign-ins that wait for the
 * person, and the side panel shows them (over the panel port, as `signIns`). Only the person's
 * "Sign in" there lets the worker open the authorization server's window; "Not now", a server
 * removed or the sign-in cancelled (sign-out) settle it without opening anything.
 *
 * The worker keeps its own queue instead of the controller's: the controller's prompt is the
 * popup's `confirm`, which connect() only calls for its default popup, and the worker brings its
 * own user-agent step (web-auth-flow.ts), which asks here first.
 */

import { type Signal, signal } from '@preact/signals';
import { type AuthorizationRequest, signInDeclined } from '../../src/auth/index.js';

/** A sign-in waiting for the person, as plain data (it crosses the panel port). */
export interface WireSignIn {
  id: string;
  serverId: string;
  /** The authorization server, as its issuer URL: the panel shows its origin. */
  issuer: string;
  scopes: string[];
}

export interface SignInPrompts {
  readonly pending: Signal<WireSignIn[]>;
  /** Resolves when the person chose "Sign in"; rejects, saying so, when they did not. */
  ask(serverId: string, request: AuthorizationRequest): Promise<void>;
  /** The panel's answer; an id no longer waiting is an error the panel can show. */
  answer(id: string, accept: boolean): void;
  /** Declines whatever waits for one server (it was removed). */
  dropServer(serverId: string): void;
  /** Sign-ins under way after the person's yes (Chrome's window open): the worker stays awake. */
  readonly working: Signal<number>;
  /** Counts `work` in `working` until it settles. */
  track<T>(work: Promise<T>): Promise<T>;
}

/** `labelOf` names the server as the panel does, for the sentence a decline leaves behind. */
export function createSignInPrompts(labelOf: (serverId: string) => string): SignInPrompts {
  const pending = signal<WireSignIn[]>([]);
  const working = signal(0);
  const settlers = new Map<string, { serverId: string; settle: (accept: boolean) => void }>();

  const remove = (id: string) => {
    settlers.delete(id);
    pending.value = pending.value.filter((item) => item.id !== id);
  };

  return {
    pending,
    ask(serverId, request) {
      return new Promise<void>((resolve, reject) => {
        const id = crypto.randomUUID();
        const onAbort = () => {
          remove(id);
          reject(new DOMException('Nobody waits for this sign-in any more.', 'AbortError'));
        };
        if (request.signal.aborted) return onAbort();
        request.signal.addEventListener('abort', onAbort, { once: true });
        settlers.set(id, {
          serverId,
          settle: (accept) => {
            request.signal.removeEventListener('abort', onAbort);
            remove(id);
            if (accept) resolve();
            else
              reject(
                signInDeclined(
                  `You chose not to sign in to ${labelOf(serverId)} now, so it is not connected. Sign in when you want to use it.`,
                ),
              );
          },
        });
        pending.value = [
          ...pending.value,
          { id, serverId, issuer: request.issuer, scopes: [...request.scopes] },
        ];
      });
    },
    answer(id, accept) {
      const waiting = settlers.get(id);
      if (!waiting) throw new Error('That sign-in is no longer waiting (it was answered or cancelled).');
      waiting.settle(accept);
    },
    dropServer(serverId) {
      for (const [, waiting] of [...settlers]) if (waiting.serverId === serverId) waiting.settle(false);
    },
    working,
    track(work) {
      working.value++;
      return work.finally(() => {
        working.value--;
      });
    },
  };
}

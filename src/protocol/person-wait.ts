/**
 * "This request waits for the person now" (a sign-in dialog is open for its server), told from the
 * layer that knows (the OAuth fetch) to the engine that times the request out, across the
 * transport, which knows nothing of either. The key is the AbortSignal the engine hands the
 * transport with each request: the transport passes it on (or forwards it to the signal it
 * derives), and it reaches the fetch as `init.signal`. The engine stops that request's idle timer
 * while the person is asked, and starts it afresh once they are done: a person slower than the
 * timeout is not answered "timed out".
 */

type Listener = (waiting: boolean) => void;

const listeners = new WeakMap<AbortSignal, Listener>();

/** The engine: `listener` hears when the request sent with `signal` starts and stops waiting. */
export function onPersonWait(signal: AbortSignal, listener: Listener): void {
  listeners.set(signal, listener);
}

/** A transport that derives its own signal from the engine's: waits reported on it reach the engine. */
export function forwardPersonWait(from: AbortSignal | undefined, to: AbortSignal): void {
  const listener = from ? listeners.get(from) : undefined;
  if (listener) listeners.set(to, listener);
}

/** The layer that asks the person: the request sent with `signal` waits for them (or no longer). */
export function reportPersonWait(signal: AbortSignal | null | undefined, waiting: boolean): void {
  if (signal) listeners.get(signal)?.(waiting);
}

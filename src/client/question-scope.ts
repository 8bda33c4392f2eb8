/**
 * Ties a server's questions (legacy `elicitation/create` requests) to the calls they can belong to,
 * so that a question nobody waits for any more is withdrawn instead of left in front of the person.
 *
 * A legacy question is a request of its own: the message names no call. (Streamable HTTP may carry
 * it on the call's response stream, but the engine sees messages, not streams, and a JSON-answering
 * server sends it on the standalone stream anyway.) What is certain is that a question can only
 * belong to a call that was running when it arrived. So its signal aborts once every call running
 * then has ended: never while its own call still runs, and soon after it ends. A question that
 * arrives while no call runs belongs to none; the server's `notifications/cancelled` for it, or the
 * connection closing, withdraws any question.
 */

import type { RequestId } from '../protocol/index.js';

/** Why a question was withdrawn (the abort reason of its signal). */
export const WITHDRAWN = {
  callEnded: 'the call that asked it has ended',
  serverCancelled: 'the server withdrew the question',
  closed: 'the connection to the server closed',
} as const;

export class QuestionScopes {
  /** Settles when the call ends, however it ends. */
  private readonly calls = new Set<Promise<void>>();
  private readonly questions = new Map<RequestId, AbortController>();

  /** Runs a call and counts it as running until it settles. */
  async track<T>(call: Promise<T>): Promise<T> {
    const ended = call.then(
      () => undefined,
      () => undefined,
    );
    this.calls.add(ended);
    try {
      return await call;
    } finally {
      this.calls.delete(ended);
    }
  }

  /** Opens the scope of a question that arrived under `id`; call `close` once it is answered. */
  open(id: RequestId): { signal: AbortSignal; close: () => void } {
    const controller = new AbortController();
    this.questions.get(id)?.abort(WITHDRAWN.serverCancelled);
    this.questions.set(id, controller);
    const running = [...this.calls];
    if (running.length > 0) void Promise.all(running).then(() => controller.abort(WITHDRAWN.callEnded));
    return {
      signal: controller.signal,
      close: () => {
        if (this.questions.get(id) === controller) this.questions.delete(id);
      },
    };
  }

  /** The server cancelled its request `id` (notifications/cancelled). */
  cancel(id: unknown): void {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    this.questions.get(id)?.abort(WITHDRAWN.serverCancelled);
  }

  /** The connection is gone: no question can be answered. */
  closeAll(): void {
    for (const controller of this.questions.values()) controller.abort(WITHDRAWN.closed);
    this.questions.clear();
  }
}

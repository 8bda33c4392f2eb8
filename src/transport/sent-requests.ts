/**
 * The requests a transport sent and has not seen answered, with their methods. Transports that share
 * one channel for every answer (a 2024-11-05 event stream, a MessagePort) use it to tell which calls
 * an unusable answer or a lost channel leaves without theirs, and to name the method in the error.
 */

import { isJsonObject, isRequest, type JsonRpcMessage, type RequestId } from '../protocol/index.js';

/** More than any engine keeps in flight; past it the oldest are forgotten (their callers timed out long ago). */
const MAX_REMEMBERED = 10_000;

export class SentRequests {
  private readonly methods = new Map<RequestId, string>();

  /** Remembers `message` if it is a request. */
  note(message: JsonRpcMessage): void {
    if (!isRequest(message)) return;
    this.methods.set(message.id, message.method);
    if (this.methods.size > MAX_REMEMBERED) {
      const oldest = this.methods.keys().next();
      if (!oldest.done) this.methods.delete(oldest.value);
    }
  }

  /** Forgets the request that `message` answers, if it is a response. */
  answered(message: unknown): void {
    if (!isJsonObject(message) || !('result' in message || 'error' in message)) return;
    const { id } = message;
    if (typeof id === 'string' || typeof id === 'number') this.methods.delete(id);
  }

  /** Forgets one request (its send failed, or its caller gave up). */
  forget(id: RequestId): void {
    this.methods.delete(id);
  }

  /** The method of an unanswered request, or undefined. */
  methodOf(id: RequestId): string | undefined {
    return this.methods.get(id);
  }

  /** The id an inbound response names, when it is one of ours still unanswered. */
  awaitedId(message: unknown): RequestId | undefined {
    if (!isJsonObject(message)) return undefined;
    const { id } = message;
    return (typeof id === 'string' || typeof id === 'number') && this.methods.has(id) ? id : undefined;
  }

  /** Every unanswered request, forgotten at once (the channel is gone). */
  drain(): Array<[RequestId, string]> {
    const all = [...this.methods];
    this.methods.clear();
    return all;
  }
}

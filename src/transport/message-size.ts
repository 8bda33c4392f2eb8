/**
 * The size of a message that arrived as a structured clone (postMessage, MessagePort) or as parsed
 * JSON (Chrome ports). The browser has already copied it into memory; what the cap protects is
 * everything after: validation, the audit log, rendering. Measuring must not cost more than the cap
 * itself, so the walk stops as soon as the total passes it, uses no recursion (a message may nest
 * 100,000 levels deep) and visits each object once (structured clones may hold cycles).
 */

import { isJsonObject, type JsonRpcMessage, type RequestId, TransportError } from '../protocol/index.js';
import { DEFAULT_LIMITS } from './limits.js';
import { SentRequests } from './sent-requests.js';
import { describeBytes, ResponseTooLargeError } from './too-large.js';

/** Bytes counted for a number, a boolean, null or undefined: about what JSON spends on one. */
const SCALAR_BYTES = 8;
/** Bytes counted per object or array, and per property name beyond its characters. */
const CONTAINER_BYTES = 2;

/**
 * Estimates the bytes `value` would take as JSON: characters of strings and property names, a few
 * bytes per scalar and container, the byte length of binary data. Stops counting once the estimate
 * passes `limit` and returns what it had then (so a result above `limit` means "too large").
 */
export function estimateMessageBytes(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0 && total <= limit) {
    const item = stack.pop();
    if (typeof item === 'string') {
      total += item.length;
      continue;
    }
    if (typeof item !== 'object' || item === null) {
      total += SCALAR_BYTES;
      continue;
    }
    if (seen.has(item)) continue;
    seen.add(item);
    total += CONTAINER_BYTES;
    if (item instanceof ArrayBuffer) total += item.byteLength;
    else if (ArrayBuffer.isView(item)) total += item.byteLength;
    else if (typeof Blob !== 'undefined' && item instanceof Blob) total += item.size;
    else if (item instanceof Map || item instanceof Set || Array.isArray(item))
      total = pushEach(item instanceof Map ? item.entries() : item.values(), stack, total, limit);
    else
      for (const key of Object.keys(item)) {
        total += key.length + CONTAINER_BYTES;
        stack.push((item as Record<string, unknown>)[key]);
        // A million empty keys must stop here too, not after pushing them all.
        if (total > limit) break;
      }
  }
  return total;
}

/** Queues the entries of a collection, a separator's byte each, stopping once past the limit. */
function pushEach(entries: Iterable<unknown>, stack: unknown[], total: number, limit: number): number {
  let counted = total;
  for (const entry of entries) {
    counted += 1;
    stack.push(entry);
    if (counted > limit) break;
  }
  return counted;
}

/** Where an oversized message is reported: the call it answers fails; anything else is an error. */
interface OversizeReport {
  failed?: ((id: RequestId, error: Error) => void) | undefined;
  error?: ((error: Error) => void) | undefined;
}

/**
 * The per-message cap of a message channel (MessagePort, Chrome port): remembers the requests sent,
 * so that an answer over the cap fails its own call as too large, naming the method.
 */
export class MessageSizeCap {
  private readonly sent = new SentRequests();

  constructor(
    private readonly label: string,
    private readonly peer: string,
    /** Most estimated bytes one inbound message may take. */
    public maxBytes: number = DEFAULT_LIMITS.maxMessageBytes,
  ) {}

  /** Notes an outgoing message (requests are remembered until answered). */
  sending(message: JsonRpcMessage): void {
    this.sent.note(message);
  }

  /** True when `message` may be delivered; false when it was over the cap and has been reported instead. */
  admit(message: unknown, report: OversizeReport): boolean {
    const bytes = estimateMessageBytes(message, this.maxBytes);
    if (bytes <= this.maxBytes) {
      this.sent.answered(message);
      return true;
    }
    const id =
      isJsonObject(message) && ('result' in message || 'error' in message)
        ? this.sent.awaitedId(message)
        : undefined;
    const method = id === undefined ? undefined : this.sent.methodOf(id);
    if (id !== undefined && method !== undefined && report.failed) {
      this.sent.forget(id);
      report.failed(id, new ResponseTooLargeError(this.label, method, 'message', bytes, this.maxBytes, true));
      return false;
    }
    report.error?.(
      new TransportError(
        this.peer,
        'not-mcp',
        `dropped a message from ${this.label}: it is over ${describeBytes(bytes)}, more than the limit of ` +
          `${describeBytes(this.maxBytes)} per message (raise limits.maxMessageBytes for this server if such messages are expected)`,
      ),
    );
    return false;
  }
}

/**
 * A test double for the Transport seam: an in-memory peer whose answers a test scripts exactly.
 * Unit tests use it where they need control no real server gives (malformed messages, races,
 * silence); real servers are exercised in test/integration and e2e/.
 */
import type { JsonRpcMessage, JsonRpcRequest } from '../../src/protocol/jsonrpc.js';
import type { SendOptions, Transport } from '../../src/transport/transport.js';

export type Responder = (request: JsonRpcRequest, peer: ScriptedTransport) => void | Promise<void>;

export class ScriptedTransport implements Transport {
  readonly label = 'scripted peer';
  readonly sent: { message: JsonRpcMessage; options?: SendOptions }[] = [];
  protocolVersion: string | undefined;
  onmessage?: (message: unknown) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  onresponselost?: (id: string | number, error: Error) => void;
  closed = false;

  constructor(private readonly responder: Responder = () => undefined) {}

  async start(): Promise<void> {}

  async send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    this.sent.push({ message, ...(options ? { options } : {}) });
    if ('method' in message && 'id' in message) await this.responder(message, this);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.onclose?.();
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /** Delivers a message from the "server" on the next turn, like a real network would. */
  deliver(message: unknown): void {
    queueMicrotask(() => this.onmessage?.(message));
  }

  reply(request: JsonRpcRequest, result: Record<string, unknown>): void {
    this.deliver({ jsonrpc: '2.0', id: request.id, result });
  }

  fail(request: JsonRpcRequest, code: number, message: string, data?: unknown): void {
    this.deliver({
      jsonrpc: '2.0',
      id: request.id,
      error: { code, message, ...(data === undefined ? {} : { data }) },
    });
  }

  /** Messages sent with a given method. */
  sentWith(method: string): JsonRpcMessage[] {
    return this.sent.map((s) => s.message).filter((m) => 'method' in m && m.method === method);
  }
}

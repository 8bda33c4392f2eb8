/**
 * A Transport over one MessagePort: what both sides of the postMessage handshake speak afterwards,
 * and what a caller uses directly for a port it already holds (a worker, a channel it set up).
 * Messages are structured-cloned objects; they reach `onmessage` unvalidated (the engine checks them).
 */

import { type JsonRpcMessage, type RequestId, TransportError } from '../protocol/index.js';
import { type ConnectionLimits, resolveLimits } from './limits.js';
import { MessageSizeCap } from './message-size.js';
import { type GoodbyeMessage, isGoodbyeMessage } from './post-message-protocol.js';
import type { Transport } from './transport.js';

/** Why a port transport ended: our own close(), the peer's goodbye, the port closing, the peer window closing, or our page hiding. */
export type PortCloseReason = 'local' | 'goodbye' | 'port-closed' | 'peer-window-closed' | 'pagehide';

/**
 * Holds inbound messages until someone listens. A server hands its transport to application code
 * that may wire an engine a few ticks later; messages in between must wait, not vanish.
 */
export class MessageInbox {
  private handler: ((message: unknown) => void) | undefined;
  private waiting: unknown[] = [];

  constructor(private readonly report: (error: Error) => void) {}

  /** The current listener. */
  get listener(): ((message: unknown) => void) | undefined {
    return this.handler;
  }

  /** Sets the listener; held messages follow in a microtask, so a constructor wiring it finishes first. */
  set listener(handler: ((message: unknown) => void) | undefined) {
    this.handler = handler;
    if (handler && this.waiting.length > 0) queueMicrotask(() => this.flush());
  }

  /** Hands one message to the listener, or holds it. */
  deliver(message: unknown): void {
    if (!this.handler || this.waiting.length > 0) {
      this.waiting.push(message);
      return;
    }
    this.call(this.handler, message);
  }

  /** Forgets held messages (the channel is gone). */
  clear(): void {
    this.waiting = [];
  }

  private flush(): void {
    while (this.handler && this.waiting.length > 0) this.call(this.handler, this.waiting.shift());
  }

  private call(handler: (message: unknown) => void, message: unknown): void {
    try {
      handler(message);
    } catch (error) {
      // A throwing listener must not kill the port's event handler or vanish silently.
      this.report(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** Options for MessagePortTransport. */
export interface MessagePortTransportOptions {
  /** Names the peer in error messages, e.g. "postMessage peer https://tools.example (iframe)". */
  label?: string;
  /** The peer's origin (or another address) for `TransportError.url`. */
  peer?: string;
  /** Called once when the transport ends, before `onclose` (owners use it for bookkeeping). */
  onended?: (reason: PortCloseReason) => void;
  /** Most (estimated) bytes one inbound message may take; larger ones are never delivered. Default 16 MB. */
  maxMessageBytes?: number;
}

/** A Transport over a MessagePort. Call start() to begin receiving; close() says goodbye and closes the port. */
export class MessagePortTransport implements Transport {
  readonly label: string;
  /** Why the transport ended; undefined while open. */
  closeReason: PortCloseReason | undefined;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  onresponsefailed?: (id: RequestId, error: Error) => void;

  private readonly peer: string;
  private readonly inbox = new MessageInbox((error) => this.onerror?.(error));
  private readonly sizeCap: MessageSizeCap;
  private started = false;

  constructor(
    private readonly port: MessagePort,
    private readonly options: MessagePortTransportOptions = {},
  ) {
    this.label = options.label ?? 'MessagePort peer';
    this.peer = options.peer ?? 'message-port';
    this.sizeCap = new MessageSizeCap(this.label, this.peer, options.maxMessageBytes);
  }

  /** Applies connect()'s `limits` (this transport uses maxMessageBytes). */
  applyLimits(limits: ConnectionLimits): void {
    this.sizeCap.maxBytes = resolveLimits(limits).maxMessageBytes;
  }

  /** Every inbound message; messages that arrive before this is set are held for it. */
  get onmessage(): ((message: unknown) => void) | undefined {
    return this.inbox.listener;
  }

  set onmessage(handler: ((message: unknown) => void) | undefined) {
    this.inbox.listener = handler;
  }

  /** True once the transport has ended. */
  get closed(): boolean {
    return this.closeReason !== undefined;
  }

  /**
   * Starts receiving. Listeners attach synchronously, so a caller that switches a port from its own
   * handshake listener to this transport within one event loses no message.
   */
  start(): Promise<void> {
    if (this.closed) return Promise.reject(this.closedError());
    if (!this.started) {
      this.started = true;
      this.port.addEventListener('message', this.receive);
      this.port.addEventListener('messageerror', this.receiveUnreadable);
      // 'close' fires when the peer's port goes away (its document destroyed, or closed) in browsers
      // that have it; Chromium 156 only behind the MessagePortCloseEvent feature, hence the goodbye
      // message and the owners' `closed` polling. Node has it.
      this.port.addEventListener('close', this.peerClosed);
      this.port.start();
    }
    return Promise.resolve();
  }

  /** Posts one message on the port (structured clone). */
  send(message: JsonRpcMessage): Promise<void> {
    if (this.closed) return Promise.reject(this.closedError());
    try {
      this.port.postMessage(message);
      this.sizeCap.sending(message);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return Promise.reject(
        new TransportError(
          this.peer,
          'not-mcp',
          `could not send a message to ${this.label}: it cannot be structured-cloned (${detail}); send plain JSON data only`,
        ),
      );
    }
    return Promise.resolve();
  }

  /** Says goodbye to the peer, closes the port and fires onclose. */
  close(): Promise<void> {
    this.end('local');
    return Promise.resolve();
  }

  /**
   * Ends the transport for `reason`. Owners call it when they learn another way that the peer is
   * gone (a popup's `closed`, our page hiding). The peer is told goodbye unless it left first.
   */
  end(reason: PortCloseReason): void {
    if (this.closed) return;
    this.closeReason = reason;
    this.port.removeEventListener('message', this.receive);
    this.port.removeEventListener('messageerror', this.receiveUnreadable);
    this.port.removeEventListener('close', this.peerClosed);
    if (reason === 'local' || reason === 'pagehide' || reason === 'peer-window-closed') {
      const goodbye: GoodbyeMessage = { toolgate: 'mcp-goodbye' };
      try {
        this.port.postMessage(goodbye);
      } catch {
        // Best effort: the peer may already be unreachable, which is what we are reporting anyway.
      }
    }
    this.port.close();
    this.inbox.clear();
    this.options.onended?.(reason);
    this.onclose?.();
  }

  private readonly receive = (event: MessageEvent): void => {
    // The port is a capability only the peer holds, so its traffic needs no origin check here.
    if (isGoodbyeMessage(event.data)) {
      this.end('goodbye');
      return;
    }
    // Over the cap: its call fails as too large (or it is reported), and nothing of it goes further.
    const admitted = this.sizeCap.admit(event.data, {
      failed: this.onresponsefailed,
      error: (error) => this.onerror?.(error),
    });
    if (admitted) this.inbox.deliver(event.data);
  };

  private readonly receiveUnreadable = (): void => {
    this.onerror?.(
      new TransportError(
        this.peer,
        'not-mcp',
        `a message from ${this.label} could not be deserialized and was dropped`,
      ),
    );
  };

  private readonly peerClosed = (): void => {
    this.end('port-closed');
  };

  private closedError(): TransportError {
    return new TransportError(
      this.peer,
      'unreachable',
      `the channel to ${this.label} is closed (${this.closeReason}); connect again`,
    );
  }
}

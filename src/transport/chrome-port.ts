/**
 * A Transport over a Chrome runtime Port (chrome.runtime.connect / onConnect), for the extension:
 * content script, side panel and service worker. The port is typed structurally here so the library
 * needs no @types/chrome. Chrome serializes port messages as JSON (not structured clone), which
 * JSON-RPC survives unchanged.
 */

import { type JsonRpcMessage, type RequestId, TransportError } from '../protocol/index.js';
import { type ConnectionLimits, resolveLimits } from './limits.js';
import { MessageInbox } from './message-port.js';
import { MessageSizeCap } from './message-size.js';
import type { Transport } from './transport.js';

/** The slice of a Chrome event object the adapter uses. */
export interface ChromeEvent<Listener> {
  addListener(listener: Listener): void;
  removeListener(listener: Listener): void;
}

/** The slice of `chrome.runtime.Port` the adapter uses. */
export interface ChromeRuntimePort {
  readonly name: string;
  postMessage(message: unknown): void;
  disconnect(): void;
  readonly onMessage: ChromeEvent<(message: unknown, port: ChromeRuntimePort) => void>;
  readonly onDisconnect: ChromeEvent<(port: ChromeRuntimePort) => void>;
}

/** Options for ChromePortTransport. */
export interface ChromePortTransportOptions {
  /** Names the peer in error messages. Default: `Chrome runtime port "<name>"`. */
  label?: string;
  /** Reads `chrome.runtime.lastError` (default: the global one). Reading it also keeps Chrome from logging it as unchecked. */
  lastError?: () => string | undefined;
  /** Most (estimated) bytes one inbound message may take; larger ones are never delivered. Default 16 MB. */
  maxMessageBytes?: number;
}

/** Why a Chrome port transport ended: our own close(), or the other end disconnecting. */
export type ChromePortCloseReason = 'local' | 'disconnected';

/** A Transport over a Chrome runtime Port. */
export class ChromePortTransport implements Transport {
  readonly label: string;
  /** Why the transport ended; undefined while open. */
  closeReason: ChromePortCloseReason | undefined;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  onresponsefailed?: (id: RequestId, error: Error) => void;

  private readonly inbox = new MessageInbox((error) => this.onerror?.(error));
  private readonly address: string;
  private readonly sizeCap: MessageSizeCap;

  constructor(
    private readonly port: ChromeRuntimePort,
    private readonly options: ChromePortTransportOptions = {},
  ) {
    this.label = options.label ?? `Chrome runtime port "${port.name}"`;
    this.address = `chrome-runtime-port:${port.name}`;
    this.sizeCap = new MessageSizeCap(this.label, this.address, options.maxMessageBytes);
    // Chrome drops port messages nobody listens to, so listen from the start and hold them until
    // onmessage is set, unlike a MessagePort, which queues until started.
    port.onMessage.addListener(this.receive);
    port.onDisconnect.addListener(this.disconnected);
  }

  /** Every inbound message, unvalidated; messages that arrive before this is set are held for it. */
  get onmessage(): ((message: unknown) => void) | undefined {
    return this.inbox.listener;
  }

  set onmessage(handler: ((message: unknown) => void) | undefined) {
    this.inbox.listener = handler;
  }

  /** Applies connect()'s `limits` (this transport uses maxMessageBytes). */
  applyLimits(limits: ConnectionLimits): void {
    this.sizeCap.maxBytes = resolveLimits(limits).maxMessageBytes;
  }

  /** Nothing to open: a Chrome port is connected when it exists. Rejects once it has ended. */
  start(): Promise<void> {
    return this.closeReason ? Promise.reject(this.closedError()) : Promise.resolve();
  }

  /** Posts one message on the port. */
  send(message: JsonRpcMessage): Promise<void> {
    if (this.closeReason) return Promise.reject(this.closedError());
    try {
      this.port.postMessage(message);
      this.sizeCap.sending(message);
    } catch (error) {
      // Chrome throws "Attempting to use a disconnected port object" when the other end is gone.
      const detail = error instanceof Error ? error.message : String(error);
      return Promise.reject(
        new TransportError(this.address, 'unreachable', `could not send to ${this.label}: ${detail}`),
      );
    }
    return Promise.resolve();
  }

  /** Disconnects the port and fires onclose (Chrome tells only the other end). */
  close(): Promise<void> {
    if (!this.closeReason) {
      this.detach('local');
      this.port.disconnect();
      this.onclose?.();
    }
    return Promise.resolve();
  }

  private readonly receive = (message: unknown): void => {
    // Over the cap: its call fails as too large (or it is reported), and nothing of it goes further.
    const admitted = this.sizeCap.admit(message, {
      failed: this.onresponsefailed,
      error: (error) => this.onerror?.(error),
    });
    if (admitted) this.inbox.deliver(message);
  };

  private readonly disconnected = (): void => {
    if (this.closeReason) return;
    const lastError = (this.options.lastError ?? globalLastError)();
    this.detach('disconnected');
    if (lastError)
      this.onerror?.(
        new TransportError(this.address, 'unreachable', `${this.label} disconnected: ${lastError}`),
      );
    this.onclose?.();
  };

  private detach(reason: ChromePortCloseReason): void {
    this.closeReason = reason;
    this.port.onMessage.removeListener(this.receive);
    this.port.onDisconnect.removeListener(this.disconnected);
    this.inbox.clear();
  }

  private closedError(): TransportError {
    return new TransportError(
      this.address,
      'unreachable',
      `the channel to ${this.label} is closed (${this.closeReason}); connect again`,
    );
  }
}

function globalLastError(): string | undefined {
  const chrome = (globalThis as { chrome?: { runtime?: { lastError?: { message?: string } } } }).chrome;
  return chrome?.runtime?.lastError?.message;
}

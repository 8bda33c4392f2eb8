/**
 * A server that lives in a page of its own, reached over postMessage: Toolgate loads the page in a
 * hidden iframe and connects to it. A page of our own origin gets a sandbox without
 * `allow-same-origin`, so it runs at an opaque origin and cannot touch this page's storage or DOM;
 * a page of another origin keeps that origin (it cannot reach ours anyway) and is spoken to at
 * exactly that origin. Only https: pages, and http: on loopback, are loaded.
 */

import { TransportError } from '../protocol/index.js';
import { PostMessageClientTransport } from './post-message.js';
import type { Transport } from './transport.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface FramePeer {
  transport: Transport;
  /** Closes the connection and removes the iframe. */
  dispose(): void;
}

/** Resolves `url` against the page and checks its scheme; throws a TransportError naming it. */
export function frameUrlOf(url: string, base = location.href): URL {
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    // Say which address is wrong instead of the parser's message.
    throw new TransportError(url, 'bad-endpoint', `"${url}" is not a page address`);
  }
  const loopback = parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname);
  if (parsed.protocol !== 'https:' && !loopback)
    throw new TransportError(
      parsed.href,
      'bad-endpoint',
      `${parsed.href}: a server page must be https: (or http: on localhost)`,
    );
  return parsed;
}

export function openFramePeer(url: string, options: { channel?: string; parent?: Element } = {}): FramePeer {
  const address = frameUrlOf(url);
  const sameOrigin = address.origin === location.origin;
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', sameOrigin ? 'allow-scripts' : 'allow-scripts allow-same-origin');
  frame.title = `MCP server page ${address.href}`;
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.referrerPolicy = 'no-referrer';
  frame.style.cssText = 'position:absolute;width:0;height:0;border:0;visibility:hidden';
  frame.src = address.href;
  (options.parent ?? document.body).append(frame);
  const channel = options.channel ? { channel: options.channel } : {};
  const transport = sameOrigin
    ? new PostMessageClientTransport({ opaqueFrame: frame, kind: 'iframe', ...channel })
    : new PostMessageClientTransport({ frame, targetOrigin: address.origin, kind: 'iframe', ...channel });
  return {
    transport,
    dispose() {
      void transport.close();
      frame.remove();
    },
  };
}

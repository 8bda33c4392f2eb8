/**
 * The sandbox proxy's frame and Toolgate's postMessage transport to it. With a configured sandbox
 * URL, the proxy runs on that other origin (sandboxed with allow-scripts and allow-same-origin, as
 * the specification asks) and is spoken to at that exact origin; without one, Toolgate's own proxy
 * page runs in a frame sandboxed to an opaque origin, which the transport reaches only through the
 * port it hands over in the handshake (from a packaged page at `opaqueSandboxUrl` when one is
 * configured, e.g. the extension's manifest sandbox page). Either way the app inside is at an opaque
 * origin of its own.
 */

import { PostMessageClientTransport } from '../transport/index.js';
import { allowAttribute } from './csp.js';
import type { AppPermission } from './spec.js';

/** Tokens of the proxy frame; the View's frame gets at most these (a nested sandbox cannot widen). */
const PROXY_SANDBOX_OWN_ORIGIN = 'allow-scripts allow-same-origin allow-forms';
const PROXY_SANDBOX_OPAQUE = 'allow-scripts allow-forms';
/** Tokens of the View's frame (the proxy never adds allow-same-origin or navigation of the page). */
export const VIEW_SANDBOX = 'allow-scripts allow-forms';

interface SandboxFrame {
  frame: HTMLIFrameElement;
  /** Resolves when the proxy page has loaded (its script is listening). */
  loaded: Promise<void>;
  transport: PostMessageClientTransport;
  /** 'opaque' or the sandbox origin, for the person. */
  origin: string;
}

/**
 * Makes the proxy frame, not yet attached: attach it, wait for `loaded`, then start the transport
 * (a handshake posted to a page still loading is lost and retried only after a delay).
 */
export async function createSandboxFrame(options: {
  /** The proxy page on an origin of its own (McpAppsOptions.sandboxUrl). */
  sandboxUrl?: string;
  /** A packaged proxy page served at an opaque origin (McpAppsOptions.opaqueSandboxUrl). */
  opaqueSandboxUrl?: string;
  title: string;
  permissions: readonly AppPermission[];
}): Promise<SandboxFrame> {
  const frame = document.createElement('iframe');
  const loaded = new Promise<void>((resolve) =>
    frame.addEventListener('load', () => resolve(), { once: true }),
  );
  frame.title = options.title;
  frame.referrerPolicy = 'no-referrer';
  // The proxy must be allowed what the View is granted: a feature reaches a nested frame only through
  // every frame above it.
  const allow = allowAttribute(options.permissions);
  if (allow) frame.allow = allow;
  if (options.sandboxUrl) {
    const url = new URL(options.sandboxUrl, location.href);
    frame.setAttribute('sandbox', PROXY_SANDBOX_OWN_ORIGIN);
    frame.src = url.href;
    return {
      frame,
      loaded,
      origin: url.origin,
      transport: new PostMessageClientTransport({ frame, targetOrigin: url.origin, kind: 'MCP App sandbox' }),
    };
  }
  frame.setAttribute('sandbox', PROXY_SANDBOX_OPAQUE);
  const opaqueUrl = options.opaqueSandboxUrl;
  // A packaged proxy page (the extension's manifest sandbox page): its own CSP lets its script run
  // where a srcdoc frame would inherit this page's script-src 'self'. The sandbox attribute keeps it
  // opaque all the same, so it is reached only through the handshake's port.
  if (opaqueUrl) frame.src = new URL(opaqueUrl, location.href).href;
  // The page's text only when it is needed here: hosts with a sandbox origin never download it.
  else frame.srcdoc = (await import('../../public/mcp-app-sandbox.html?raw')).default;
  return {
    frame,
    loaded,
    origin: 'opaque',
    transport: new PostMessageClientTransport({ opaqueFrame: frame, kind: 'MCP App sandbox' }),
  };
}

/**
 * How a controller hosts MCP Apps. Apps render inside a sandbox proxy page: by default Toolgate's own
 * proxy in a frame sandboxed to an opaque origin (works on any host, no setup), or the proxy page
 * (`mcp-app-sandbox.html`, shipped in the static site) served from an origin of its own, which the
 * specification asks web hosts to use and which a page with a strict CSP needs.
 */

export interface McpAppsOptions {
  /**
   * The sandbox proxy page (Toolgate's `mcp-app-sandbox.html`) on an origin other than this page's,
   * e.g. `https://apps-sandbox.example/mcp-app-sandbox.html`. Default: the built-in proxy in an
   * opaque-origin frame.
   */
  sandboxUrl?: string;
  /**
   * The proxy page at a URL the browser serves with an opaque origin, framed with a sandbox that
   * lacks allow-same-origin (so it is opaque whoever serves it) and spoken to through the port
   * handed over in the handshake: a Chrome extension's manifest `sandbox` page, where the
   * extension's own pages forbid the inline script of the built-in proxy. Ignored with `sandboxUrl`.
   */
  opaqueSandboxUrl?: string;
  /** Most height (px) an app may grow to from its size reports. Default 800. */
  maxHeight?: number;
}

/** The options, checked: a sandbox must be on another origin, and only our own packaged page is opaque. */
export function checkAppsOptions(options: McpAppsOptions): McpAppsOptions {
  const base = typeof location === 'undefined' ? undefined : location.href;
  if (options.sandboxUrl !== undefined) {
    const url = new URL(options.sandboxUrl, base);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new TypeError(`sandboxUrl must be an http(s) URL, not ${url.protocol}`);
    if (typeof location !== 'undefined' && url.origin === location.origin)
      throw new TypeError(
        `sandboxUrl ${url.href} has this page's origin; the sandbox must be on another origin (or leave sandboxUrl out for an opaque one)`,
      );
  }
  if (options.opaqueSandboxUrl !== undefined) {
    const url = new URL(options.opaqueSandboxUrl, base);
    // Our own packaged page only: an extension's page, or an http(s) one the host serves.
    if (!['https:', 'http:', 'chrome-extension:'].includes(url.protocol))
      throw new TypeError(`opaqueSandboxUrl must be an http(s) or chrome-extension URL, not ${url.protocol}`);
  }
  return { ...options };
}

/**
 * Page-wide settings of the MCP App host. Apps render inside a sandbox proxy page: by default
 * Toolgate's own proxy in a frame sandboxed to an opaque origin (works on any host, no setup), or
 * the proxy page (`mcp-app-sandbox.html`, shipped in the static site) served from an origin of its
 * own, which the specification asks web hosts to use and which a page with a strict CSP needs.
 */

export interface McpAppsOptions {
  /**
   * The sandbox proxy page (Toolgate's `mcp-app-sandbox.html`) on an origin other than this page's,
   * e.g. `https://apps-sandbox.example/mcp-app-sandbox.html`. Default: the built-in proxy in an
   * opaque-origin frame.
   */
  sandboxUrl?: string;
  /** Most height (px) an app may grow to from its size reports. Default 800. */
  maxHeight?: number;
}

let current: McpAppsOptions = {};

/** Sets how MCP Apps are hosted on this page (call before an app is shown). */
export function configureMcpApps(options: McpAppsOptions): void {
  if (options.sandboxUrl !== undefined) {
    const url = new URL(options.sandboxUrl, typeof location === 'undefined' ? undefined : location.href);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new TypeError(`sandboxUrl must be an http(s) URL, not ${url.protocol}`);
    if (typeof location !== 'undefined' && url.origin === location.origin)
      throw new TypeError(
        `sandboxUrl ${url.href} has this page's origin; the sandbox must be on another origin (or leave sandboxUrl out for an opaque one)`,
      );
  }
  current = { ...options };
}

/** The settings in force. */
export function mcpAppsOptions(): Readonly<McpAppsOptions> {
  return current;
}

/**
 * The Content Security Policy an app runs under, built from its resource's `_meta.ui.csp` and never
 * looser than declared: with no declaration, exactly the specification's restrictive default; with
 * one, only the declared origins are added, each checked to be an origin (a server's string must not
 * smuggle in a directive, a keyword or a wildcard). The policy travels as the first element of the
 * app's document, before anything of the app's, so no script of the app runs without it.
 */

import type { AppPermission, UiResourceCsp } from './spec.js';

/** The declared domains that survived the checks, and what was dropped (shown to the person). */
export interface CheckedCsp {
  csp: Required<UiResourceCsp>;
  /** "connectDomains: 'unsafe-eval' (not an origin)": declarations Toolgate ignored. */
  ignored: string[];
  /** True when the resource declared no `csp` at all: the restrictive default applies. */
  declared: boolean;
}

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

/**
 * One origin as a CSP source expression: http(s) or ws(s), a host (optionally `*.` for subdomains,
 * as the specification allows), an optional port. Nothing else: no path, quotes, spaces or semicolons.
 */
const ORIGIN_SOURCE = /^(https?|wss?):\/\/(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+(:(\d{1,5}|\*))?$/i;
const IPV6_SOURCE = /^(https?|wss?):\/\/\[[0-9a-f:.]+\](:\d{1,5})?$/i;

/** Keeps the declared origins Toolgate can express safely; lists what it dropped and why. */
export function checkCsp(declared: unknown): CheckedCsp {
  const csp: Required<UiResourceCsp> = {
    connectDomains: [],
    resourceDomains: [],
    frameDomains: [],
    baseUriDomains: [],
  };
  const ignored: string[] = [];
  const present = typeof declared === 'object' && declared !== null && !Array.isArray(declared);
  if (!present) {
    if (declared !== undefined) ignored.push(`csp: not an object (${typeof declared})`);
    return { csp, ignored, declared: false };
  }
  for (const key of CSP_KEYS) {
    const value = (declared as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      ignored.push(`${key}: not a list`);
      continue;
    }
    for (const entry of value) {
      const origin = typeof entry === 'string' ? entry.trim().replace(/\/$/, '') : undefined;
      if (origin !== undefined && (ORIGIN_SOURCE.test(origin) || IPV6_SOURCE.test(origin))) {
        if (!csp[key].includes(origin)) csp[key].push(origin);
      } else ignored.push(`${key}: ${JSON.stringify(entry).slice(0, 80)} (not an origin)`);
    }
  }
  return { csp, ignored, declared: true };
}

/** The specification's restrictive default, used when a resource declares no `csp`. */
export const RESTRICTIVE_DEFAULT_CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "media-src 'self' data:",
  "connect-src 'none'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

/**
 * The policy for one app. The directives beyond the specification's (`form-action 'none'`, no
 * `'self'` in connect-src) only restrict: apps talk to their host over postMessage, not by forms.
 */
export function buildCsp(checked: CheckedCsp): string {
  if (!checked.declared) return RESTRICTIVE_DEFAULT_CSP;
  const { connectDomains, resourceDomains, frameDomains, baseUriDomains } = checked.csp;
  const list = (base: string, extra: readonly string[]) => [base, ...extra].join(' ').trim();
  return [
    "default-src 'none'",
    list("script-src 'self' 'unsafe-inline'", resourceDomains),
    list("style-src 'self' 'unsafe-inline'", resourceDomains),
    list("img-src 'self' data:", resourceDomains),
    list("font-src 'self'", resourceDomains),
    list("media-src 'self' data:", resourceDomains),
    connectDomains.length ? list('connect-src', connectDomains) : "connect-src 'none'",
    frameDomains.length ? list('frame-src', frameDomains) : "frame-src 'none'",
    "object-src 'none'",
    baseUriDomains.length ? list('base-uri', baseUriDomains) : "base-uri 'self'",
    "form-action 'none'",
  ].join('; ');
}

const DOCTYPE = /^\uFEFF?\s*<!doctype\s[^>]*>/i;

/** Turns off the browser's DNS prefetching for the document (it cannot be turned on again in it). */
export const NO_DNS_PREFETCH_META = '<meta http-equiv="x-dns-prefetch-control" content="off">';

/**
 * The app's document with the policy as its very first element (after a leading doctype, so the
 * document keeps its rendering mode), then `after` (markup of Toolgate's that must come before the
 * app's own). The parser puts them in <head> before any of the app's markup runs, and removing the
 * element later does not remove the policy.
 */
export function withCspMeta(html: string, policy: string, after = ''): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">${after}`;
  const doctype = DOCTYPE.exec(html);
  return doctype ? `${doctype[0].trim()}${meta}${html.slice(doctype[0].length)}` : `${meta}${html}`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const PERMISSION_NAMES: Record<string, AppPermission> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/** The permissions a resource asks for (`_meta.ui.permissions`), as Permission Policy feature names. */
export function requestedPermissions(declared: unknown): AppPermission[] {
  if (typeof declared !== 'object' || declared === null || Array.isArray(declared)) return [];
  return Object.keys(declared)
    .map((key) => PERMISSION_NAMES[key])
    .filter((name): name is AppPermission => name !== undefined);
}

/** The iframe `allow` attribute for the permissions the person granted ('' for none). */
export function allowAttribute(granted: readonly AppPermission[]): string {
  return granted.join('; ');
}

/** `_meta.ui.permissions` as the specification spells it, for the permissions granted. */
export function permissionsObject(granted: readonly AppPermission[]): Record<string, Record<string, never>> {
  const spelled: Record<string, Record<string, never>> = {};
  for (const [key, name] of Object.entries(PERMISSION_NAMES)) if (granted.includes(name)) spelled[key] = {};
  return spelled;
}

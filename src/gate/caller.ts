/**
 * Who is calling, as the gate tells callers apart. Every decision and every remembered approval is
 * bound to one caller: the person at the panel, the host app (by its label), a web site (by its exact
 * origin), an MCP App (by its resource URI and its server) or the browser's agent (by the origin of
 * the page that exposed the tool to it). An approval given to one caller never
 * covers another.
 */

import type { Caller } from './types.js';

/** Callers that act for the person themselves (the panel, the embedding app's own code or model). */
const OWN_CALLER_KINDS: ReadonlySet<Caller['kind']> = new Set(['person', 'host']);

/** True for callers that act for the person (the panel and the host app), false for sites and apps. */
export function isOwnCaller(caller: Caller): boolean {
  return OWN_CALLER_KINDS.has(caller.kind);
}

/**
 * The label that identifies a caller. The person is one identity whatever the panel calls them
 * ("you", a name): their label is for display only. Everyone else is told apart by exact label.
 */
export function identityLabel(caller: Caller): string {
  return caller.kind === 'person' ? '' : (caller.label ?? '');
}

/**
 * The server an MCP App comes from: part of its identity, since two servers may both serve a
 * `ui://app.html`. Empty for other kinds, and for app callers recorded before it was (which then
 * match no app that has one: an old approval never covers an app of another server).
 */
function identityServer(caller: Caller): string {
  return caller.kind === 'mcp-app' ? (caller.server ?? '') : '';
}

/** A stable key for one caller identity: kind, exact identity label, and an app's server. */
export function callerKey(caller: Caller): string {
  const server = identityServer(caller);
  return `${caller.kind}\u0000${identityLabel(caller)}${server ? `\u0000${server}` : ''}`;
}

/** True when both name the same caller (kind, exact identity label, an app's server). */
export function sameCaller(a: Caller, b: Caller): boolean {
  return (
    a.kind === b.kind && identityLabel(a) === identityLabel(b) && identityServer(a) === identityServer(b)
  );
}

/** Only what identifies the caller (what a remembered approval keeps): no display-only label. */
export function callerIdentity(caller: Caller): Caller {
  const label = identityLabel(caller);
  const server = identityServer(caller);
  return { kind: caller.kind, ...(label ? { label } : {}), ...(server ? { server } : {}) };
}

/** A short phrase naming the caller for a person: "you", "the web site https://a.example". */
export function describeCaller(caller: Caller): string {
  const label = caller.label?.trim();
  switch (caller.kind) {
    case 'person':
      return 'you';
    case 'host':
      return label ? `the app (${label})` : 'the app';
    case 'site':
      return label ? `the web site ${label}` : 'a web site';
    case 'agent':
      return label ? `the browser's agent on ${label}` : "the browser's agent";
    case 'mcp-app': {
      const server = identityServer(caller);
      return `${label ? `the MCP App ${label}` : 'an MCP App'}${server ? ` of ${server}` : ''}`;
    }
  }
}

/** Reads a caller from stored JSON; anything malformed is undefined (and so matches nothing). */
export function parseCaller(value: unknown): Caller | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const c = value as Partial<Caller>;
  if (
    c.kind !== 'host' &&
    c.kind !== 'person' &&
    c.kind !== 'mcp-app' &&
    c.kind !== 'site' &&
    c.kind !== 'agent'
  )
    return undefined;
  if (c.label !== undefined && typeof c.label !== 'string') return undefined;
  if (c.server !== undefined && typeof c.server !== 'string') return undefined;
  return {
    kind: c.kind,
    ...(c.label === undefined ? {} : { label: c.label }),
    ...(c.kind === 'mcp-app' && c.server !== undefined ? { server: c.server } : {}),
  };
}

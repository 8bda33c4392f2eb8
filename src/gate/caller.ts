/**
 * Who is calling, as the gate tells callers apart. Every decision and every remembered approval is
 * bound to one caller: the person at the panel, the host app (by its label), a web site (by its exact
 * origin) or an MCP App (by its resource URI). An approval given to one caller never covers another.
 */

import type { Caller } from './types.js';

/** Callers that act for the person themselves (the panel, the embedding app's own code or model). */
export const OWN_CALLER_KINDS: ReadonlySet<Caller['kind']> = new Set(['person', 'host']);

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

/** A stable key for one caller identity: kind plus exact identity label. */
export function callerKey(caller: Caller): string {
  return `${caller.kind}\u0000${identityLabel(caller)}`;
}

/** True when both name the same caller (kind and exact identity label). */
export function sameCaller(a: Caller, b: Caller): boolean {
  return a.kind === b.kind && identityLabel(a) === identityLabel(b);
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
    case 'mcp-app':
      return label ? `the MCP App ${label}` : 'an MCP App';
  }
}

/** Reads a caller from stored JSON; anything malformed is undefined (and so matches nothing). */
export function parseCaller(value: unknown): Caller | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const c = value as Partial<Caller>;
  if (c.kind !== 'host' && c.kind !== 'person' && c.kind !== 'mcp-app' && c.kind !== 'site') return undefined;
  if (c.label !== undefined && typeof c.label !== 'string') return undefined;
  return c.label === undefined ? { kind: c.kind } : { kind: c.kind, label: c.label };
}

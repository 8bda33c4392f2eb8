/**
 * A site the person turned on is one exact origin, held by Chrome as an optional host permission.
 * Chrome's match patterns ignore the port when it is left out (`https://a.example/*` also matches
 * `https://a.example:8443`), so the pattern always names the port, the default one included: the
 * permission, the injected page API and the grant then cover the same single origin.
 */

import { isSiteOrigin } from './origins.js';

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** The host permission pattern for exactly one origin, e.g. `https://a.example:443/*`. */
export function sitePattern(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${url.hostname}:${url.port || DEFAULT_PORTS[url.protocol]}/*`;
}

/** The origin a pattern of ours stands for; undefined for any other pattern (wildcards included). */
export function originOfPattern(pattern: string): string | undefined {
  const match = /^(https?):\/\/([^/*]+)\/\*$/.exec(pattern);
  if (!match) return undefined;
  let origin: string;
  try {
    origin = new URL(`${match[1]}://${match[2]}/`).origin;
  } catch {
    // A pattern whose host does not parse matches no site.
    return undefined;
  }
  // Only a pattern that names one origin exactly, as sitePattern writes it, turns a site on.
  return isSiteOrigin(origin) && sitePattern(origin) === pattern ? origin : undefined;
}

/**
 * What a person typed or the tab shows ("app.example", "https://app.example/page?x") as an
 * origin, or a sentence saying why it is not one.
 */
export function parseSiteAddress(text: string): { origin: string } | { problem: string } {
  const trimmed = text.trim();
  if (!trimmed) return { problem: 'Type the address of a site, such as https://app.example.' };
  // "app.example" and "localhost:3000" have no scheme ("localhost:" is a port, not one): https.
  const withScheme = /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    // Say what the person typed is not an address instead of the parser's message.
    return { problem: `“${trimmed.slice(0, 100)}” is not a web address.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { problem: 'Toolgate works on http and https sites only.' };
  return { origin: url.origin };
}

/** Content script ids of one origin's page bridge (the relay and the page API). */
export function scriptIds(origin: string): { bridge: string; api: string } {
  return { bridge: `toolgate-bridge ${origin}`, api: `toolgate-api ${origin}` };
}

const PREFIXES = ['toolgate-bridge ', 'toolgate-api '];

/**
 * Which scripts to register and which to remove so that exactly the turned-on origins have both
 * of their scripts. An origin with one script left (an interrupted change) gets both again.
 */
export function planPageScripts(
  enabled: readonly string[],
  registeredIds: readonly string[],
): { register: string[]; unregister: string[] } {
  const ours = registeredIds.filter((id) => PREFIXES.some((prefix) => id.startsWith(prefix)));
  const complete = new Set(
    enabled.filter((origin) => {
      const ids = scriptIds(origin);
      return ours.includes(ids.bridge) && ours.includes(ids.api);
    }),
  );
  const keep = new Set([...complete].flatMap((origin) => Object.values(scriptIds(origin))));
  return {
    register: enabled.filter((origin) => !complete.has(origin)),
    unregister: ours.filter((id) => !keep.has(id)),
  };
}

/**
 * Client ids a deployer registered for this extension, given through Chrome's managed storage (an
 * enterprise policy for the extension, see managed-schema.json): `oauthClients`, a list of
 * `{ issuer, clientId }`. Each was registered at that authorization server with the redirect URI
 * `https://<extension-id>.chromiumapp.org/oauth` as a public client (no secret: an extension
 * cannot keep one). Entries that are not that shape are left out, never guessed at.
 */

import type { PreRegisteredClient } from '../../src/auth/index.js';

/** The valid entries of the policy value `oauthClients`. */
export function parseManagedClients(value: unknown): PreRegisteredClient[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry): PreRegisteredClient[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { issuer, clientId } = entry as Record<string, unknown>;
    if (typeof clientId !== 'string' || !clientId || typeof issuer !== 'string') return [];
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      // A managed client whose issuer is not a URL is ignored (the policy is the administrator's to fix).
      return [];
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) return [];
    return [{ issuer, clientId, tokenEndpointAuthMethod: 'none' }];
  });
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Reads the policy; none set (the usual case) is an empty list. */
export async function managedClients(): Promise<PreRegisteredClient[]> {
  try {
    return parseManagedClients((await chrome.storage.managed.get('oauthClients')).oauthClients);
  } catch {
    // Managed storage is unavailable where no policy can be set (some Chromium builds): none.
    return [];
  }
}

/**
 * The URL secret rule (url-secrets.ts, with the name rule of secret-names.ts) loaded only for a URL
 * that can carry a secret. A secret in a URL sits in its user info (after an `@`) or in a parameter
 * with a value (after an `=`): text with neither comes back from redactUrl byte for byte and holds
 * no secret for secretsInUrl, so a plain call to a plain address never loads the rule.
 */

type UrlSecrets = typeof import('./url-secrets-entry.js');

/** False when `text` has no `@` and no `=`: redactUrl returns it unchanged and secretsInUrl finds nothing. */
export function mayCarryUrlSecrets(text: string): boolean {
  return text.includes('@') || text.includes('=');
}

let urlSecrets: Promise<UrlSecrets> | undefined;

/** url-secrets.ts, loaded once; a failed load is not cached, so the next caller tries again. */
export function loadUrlSecrets(): Promise<UrlSecrets> {
  urlSecrets ??= import('./url-secrets-entry.js').catch((error: unknown) => {
    urlSecrets = undefined;
    throw error;
  });
  return urlSecrets;
}

/** redactUrl, loading the rule only when `text` may carry a secret. */
export async function redactUrlWhenNeeded(text: string): Promise<string> {
  return mayCarryUrlSecrets(text) ? (await loadUrlSecrets()).redactUrl(text) : text;
}

/**
 * A sign-in that continues in this tab (popups blocked, or the host chose `mode: 'redirect'`):
 * before the page goes to the authorization server, what is needed to finish is kept in this tab's
 * sessionStorage under the request's `state` (the PKCE verifier, the client, the issuer, resource
 * and scopes, which server, and the page to come back to); never in the URL. The redirect URI's page
 * (`completeSignIn`) finds the record by the `state` it was sent back with, notes the address it
 * landed at and goes back to that page; or the page is its own redirect URI and notes it itself.
 * The server's sign-in on that page then takes the record (once: it is removed as it is read) and
 * exchanges the code.
 *
 * sessionStorage belongs to this tab and this origin: the redirect URI must be a page of the app's
 * own origin. A record is honoured for ten minutes at most. It holds the client registration as
 * well (a registered client's secret included, where the server issued one): the page that comes
 * back has lost its memory, and the code can only be exchanged by the client it was issued to.
 */

import type { AuthorizationRequest, RedirectHandover } from './authorization-code.js';
import type { RegisteredClient } from './client-identity.js';

const PREFIX = 'toolgate-oauth-redirect ';
const MAX_AGE_MS = 10 * 60_000;

/** What waits in sessionStorage while the person is at the authorization server. */
export interface RedirectRecord {
  /** The MCP server this sign-in is for (its canonical URI, the tokens' key). */
  server: string;
  state: string;
  codeVerifier: string;
  redirectUri: string;
  issuer: string;
  resource: string;
  scopes: string[];
  registered: RegisteredClient;
  /** The page that started it, which the person comes back to. */
  returnTo: string;
  startedAt: number;
  /** The redirect URI's full address as the person came back (code, state, iss), once back. */
  landed?: string;
}

/** Whether this page can continue a sign-in in its own tab. */
export function canRedirect(win: Window | undefined = globalThis.window): win is Window {
  try {
    return win !== undefined && win.sessionStorage !== undefined && win.top === win;
  } catch {
    return false; // sessionStorage refused (storage blocked), or a cross-origin top
  }
}

/** Keeps the record for `handover`, then goes to the authorization URL in this tab. */
export function continueInThisTab(
  record: Omit<RedirectRecord, 'state' | 'codeVerifier' | 'returnTo' | 'startedAt'>,
  handover: RedirectHandover,
  win: Window = window,
): Promise<never> {
  const kept: RedirectRecord = {
    ...record,
    state: handover.state,
    codeVerifier: handover.codeVerifier,
    returnTo: win.location.href,
    startedAt: Date.now(),
  };
  win.sessionStorage.setItem(PREFIX + handover.state, JSON.stringify(kept));
  win.location.assign(handover.url.href);
  // The page unloads: nothing waits for an answer here.
  return new Promise<never>(() => undefined);
}

/**
 * On the redirect URI's page: when this address answers a sign-in that continued in this tab,
 * notes it and goes back to the page that started it (true); false when it is not one (a popup's).
 */
export function returnFromRedirect(win: Window = window): boolean {
  const record = recordFor(win, stateOf(win.location.href));
  if (!record || record.landed) return false;
  let back: URL;
  try {
    back = new URL(record.returnTo);
  } catch {
    // A stored return address that does not parse cannot be the page we came back to.
    return false;
  }
  // Only ever back to a page of this origin (the record is this origin's own, but be exact).
  if (back.origin !== win.location.origin) return false;
  save(win, { ...record, landed: win.location.href });
  win.location.replace(back.href);
  return true;
}

/**
 * The answer of a sign-in for `server` that continued in this tab, taken once: removed as it is
 * read. When this page is itself the redirect URI and carries the answer, it is read from the
 * address (and the code removed from it).
 */
export function takeRedirectReturn(server: string, win: Window = window): RedirectRecord | undefined {
  if (!canRedirect(win)) return undefined;
  const here = stateOf(win.location.href);
  let found: RedirectRecord | undefined;
  for (const record of allRecords(win)) {
    const expired = Date.now() - record.startedAt > MAX_AGE_MS;
    if (expired) win.sessionStorage.removeItem(PREFIX + record.state);
    if (expired || record.server !== server) continue;
    if (!record.landed && record.state === here) {
      record.landed = win.location.href;
      // The code must not stay in the address bar or history.
      const clean = new URL(win.location.href);
      for (const name of ['code', 'state', 'iss', 'error', 'error_description', 'error_uri'])
        clean.searchParams.delete(name);
      win.history.replaceState(win.history.state, '', clean.href);
    }
    if (!record.landed) continue;
    win.sessionStorage.removeItem(PREFIX + record.state);
    found ??= record;
  }
  return found;
}

/** The authorizer of `mode: 'redirect'`: the person's go-ahead, then on in this tab. */
export function redirectAuthorizer(
  confirm?: (request: AuthorizationRequest) => Promise<void>,
): (request: AuthorizationRequest) => Promise<string> {
  return async (request) => {
    await confirm?.(request);
    if (!request.continueInThisTab)
      throw new Error(
        'this page cannot continue the sign-in in its own tab (it is framed, or storage is blocked): sign in with the popup instead',
      );
    return request.continueInThisTab();
  };
}

function stateOf(address: string): string | null {
  try {
    return new URL(address).searchParams.get('state');
  } catch {
    // Not a URL: it carries no state to match.
    return null;
  }
}

function recordFor(win: Window, state: string | null): RedirectRecord | undefined {
  if (state === null || !canRedirect(win)) return undefined;
  return parse(win.sessionStorage.getItem(PREFIX + state));
}

function allRecords(win: Window): RedirectRecord[] {
  const records: RedirectRecord[] = [];
  const names: string[] = [];
  for (let index = 0; index < win.sessionStorage.length; index++) {
    const name = win.sessionStorage.key(index);
    if (name?.startsWith(PREFIX)) names.push(name);
  }
  for (const name of names) {
    const record = parse(win.sessionStorage.getItem(name));
    if (record) records.push(record);
    else win.sessionStorage.removeItem(name);
  }
  return records;
}

function save(win: Window, record: RedirectRecord): void {
  win.sessionStorage.setItem(PREFIX + record.state, JSON.stringify(record));
}

function parse(text: string | null): RedirectRecord | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<RedirectRecord>;
    const ok =
      typeof value.server === 'string' &&
      typeof value.state === 'string' &&
      typeof value.codeVerifier === 'string' &&
      typeof value.returnTo === 'string' &&
      typeof value.startedAt === 'number' &&
      typeof value.registered === 'object';
    return ok ? (value as RedirectRecord) : undefined;
  } catch {
    // A stored record that is not JSON is not ours: treated as absent.
    return undefined;
  }
}

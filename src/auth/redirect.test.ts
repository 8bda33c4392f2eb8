/**
 * The bookkeeping of a sign-in that continues in this tab. Node has no window: the tab is a small
 * test double (a Map as sessionStorage, a location that records where it was sent). The real
 * browser round trip, through oidc-provider, is e2e/oauth-redirect.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import type { RegisteredClient } from './client-identity.js';
import {
  continueInThisTab,
  type RedirectRecord,
  returnFromRedirect,
  takeRedirectReturn,
} from './redirect.js';

function tab(href: string) {
  const items = new Map<string, string>();
  const sessionStorage = {
    get length() {
      return items.size;
    },
    key: (index: number) => [...items.keys()][index] ?? null,
    getItem: (name: string) => items.get(name) ?? null,
    setItem: (name: string, value: string) => void items.set(name, value),
    removeItem: (name: string) => void items.delete(name),
  };
  const sentTo: string[] = [];
  const win = {
    sessionStorage,
    location: {
      get href() {
        return href;
      },
      get origin() {
        return new URL(href).origin;
      },
      assign: (to: string) => sentTo.push(`assign ${to}`),
      replace: (to: string) => sentTo.push(`replace ${to}`),
    },
    history: {
      state: null,
      replaceState(_state: unknown, _title: string, to: string) {
        href = to;
      },
    },
    goTo(to: string) {
      href = to;
    },
  } as unknown as Window & { goTo(to: string): void };
  (win as unknown as { top: Window }).top = win;
  return { win, items, sentTo };
}

const registered: RegisteredClient = {
  issuer: 'https://as.example',
  how: 'dynamic',
  client: { client_id: 'c1' },
};
const base = {
  server: 'https://mcp.example/mcp',
  redirectUri: 'https://app.example/callback.html',
  issuer: 'https://as.example',
  resource: 'https://mcp.example/mcp',
  scopes: ['mcp:tools'],
  registered,
};
const handover = {
  url: new URL('https://as.example/authorize?state=s1&code_challenge=x'),
  state: 's1',
  codeVerifier: 'verifier-1',
};

describe('a sign-in that continues in this tab', () => {
  it('keeps the verifier in sessionStorage, not in the address it goes to', () => {
    const { win, items, sentTo } = tab('https://app.example/?server=x');
    void continueInThisTab(base, handover, win);
    expect(sentTo).toEqual([`assign ${handover.url.href}`]);
    expect(sentTo.join()).not.toContain('verifier-1');
    const kept = JSON.parse([...items.values()][0]!) as RedirectRecord;
    expect(kept).toMatchObject({
      state: 's1',
      codeVerifier: 'verifier-1',
      returnTo: 'https://app.example/?server=x',
    });
  });

  it('the callback page notes the answer and goes back; the page takes it once', () => {
    const { win, sentTo } = tab('https://app.example/?server=x');
    void continueInThisTab(base, handover, win);
    win.goTo('https://app.example/callback.html?code=abc&state=s1&iss=https%3A%2F%2Fas.example');
    expect(returnFromRedirect(win)).toBe(true);
    expect(sentTo.at(-1)).toBe('replace https://app.example/?server=x');
    win.goTo('https://app.example/?server=x');
    expect(takeRedirectReturn('https://other.example/mcp', win)).toBeUndefined();
    const back = takeRedirectReturn(base.server, win);
    expect(back?.landed).toContain('code=abc');
    expect(back?.codeVerifier).toBe('verifier-1');
    expect(takeRedirectReturn(base.server, win)).toBeUndefined();
  });

  it('is no redirect for an answer with another state (a popup), nor to another origin', () => {
    const { win } = tab('https://app.example/');
    void continueInThisTab(base, handover, win);
    win.goTo('https://app.example/callback.html?code=abc&state=other');
    expect(returnFromRedirect(win)).toBe(false);
    win.sessionStorage.setItem(
      'toolgate-oauth-redirect s2',
      JSON.stringify({
        ...base,
        state: 's2',
        codeVerifier: 'v',
        returnTo: 'https://evil.example/',
        startedAt: Date.now(),
      }),
    );
    win.goTo('https://app.example/callback.html?code=abc&state=s2');
    expect(returnFromRedirect(win)).toBe(false);
  });

  it('finishes on the page itself when it is its own redirect URI, and takes the code out of the address', () => {
    const { win } = tab('https://app.example/');
    void continueInThisTab({ ...base, redirectUri: 'https://app.example/' }, handover, win);
    win.goTo('https://app.example/?code=abc&state=s1');
    const back = takeRedirectReturn(base.server, win);
    expect(back?.landed).toBe('https://app.example/?code=abc&state=s1');
    expect(win.location.href).toBe('https://app.example/');
  });

  it('drops a record older than ten minutes', () => {
    const { win, items } = tab('https://app.example/');
    items.set(
      'toolgate-oauth-redirect old',
      JSON.stringify({
        ...base,
        state: 'old',
        codeVerifier: 'v',
        returnTo: 'https://app.example/',
        startedAt: Date.now() - 11 * 60_000,
        landed: 'https://app.example/callback.html?code=abc&state=old',
      }),
    );
    expect(takeRedirectReturn(base.server, win)).toBeUndefined();
    expect(items.size).toBe(0);
  });
});

/**
 * Which web sites may use which of the person's tools. A site (an exact origin, as Chrome reports
 * the sender of a content-script port, never as the page claims) gets nothing until the person
 * grants it tools in a consent dialog. A refusal is answered at once, and the site may not ask again
 * for a while (refusal-backoff.ts), so a page cannot keep the dialog coming back. Revoking takes
 * effect for the next check, and listeners (the page gateway) cancel what that site has running.
 */

import { type Signal, signal } from '@preact/signals';
import { isSiteOrigin } from './origins.js';
import { describeWait, nextRefusal, type Refusal, remainingWait } from './refusal-backoff.js';

export type { Refusal } from './refusal-backoff.js';

/** Tools one site may call, by server id and tool name. */
export interface SiteGrant {
  origin: string;
  tools: { serverId: string; toolName: string }[];
  grantedAt: number;
  /**
   * The browser's agent on this site may call these tools too (registered for it through WebMCP,
   * each call asked as the agent's). Off unless the person turns it on in Sites.
   */
  agent?: boolean;
}

/** A site asking for access, waiting for the person. */
export interface ConsentRequest {
  id: string;
  origin: string;
  /** The page's title when it asked, for the person to recognise it (shown as text only). */
  pageTitle: string;
  requestedAt: number;
}

export type ConsentAnswer =
  | { allow: true; tools: { serverId: string; toolName: string }[] }
  | { allow: false };

/** Where grants and refusals are kept (IndexedDB in the extension; memory in tests). */
export interface SiteAccessStore {
  load(): Promise<SiteGrant[]>;
  save(grants: SiteGrant[]): Promise<void>;
  /**
   * Refusals outlive the worker in the extension: otherwise a page could wait for the worker to
   * sleep and ask again at once. Without these they are kept in memory only.
   */
  loadRefusals?(): Promise<Refusal[]>;
  saveRefusals?(refusals: Refusal[]): Promise<void>;
}

export class SiteAccessError extends Error {
  readonly kind = 'not-allowed';
  constructor(message: string) {
    super(message);
    this.name = 'SiteAccessError';
  }
}

/** The site asked again too soon after the person refused it; the message says how long to wait. */
export class AccessBackoffError extends Error {
  readonly kind = 'retry-later';
  constructor(
    origin: string,
    readonly retryAfterMs: number,
  ) {
    super(
      `The person refused ${origin} access to their tools; this site may ask again in ${describeWait(retryAfterMs)}.`,
    );
    this.name = 'AccessBackoffError';
  }
}

export interface SiteAccess {
  readonly sites: Signal<SiteGrant[]>;
  readonly consents: Signal<ConsentRequest[]>;
  /**
   * Resolves with the grant (asking the person when there is none); rejects when refused, and at
   * once, without asking, while the site must wait after a refusal (AccessBackoffError).
   */
  request(origin: string, pageTitle: string, signal?: AbortSignal): Promise<SiteGrant>;
  answer(consentId: string, answer: ConsentAnswer): Promise<void>;
  grantOf(origin: string): SiteGrant | undefined;
  allows(origin: string, serverId: string, toolName: string): boolean;
  revoke(origin: string): Promise<void>;
  /** Lets the site's browser agent use its granted tools, or stops it. */
  setAgent(origin: string, on: boolean): Promise<void>;
  /** Called with the origin whose grant changed or was revoked. */
  onChange(listener: (origin: string) => void): () => void;
}

export interface SiteAccessOptions {
  /** The clock the refusal wait is measured by (tests move it). */
  now?: () => number;
}

export async function createSiteAccess(
  store: SiteAccessStore,
  { now = Date.now }: SiteAccessOptions = {},
): Promise<SiteAccess> {
  const sites = signal<SiteGrant[]>(await store.load());
  const refusals = new Map(
    ((await store.loadRefusals?.()) ?? []).map((refusal) => [refusal.origin, refusal]),
  );
  const saveRefusals = async () => store.saveRefusals?.([...refusals.values()]);
  const consents = signal<ConsentRequest[]>([]);
  const waiting = new Map<string, { origin: string; settle: (answer: ConsentAnswer) => void }>();
  const listeners = new Set<(origin: string) => void>();
  const changed = (origin: string) => {
    for (const listener of listeners) listener(origin);
  };
  const persist = () => store.save(sites.value);

  const grantOf = (origin: string) => sites.value.find((grant) => grant.origin === origin);

  return {
    sites,
    consents,
    grantOf,
    allows(origin, serverId, toolName) {
      return (
        grantOf(origin)?.tools.some((tool) => tool.serverId === serverId && tool.toolName === toolName) ??
        false
      );
    },
    request(origin, pageTitle, abortSignal) {
      if (!isSiteOrigin(origin))
        return Promise.reject(
          new SiteAccessError(`Toolgate serves http and https pages only, not ${origin}.`),
        );
      const existing = grantOf(origin);
      if (existing) return Promise.resolve(existing);
      const wait = remainingWait(refusals.get(origin), now());
      if (wait > 0) return Promise.reject(new AccessBackoffError(origin, wait));
      // One question per site at a time: a page that asks twice waits for the same answer.
      const pending = consents.value.find((consent) => consent.origin === origin);
      const consent: ConsentRequest = pending ?? {
        id: crypto.randomUUID(),
        origin,
        pageTitle: pageTitle.slice(0, 200),
        requestedAt: now(),
      };
      if (!pending) consents.value = [...consents.value, consent];
      return new Promise<SiteGrant>((resolve, reject) => {
        const key = `${consent.id}:${crypto.randomUUID()}`;
        const drop = () => {
          waiting.delete(key);
          if (![...waiting.values()].some((entry) => entry.origin === origin))
            consents.value = consents.value.filter((item) => item.id !== consent.id);
        };
        abortSignal?.addEventListener('abort', () => {
          drop();
          reject(new SiteAccessError('The page stopped waiting for access.'));
        });
        waiting.set(key, {
          origin,
          settle(answer) {
            waiting.delete(key);
            if (answer.allow) resolve(grantOf(origin)!);
            else reject(new SiteAccessError(`The person did not allow ${origin} to use their MCP tools.`));
          },
        });
      });
    },
    async answer(consentId, answer) {
      const consent = consents.value.find((item) => item.id === consentId);
      if (!consent)
        throw new SiteAccessError('That access request is no longer waiting (the page left or asked again).');
      consents.value = consents.value.filter((item) => item.id !== consentId);
      if (answer.allow) {
        const grant: SiteGrant = {
          origin: consent.origin,
          tools: dedupe(answer.tools),
          grantedAt: now(),
        };
        sites.value = [...sites.value.filter((item) => item.origin !== consent.origin), grant];
        await persist();
        changed(consent.origin);
        if (refusals.delete(consent.origin)) await saveRefusals();
      } else {
        refusals.set(consent.origin, nextRefusal(refusals.get(consent.origin), consent.origin, now()));
        await saveRefusals();
      }
      for (const [key, entry] of [...waiting]) if (key.startsWith(`${consentId}:`)) entry.settle(answer);
    },
    async revoke(origin) {
      sites.value = sites.value.filter((grant) => grant.origin !== origin);
      changed(origin);
      await persist();
    },
    async setAgent(origin, on) {
      const grant = grantOf(origin);
      if (!grant) throw new SiteAccessError(`${origin} has no tools to share with its browser agent.`);
      const { agent: _was, ...rest } = grant;
      sites.value = sites.value.map((item) =>
        item === grant ? { ...rest, ...(on ? { agent: true } : {}) } : item,
      );
      changed(origin);
      await persist();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function dedupe(tools: { serverId: string; toolName: string }[]) {
  const seen = new Set<string>();
  return tools.filter((tool) => {
    const key = JSON.stringify([tool.serverId, tool.toolName]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

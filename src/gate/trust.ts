/**
 * Per-server trust, chosen by the person and kept in the settings store under `trust:<serverId>`.
 * Only trusted servers have a record: deleting it is the way back to the default, untrusted.
 */

import type { TrustRecord } from './policy-types.js';
import type { SettingsStore } from './settings-store.js';
import type { TrustLevel } from './types.js';

/** For the UI, next to the trust switch. */
export const TRUST_EXPLANATION =
  'Annotations from untrusted servers are claims: Toolgate shows them but never lets them relax a decision.';

/** For the UI, when a person is about to trust a server. */
export const TRUSTED_EXPLANATION =
  'A trusted server’s read-only tools may run without asking; everything else still follows your rules and asks by default.';

const TRUST_PREFIX = 'trust:';

/** The stored trust level; anything unreadable counts as untrusted. */
export async function readTrust(store: SettingsStore, serverId: string): Promise<TrustLevel> {
  return parseTrust(serverId, await store.get(TRUST_PREFIX + serverId))?.level ?? 'untrusted';
}

/** Stores a trust level (untrusted removes the record). */
export async function writeTrust(
  store: SettingsStore,
  serverId: string,
  level: TrustLevel,
  now: number,
): Promise<void> {
  if (typeof serverId !== 'string' || serverId === '')
    throw new TypeError('Trust needs a server id: which server should be trusted?');
  if (level !== 'trusted' && level !== 'untrusted')
    throw new TypeError(
      `Trust for ${serverId} must be "trusted" or "untrusted", not ${JSON.stringify(level)}.`,
    );
  if (level === 'untrusted') await store.del(TRUST_PREFIX + serverId);
  else await store.set(TRUST_PREFIX + serverId, { level, updatedAt: now });
}

/** Every trusted server, in key order. */
export async function listTrust(store: SettingsStore): Promise<TrustRecord[]> {
  const records: TrustRecord[] = [];
  for (const [key, value] of await store.entries(TRUST_PREFIX)) {
    const record = parseTrust(key.slice(TRUST_PREFIX.length), value);
    if (record) records.push(record);
  }
  return records;
}

function parseTrust(serverId: string, value: unknown): TrustRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { level, updatedAt } = value as { level?: unknown; updatedAt?: unknown };
  if (level !== 'trusted') return undefined;
  return { serverId, level, updatedAt: typeof updatedAt === 'number' ? updatedAt : 0 };
}

/**
 * Forgetting what the person decided about a server or a caller, through the policy's own verbs (so
 * every tab hears it). Used when a server is removed (its trust, remembered approvals and rules go
 * with it: a server added later at the same address is asked about afresh) and when a web site is
 * turned off in the extension (its remembered approvals go: turned on again, it is asked again).
 */

import { sameCaller } from './caller.js';
import type { Policy } from './policy-types.js';
import type { Caller } from './types.js';

/** What was forgotten, for a person's record. */
interface Forgotten {
  trust: boolean;
  grants: number;
  rules: number;
}

/** Drops the server's trust, every remembered approval for its tools and every rule naming it. */
export async function forgetServer(policy: Policy, serverId: string): Promise<Forgotten> {
  const trusted = (await policy.trustOf(serverId)) === 'trusted';
  if (trusted) await policy.setTrust(serverId, 'untrusted');
  let grants = 0;
  for (const grant of await policy.listGrants())
    if (grant.serverId === serverId && (await policy.revokeGrant(grant.id))) grants++;
  let rules = 0;
  // Rules for every server ('*') are not this server's: they stay.
  for (const rule of await policy.listRules())
    if (rule.server === serverId && (await policy.deleteRule(rule.id))) rules++;
  return { trust: trusted, grants, rules };
}

/** Revokes every remembered approval given to `caller` (on any server); returns how many. */
export async function forgetCallerGrants(policy: Policy, caller: Caller): Promise<number> {
  let revoked = 0;
  for (const grant of await policy.listGrants())
    if (sameCaller(grant.caller, caller) && (await policy.revokeGrant(grant.id))) revoked++;
  return revoked;
}

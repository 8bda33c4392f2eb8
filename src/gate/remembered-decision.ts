/**
 * Step 2 of a decision: what the caller's remembered approvals say about this call. The one-tool
 * grant speaks first, then a server-wide grant whose reach covers the tool (grant-reach.ts). A
 * covered definition that is the one approved allows; a changed one is weighed
 * (definition-weight.ts): a change that only narrows or reorders still allows (and says so), any
 * other change asks again with the diff, flagged when it widens what the tool accepts or does.
 */

import type { Tool } from '../protocol/index.js';
import { describeCaller } from './caller.js';
import { describeChange } from './definition-diff.js';
import { grantCovers, reachOf } from './grant-reach.js';
import type { GrantBook } from './grants.js';
import type { DecisionContext, Grant, PolicyOutcome } from './policy-types.js';

export async function rememberedDecision(
  grants: GrantBook,
  context: DecisionContext,
  /** The server as the person knows it. */
  shown: string,
): Promise<PolicyOutcome | undefined> {
  const { caller, pinned } = context;
  const serverId = pinned.serverId;
  const toolName = pinned.tool.name;
  const own = await grants.find(caller, serverId, toolName);
  if (own) return weighGrant(own, own.definitionHash, own.definition, context, shown);
  let asked: PolicyOutcome | undefined;
  for (const grant of await grants.findServerWide(caller, serverId)) {
    if (!grantCovers(grant, serverId, pinned.tool)) continue;
    const seen = grant.covered?.[toolName];
    if (!seen) await grants.noteCovered(grant, pinned);
    const outcome = seen
      ? weighGrant(grant, seen.definitionHash, seen.definition, context, shown)
      : weighGrant(grant, pinned.definitionHash, pinned.tool, context, shown);
    if (outcome.decision.verdict === 'allow') return outcome;
    asked ??= outcome;
  }
  return asked;
}

/** The grant's answer for the definition it approved (`hash`, `definition`) against the pinned one. */
function weighGrant(
  grant: Grant,
  hash: string,
  definition: Tool,
  context: DecisionContext,
  shown: string,
): PolicyOutcome {
  const { caller, pinned } = context;
  const toolName = pinned.tool.name;
  const forWhom = caller.kind === 'person' ? '' : ` for ${describeCaller(caller)}`;
  const reach = reachOf(grant);
  const source = {
    kind: 'remembered' as const,
    scope: grant.scope,
    grantId: grant.id,
    ...(reach !== 'tool' ? { reach } : {}),
  };
  const given = describeGrant(grant, toolName, shown, forWhom);
  if (hash === pinned.definitionHash) return { decision: { verdict: 'allow', source, reason: `${given}.` } };
  const definitionChange = {
    ...describeChange({ serverId: pinned.serverId, tool: definition, definitionHash: hash }, pinned),
    since: 'approval' as const,
  };
  if (definitionChange.weight === 'narrowing')
    return {
      decision: {
        verdict: 'allow',
        source,
        reason: `${given}. ${toolName} changed since then, but only narrowed or reordered what it accepts or does, so that still holds.`,
      },
      definitionChange,
    };
  const widens =
    definitionChange.weight === 'widening'
      ? ` The change widens what it accepts or does: ${definitionChange.widening?.join('; ')}.`
      : '';
  return {
    decision: {
      verdict: 'ask',
      source: { kind: 'default', reason: 'definition-changed' },
      reason: `${toolName} on ${shown} changed since you allowed it${forWhom}: look at what changed before allowing it again.${widens}`,
    },
    definitionChange,
  };
}

/** "You allowed every tool of bank for this session": what the person chose, in their words. */
function describeGrant(
  grant: Pick<Grant, 'reach' | 'scope' | 'expiresAt' | 'includeDestructive'>,
  toolName: string,
  shown: string,
  forWhom: string,
): string {
  const what = {
    tool: `${toolName} on ${shown}`,
    server: `every tool of ${shown}${grant.includeDestructive ? ', destructive ones too,' : ''}`,
    'server-read-only': `the read-only tools of ${shown}`,
  }[reachOf(grant)];
  if (grant.scope === 'always') return `You always allow ${what}${forWhom}`;
  if (grant.scope === 'hour')
    return `You allowed ${what}${forWhom} until ${new Date(grant.expiresAt ?? 0).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
  return `You allowed ${what}${forWhom} for this session`;
}

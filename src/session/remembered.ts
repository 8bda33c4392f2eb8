/**
 * What the policy remembers on the person's behalf, as the "Approvals" view lists it: remembered
 * approvals ("Allow for this session", "Always allow") and rules, each with who it covers. Plain
 * data, so the extension's side panel can receive it over its port like any other state.
 */

import {
  type Caller,
  describeCaller,
  type GrantReach,
  type Policy,
  type PolicyRule,
  type RuleCaller,
} from '../gate/index.js';

export type RememberedItem =
  | {
      type: 'grant';
      id: string;
      caller: Caller;
      serverId: string;
      /** The tool, or '*' for a server-wide reach. */
      toolName: string;
      /** What it covers: the tool, every tool of the server, or the server's read-only tools. */
      reach: GrantReach;
      /** 'server' only: tools that may destroy things are covered too (the person ticked it). */
      includeDestructive?: boolean;
      scope: 'session' | 'hour' | 'always';
      /** When it ends, for a time-limited grant (epoch ms). */
      expiresAt?: number;
      createdAt: number;
      decidedBy?: string;
    }
  | {
      type: 'rule';
      id: string;
      /** Absent: the rule's default reach (the person and the host for allow, everyone otherwise). */
      caller?: RuleCaller;
      serverId: string;
      toolName: string;
      verdict: PolicyRule['verdict'];
      conditions: number;
      note?: string;
      createdAt: number;
    };

/** Every remembered approval, then every rule, newest first within each. */
export async function listRemembered(policy: Policy): Promise<RememberedItem[]> {
  const [grants, rules] = await Promise.all([policy.listGrants(), policy.listRules()]);
  const items: RememberedItem[] = [
    ...grants
      .map(
        (grant): RememberedItem => ({
          type: 'grant',
          id: grant.id,
          caller: grant.caller,
          serverId: grant.serverId,
          toolName: grant.toolName,
          reach: grant.reach ?? 'tool',
          ...(grant.includeDestructive ? { includeDestructive: true } : {}),
          scope: grant.scope,
          ...(grant.expiresAt !== undefined ? { expiresAt: grant.expiresAt } : {}),
          createdAt: grant.createdAt,
          ...(grant.decidedBy ? { decidedBy: grant.decidedBy } : {}),
        }),
      )
      .sort((a, b) => b.createdAt - a.createdAt),
    ...rules
      .map(
        (rule): RememberedItem => ({
          type: 'rule',
          id: rule.id,
          ...(rule.caller ? { caller: rule.caller } : {}),
          serverId: rule.server,
          toolName: rule.tool,
          verdict: rule.verdict,
          conditions: rule.when?.length ?? 0,
          ...(rule.note ? { note: rule.note } : {}),
          createdAt: rule.createdAt,
        }),
      )
      .sort((a, b) => b.createdAt - a.createdAt),
  ];
  return items;
}

/** Revokes a remembered approval or deletes a rule; takes effect for the next decision. */
export async function forgetRemembered(
  policy: Policy,
  item: Pick<RememberedItem, 'type' | 'id'>,
): Promise<boolean> {
  return item.type === 'grant' ? policy.revokeGrant(item.id) : policy.deleteRule(item.id);
}

/** What a remembered approval covers, in words: "this tool", "every tool except those that may destroy things". */
export function grantReachWords(item: Extract<RememberedItem, { type: 'grant' }>): string {
  if (item.reach === 'server')
    return item.includeDestructive
      ? 'every tool of the server, destructive ones too'
      : 'every tool of the server except those that may destroy things';
  if (item.reach === 'server-read-only') return 'the server’s read-only tools';
  return 'this tool';
}

/** When a remembered approval ends, in words. */
export function grantEndWords(item: Extract<RememberedItem, { type: 'grant' }>): string {
  if (item.scope === 'session') return 'ends when this page (tab) is closed or reloaded';
  if (item.scope === 'hour' && item.expiresAt !== undefined)
    return `ends at ${new Date(item.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
  return 'until you revoke it';
}

/** Who an item covers, in the words the approval dialog uses. */
export function coveredCallers(item: RememberedItem): string {
  if (item.type === 'grant') return describeCaller(item.caller);
  if (item.caller) {
    const { kind, label } = item.caller;
    if (label) return describeCaller({ kind, label });
    return {
      person: 'you',
      host: 'any app',
      site: 'any web site',
      'mcp-app': 'any MCP App',
      agent: "the browser's agent on any page",
    }[kind];
  }
  return item.verdict === 'allow' ? 'you and the app' : 'everyone';
}

/**
 * The policy: decides allow / ask / deny for one call, and keeps what the person chose (rules, trust,
 * remembered approvals). Decision order:
 *   1. the most specific matching rule (deny wins among matches; see rules.ts);
 *   2. a remembered approval (of this tool, or server-wide) of this exact definition -> allow; of an
 *      older definition -> allow when the change only narrows, else ask with what changed;
 *   3. defaults: a trusted server's tool that claims read-only and not destructive -> allow
 *      (configurable); anything else -> ask. An untrusted server's annotations never relax anything.
 *   4. floor: arguments that could not be validated are never allowed without a person.
 */

import { describeCaller } from './caller.js';
import { createFirstSeenBook } from './first-seen.js';
import { GrantBook } from './grants.js';
import type {
  DecisionContext,
  Policy,
  PolicyChange,
  PolicyDefaults,
  PolicyOutcome,
  PolicyRule,
  RuleInput,
  RuleIssue,
} from './policy-types.js';
import { rememberedDecision } from './remembered-decision.js';
import {
  type CompiledRule,
  checkRule,
  chooseRule,
  compileRule,
  describeRule,
  RuleValidationError,
} from './rules.js';
import { newRecordId, type SettingsStore } from './settings-store.js';
import { listTrust, readTrust, writeTrust } from './trust.js';
import type { Decision } from './types.js';

const RULE_PREFIX = 'rule:';

export type { Policy };

export interface PolicyOptions {
  store: SettingsStore;
  defaults?: Partial<PolicyDefaults>;
  now?: () => number;
  /** Tabs sharing one IndexedDB hear each other's changes on this BroadcastChannel. */
  channelName?: string;
}

export function createPolicy(options: PolicyOptions): Policy {
  const { store } = options;
  const now = options.now ?? Date.now;
  const defaults: PolicyDefaults = {
    trustedReadOnly: options.defaults?.trustedReadOnly ?? 'allow',
    trustedReadOnlyCallers: options.defaults?.trustedReadOnlyCallers ?? ['person', 'host'],
  };
  const grants = new GrantBook(store, now);
  const firstSeen = createFirstSeenBook(store, now);
  const listeners = new Set<(change: PolicyChange) => void>();
  // Rules are read on every decision: keep them compiled, and drop the copy when anything changes.
  let compiled: Promise<CompiledRule[]> | undefined;
  const channel =
    store.persistent && typeof BroadcastChannel !== 'undefined'
      ? new BroadcastChannel(options.channelName ?? 'toolgate-settings')
      : undefined;

  const changed = (change: PolicyChange, announce: boolean) => {
    if (change.kind === 'rules') compiled = undefined;
    if (announce) channel?.postMessage(change);
    for (const listener of listeners) listener(change);
  };
  channel?.addEventListener('message', (event: MessageEvent<PolicyChange>) => changed(event.data, false));

  const loadRules = async (): Promise<PolicyRule[]> => {
    const rules: PolicyRule[] = [];
    for (const [, value] of await store.entries(RULE_PREFIX)) {
      const checked = checkRule(value);
      const stored = value as Partial<PolicyRule>;
      if (checked.ok && typeof stored.id === 'string')
        rules.push({
          ...checked.rule,
          id: stored.id,
          createdAt: typeof stored.createdAt === 'number' ? stored.createdAt : 0,
          updatedAt: typeof stored.updatedAt === 'number' ? stored.updatedAt : 0,
        });
    }
    return rules.sort(inListOrder);
  };
  const rulesNow = () => {
    compiled ??= loadRules().then((rules) => rules.map(compileRule));
    return compiled;
  };

  const nextPosition = async () => {
    const rules = await loadRules();
    return rules.reduce((last, rule) => Math.max(last, rule.position ?? -1), rules.length - 1) + 1;
  };

  async function decide(context: DecisionContext): Promise<PolicyOutcome> {
    const { caller, pinned, trust, validation } = context;
    const serverId = pinned.serverId;
    const toolName = pinned.tool.name;
    // Reasons are read by people: they name the server as the panel does.
    const shown = context.serverLabel ?? serverId;
    if (context.serverId !== undefined && context.serverId !== serverId)
      return {
        decision: {
          verdict: 'deny',
          source: { kind: 'default', reason: 'server-mismatch' },
          reason: `the tool definition belongs to ${serverId}, not ${context.serverId}`,
        },
      };
    const floor = (decision: Decision): Decision =>
      decision.verdict === 'allow' && validation.status === 'skipped'
        ? {
            verdict: 'ask',
            source: { kind: 'validation', reason: 'arguments-unchecked' },
            reason: `The arguments could not be checked against the tool's schema (${validation.reason}), so a person must look.`,
          }
        : decision;

    // 1 rules
    const chosen = chooseRule(await rulesNow(), caller, serverId, toolName, context.arguments, now());
    if (chosen) {
      const { rule, cautiously } = chosen;
      const verb = rule.verdict === 'allow' ? 'allows' : rule.verdict === 'deny' ? 'denies' : 'asks about';
      // The rule's name is part of the sentence: the audit log keeps it after the rule is gone.
      return {
        decision: floor({
          verdict: rule.verdict,
          source: { kind: 'rule', ruleId: rule.id },
          reason: `Your rule${rule.name ? ` “${rule.name}”` : ''} ${verb} ${describeRule(rule)}${
            cautiously ? ' (one of its conditions could not be checked, so it was applied to be safe)' : ''
          }${rule.note ? ` — ${rule.note}` : ''}.`,
        }),
      };
    }

    // 2 remembered approvals: this caller's only; the one-tool grant first, then server-wide ones.
    const remembered = await rememberedDecision(grants, context, shown);
    if (remembered)
      return remembered.decision.verdict === 'allow'
        ? { ...remembered, decision: floor(remembered.decision) }
        : remembered;

    // 3 defaults: a trusted read-only claim relaxes only the callers it was configured for.
    const claims = pinned.tool.annotations ?? {};
    const claimsReadOnly = claims.readOnlyHint === true && claims.destructiveHint !== true;
    if (trust === 'trusted' && claimsReadOnly && !defaults.trustedReadOnlyCallers.includes(caller.kind))
      return {
        decision: {
          verdict: 'ask',
          source: { kind: 'default', reason: 'caller-must-be-approved' },
          reason: `${describeCapitalized(caller)} asks to run ${toolName}; Toolgate asks you about every call from ${describeCaller(caller)} unless you allowed it for them.`,
        },
      };
    if (trust === 'trusted' && claimsReadOnly)
      return {
        decision: floor(
          defaults.trustedReadOnly === 'allow'
            ? {
                verdict: 'allow',
                source: { kind: 'default', reason: 'trusted-read-only' },
                reason: `${shown} is trusted and says ${toolName} only reads.`,
              }
            : {
                verdict: 'ask',
                source: { kind: 'default', reason: 'trusted-read-only-asks' },
                reason: `${shown} is trusted and says ${toolName} only reads, but your settings ask for every call.`,
              },
        ),
      };
    return {
      decision:
        trust === 'trusted'
          ? {
              verdict: 'ask',
              source: { kind: 'default', reason: 'trusted-may-change' },
              reason: `${toolName} may change things (it does not claim to be read-only), so Toolgate asks.`,
            }
          : {
              verdict: 'ask',
              source: { kind: 'default', reason: 'untrusted-server' },
              reason: `${shown} is not trusted, so Toolgate asks before every call; its annotations are only claims.`,
            },
    };
  }

  return {
    decide,
    changeSinceFirstSeen: (pinned, firstListed) => firstSeen.changeSinceFirstSeen(pinned, firstListed),
    acknowledgeChange: (serverId, toolName, hash) => firstSeen.acknowledge(serverId, toolName, hash),
    async remember(caller, pinned, scope, decidedBy, reach) {
      if (scope === 'once') return undefined;
      const grant = await grants.remember(caller, pinned, scope, now(), decidedBy, reach);
      changed({ kind: 'grants' }, scope !== 'session');
      return grant;
    },
    findGrant: (caller, serverId, toolName) => grants.find(caller, serverId, toolName),
    trustOf: (serverId) => readTrust(store, serverId),
    async setTrust(serverId, level) {
      await writeTrust(store, serverId, level, now());
      changed({ kind: 'trust', serverId }, true);
    },
    listTrust: () => listTrust(store),
    async listRules() {
      return (await rulesNow()).map((c) => c.rule);
    },
    async saveRule(input) {
      const checked = checkRule(input);
      if (!checked.ok) throw new RuleValidationError(checked.issues);
      const at = now();
      let createdAt = at;
      let position = checked.rule.position;
      if (checked.rule.id !== undefined) {
        const existing = (await store.get(RULE_PREFIX + checked.rule.id)) as Partial<PolicyRule> | undefined;
        if (!existing)
          throw new RuleValidationError([{ field: 'id', message: 'names no saved rule (was it deleted?)' }]);
        createdAt = typeof existing.createdAt === 'number' ? existing.createdAt : at;
        position ??= typeof existing.position === 'number' ? existing.position : undefined;
      }
      // A new rule goes to the end of the person's list.
      position ??= await nextPosition();
      const rule: PolicyRule = {
        ...checked.rule,
        id: checked.rule.id ?? newRecordId(),
        position,
        createdAt,
        updatedAt: at,
      };
      await store.set(RULE_PREFIX + rule.id, rule);
      changed({ kind: 'rules' }, true);
      return rule;
    },
    async moveRule(id, offset) {
      const rules = await loadRules();
      const from = rules.findIndex((rule) => rule.id === id);
      if (from < 0) return false;
      const to = Math.max(0, Math.min(rules.length - 1, from + offset));
      if (to === from) return true;
      const [moved] = rules.splice(from, 1);
      rules.splice(to, 0, moved as PolicyRule);
      // Renumber the whole list: rules saved before there was a list get their place too.
      await Promise.all(
        rules.map((rule, index) =>
          rule.position === index
            ? undefined
            : store.set(RULE_PREFIX + rule.id, { ...rule, position: index }),
        ),
      );
      changed({ kind: 'rules' }, true);
      return true;
    },
    async importRules(inputs) {
      // All or nothing: every rule is checked before any is saved.
      const issues: RuleIssue[] = [];
      const checkedRules: RuleInput[] = [];
      inputs.forEach((input, index) => {
        const { id: _ignored, ...rest } = (
          typeof input === 'object' && input !== null ? input : {}
        ) as Record<string, unknown>;
        const { createdAt: _c, updatedAt: _u, position: _p, ...fields } = rest;
        const checked = checkRule(typeof input === 'object' && input !== null ? fields : input);
        if (checked.ok) checkedRules.push(checked.rule);
        else
          issues.push(
            ...checked.issues.map((issue) => ({ ...issue, field: `rules[${index}].${issue.field}` })),
          );
      });
      if (issues.length > 0) throw new RuleValidationError(issues);
      const at = now();
      let position = await nextPosition();
      const saved: PolicyRule[] = [];
      for (const input of checkedRules) {
        const rule: PolicyRule = {
          ...input,
          id: newRecordId(),
          position: position++,
          createdAt: at,
          updatedAt: at,
        };
        await store.set(RULE_PREFIX + rule.id, rule);
        saved.push(rule);
      }
      changed({ kind: 'rules' }, true);
      return saved;
    },
    async deleteRule(id) {
      if ((await store.get(RULE_PREFIX + id)) === undefined) return false;
      await store.del(RULE_PREFIX + id);
      changed({ kind: 'rules' }, true);
      return true;
    },
    listGrants: () => grants.list(),
    async revokeGrant(id) {
      const revoked = await grants.revoke(id);
      if (revoked) changed({ kind: 'grants' }, true);
      return revoked;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The person's list order: by position; rules saved before there was a list after it, oldest first. */
function inListOrder(a: PolicyRule, b: PolicyRule): number {
  return (
    (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER) ||
    a.createdAt - b.createdAt ||
    (a.id < b.id ? -1 : 1)
  );
}

function describeCapitalized(caller: Parameters<typeof describeCaller>[0]): string {
  const text = describeCaller(caller);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

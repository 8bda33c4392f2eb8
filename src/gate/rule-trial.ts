/**
 * Trying a rule before it is saved: over calls from the audit log, how many it would match, and how
 * many it would decide once the person's other rules have had their say (a deny elsewhere, a more
 * specific rule). The editor says "this rule would have allowed 12 of the last 200 calls".
 */

import type { JsonObject } from '../protocol/index.js';
import type { PolicyRule } from './policy-types.js';
import { chooseRule, compileRule, ruleApplies } from './rules.js';
import type { Caller } from './types.js';

/** A call as the audit log remembers it: enough to match rules against. */
export interface PastCall {
  caller: Caller;
  serverId: string;
  toolName: string;
  arguments: JsonObject;
}

/** What trying a rule found. */
interface RuleTrial {
  /** Calls looked at. */
  total: number;
  /** Calls the rule covers (caller, server, tool and every condition). */
  matched: number;
  /** Calls it would have decided among the other rules (a deny or a more specific rule may win). */
  decided: number;
}

/**
 * Tries `candidate` (a new rule, or an edit replacing the rule with its id) beside `others` on `calls`,
 * as of `at` (an expired candidate decides nothing).
 */
export function tryRule(
  candidate: PolicyRule,
  others: readonly PolicyRule[],
  calls: readonly PastCall[],
  at: number = Date.now(),
): RuleTrial {
  const compiled = compileRule(candidate);
  const all = [compiled, ...others.filter((rule) => rule.id !== candidate.id).map(compileRule)];
  let matched = 0;
  let decided = 0;
  for (const call of calls) {
    if (ruleApplies(compiled, call.caller, call.serverId, call.toolName, call.arguments, at) === 'no')
      continue;
    matched++;
    if (chooseRule(all, call.caller, call.serverId, call.toolName, call.arguments, at)?.rule === candidate)
      decided++;
  }
  return { total: calls.length, matched, decided };
}

/**
 * What made a decision, in a sentence: which rule (by its name), which remembered approval, or which
 * default. The approval dialog's "Why was I asked?" and the audit drawer's "Decided by" both read
 * it, so the two never disagree. The policy's own sentence (`Decision.reason`) is always part of it.
 */

import { type Caller, type Decision, describeCaller } from '../../gate/index.js';

/** Defaults that allow: what applies when no rule or remembered approval does. */
const ALLOWING_DEFAULTS: ReadonlySet<string> = new Set(['trusted-read-only', 'own-access']);

export function whatDecided(decision: Decision, caller: Caller): string {
  const { source, reason } = decision;
  switch (source.kind) {
    case 'rule':
      return decision.verdict === 'ask' ? `${reason} You can change it in the Rules tab.` : reason;
    case 'remembered':
      return `Your remembered approval (${
        source.scope === 'always' ? '“Always allow”' : 'for this session'
      }): ${reason}`;
    case 'validation':
      return reason;
    case 'default': {
      if (source.reason === 'person-started') return 'Your own click on Call.';
      if (source.reason === 'definition-changed')
        return `No rule covers this call, and your earlier approval no longer applies: ${reason}`;
      if (ALLOWING_DEFAULTS.has(source.reason))
        return `No rule or remembered approval covers this call, so your default applied: ${reason}`;
      if (decision.verdict === 'ask')
        return `No rule allows this tool and no approval is remembered for ${describeCaller(
          caller,
        )}, so your default is to ask: ${reason}`;
      return reason;
    }
  }
}

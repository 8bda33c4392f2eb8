import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../audit/index.js';
import { ALL_OUTCOMES } from '../../audit/index.js';
import { compactTime, countOf, decisionInWords, duration, OUTCOME_WORDS } from './audit-words.js';

const base: AuditEntry = {
  invocationId: 'i1',
  serverId: 'sdk',
  toolName: 'echo',
  caller: { kind: 'host', label: 'Notes' },
  startedAt: 0,
  outcome: 'success',
  argumentsPreview: '{}',
  edited: false,
  timestamps: { requested: 0 },
  redactedPaths: [],
  seqs: [1, 2],
  firstSeq: 1,
  sends: 1,
};
/** A call that never left: no sends. */
const { sends: _sends, ...unsent } = base;
const ask = {
  verdict: 'ask' as const,
  source: { kind: 'default' as const, reason: 'untrusted-server' as const },
  reason: 'untrusted',
};

describe('the audit view in words', () => {
  it('labels every outcome without its raw value', () => {
    for (const outcome of ALL_OUTCOMES) {
      const words = OUTCOME_WORDS[outcome];
      expect(words.label).not.toBe(outcome);
      expect(words.label).not.toMatch(/-/);
      expect(words.icon).not.toBe('');
    }
  });

  it('says who decided: you, your own click, the policy, a remembered approval', () => {
    expect(decisionInWords({ ...base, decision: ask, approvedBy: 'person (panel)' })).toBe('You approved');
    expect(
      decisionInWords({
        ...base,
        decision: ask,
        approvedBy:
          'person (panel), acknowledging that the arguments could not be checked against the schema',
      }),
    ).toBe('You approved, confirming you checked the arguments yourself');
    expect(
      decisionInWords({
        ...base,
        caller: { kind: 'person' },
        decision: ask,
        approvedBy: 'person (own click on the form)',
      }),
    ).toBe('Approved by your own click');
    expect(decisionInWords({ ...base, decision: ask, approvedBy: 'ci-bot' })).toBe('Approved by ci-bot');
    expect(
      decisionInWords({
        ...base,
        decision: {
          verdict: 'allow',
          source: { kind: 'remembered', scope: 'always', grantId: 'g' },
          reason: 'grant',
        },
      }),
    ).toBe('Allowed by your earlier “Always allow”');
    expect(
      decisionInWords({
        ...unsent,
        outcome: 'denied',
        decision: {
          verdict: 'deny',
          source: { kind: 'rule', ruleId: 'r' },
          reason: 'writes are off on Fridays',
        },
        reason: 'writes are off on Fridays',
      }),
    ).toBe('Refused by policy: writes are off on Fridays');
    expect(
      decisionInWords({ ...base, outcome: 'denied', decision: ask, reason: 'denied by the person' }),
    ).toBe('Denied by you');
    expect(
      decisionInWords({ ...base, outcome: 'denied', decision: ask, reason: 'denied by the person: too big' }),
    ).toBe('Denied by you: “too big”');
    expect(
      decisionInWords({
        ...base,
        outcome: 'invalid-arguments',
        reason: 'the arguments do not match the input schema',
      }),
    ).toBe('Refused before sending: the arguments do not match the input schema');
  });

  it('writes times compactly: relative today, a date before', () => {
    const now = new Date(2026, 10, 28, 18, 0, 0).getTime();
    expect(compactTime(now - 10_000, now)).toBe('just now');
    expect(compactTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(compactTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(compactTime(new Date(2026, 10, 27, 14, 2).getTime(), now)).toMatch(/27/);
    expect(compactTime(new Date(2026, 10, 27, 14, 2).getTime(), now)).not.toMatch(/ago/);
    expect(compactTime(new Date(2025, 0, 3).getTime(), now)).toMatch(/2025/);
    expect(duration(850)).toBe('850 ms');
    expect(duration(1234)).toBe('1.2 s');
    expect(duration(125_000)).toBe('2 min 5 s');
    expect(countOf(1, 'entry', 'entries')).toBe('1 entry');
    expect(countOf(17, 'event', 'events')).toBe('17 events');
  });
});

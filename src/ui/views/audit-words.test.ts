import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../audit/index.js';
import { ALL_OUTCOMES } from '../../audit/index.js';
import { APPROVED_UNCHECKED_IN_DIALOG, CONFIRMED_OWN_CALL, DECIDED_IN_DIALOG } from './approver-words.js';
import { actionLabel, compactTime, countOf, decisionInWords, OUTCOME_WORDS } from './audit-words.js';

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

  it('says who decided on each path the gate records', () => {
    // The person's own click on Call: the gate records its own decision, person-started.
    expect(
      decisionInWords({
        ...base,
        caller: { kind: 'person' },
        decision: {
          verdict: 'allow',
          source: { kind: 'default', reason: 'person-started' },
          reason: 'You started echo yourself',
        },
        approvedBy: 'you, with the Call button of the tool’s form',
      }),
    ).toBe('Approved by your own click');
    // An answer in the approval dialog, as recorded now and in older logs.
    expect(decisionInWords({ ...base, decision: ask, approvedBy: DECIDED_IN_DIALOG })).toBe(
      'You approved in the approval dialog',
    );
    expect(decisionInWords({ ...base, decision: ask, approvedBy: 'person (panel)' })).toBe(
      'You approved in the approval dialog',
    );
    for (const approvedBy of [
      APPROVED_UNCHECKED_IN_DIALOG,
      'person (panel), acknowledging that the arguments could not be checked against the schema',
    ])
      expect(decisionInWords({ ...base, decision: ask, approvedBy })).toBe(
        'You approved in the approval dialog, confirming you checked the arguments yourself',
      );
    // The compact confirmation of an own call (a destructive tool, or a rule asks).
    expect(
      decisionInWords({ ...base, caller: { kind: 'person' }, decision: ask, approvedBy: CONFIRMED_OWN_CALL }),
    ).toBe('You confirmed your own call');
    expect(decisionInWords({ ...base, decision: ask, approvedBy: 'ci-bot' })).toBe('Approved by ci-bot');
    // A remembered grant.
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
        ...base,
        decision: {
          verdict: 'allow',
          source: { kind: 'remembered', scope: 'session', grantId: 'g' },
          reason: 'grant',
        },
      }),
    ).toBe('Allowed by your earlier approval for this session');
    // Scoped grants (issue 29): the reach and the lifetime are said.
    expect(
      decisionInWords({
        ...base,
        decision: {
          verdict: 'allow',
          source: { kind: 'remembered', scope: 'session', grantId: 'g', reach: 'server' },
          reason: 'grant',
        },
      }),
    ).toBe('Allowed by your earlier approval of the whole server for this session');
    expect(
      decisionInWords({
        ...base,
        decision: {
          verdict: 'allow',
          source: { kind: 'remembered', scope: 'hour', grantId: 'g', reach: 'server-read-only' },
          reason: 'grant',
        },
      }),
    ).toBe('Allowed by your earlier approval of the server’s read-only tools for an hour');
    // A rule, and the policy's default.
    expect(
      decisionInWords({
        ...base,
        decision: { verdict: 'allow', source: { kind: 'rule', ruleId: 'r' }, reason: 'echo is fine' },
      }),
    ).toBe('Allowed by your rule: echo is fine');
    expect(
      decisionInWords({
        ...base,
        decision: {
          verdict: 'allow',
          source: { kind: 'default', reason: 'trusted-read-only' },
          reason: 'a trusted server’s read-only tool',
        },
      }),
    ).toBe('Allowed by policy: a trusted server’s read-only tool');
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
    ).toBe('Refused by your rule: writes are off on Fridays');
    expect(
      decisionInWords({
        ...unsent,
        outcome: 'denied',
        decision: {
          verdict: 'deny',
          source: { kind: 'default', reason: 'caller-must-be-approved' },
          reason: 'this site is not allowed',
        },
        reason: 'this site is not allowed',
      }),
    ).toBe('Refused by policy: this site is not allowed');
    // The person's denial, with and without a reason; denials the panel gave for them.
    expect(
      decisionInWords({ ...base, outcome: 'denied', decision: ask, reason: 'denied by the person' }),
    ).toBe('Denied by you');
    expect(
      decisionInWords({ ...base, outcome: 'denied', decision: ask, reason: 'denied by the person: too big' }),
    ).toBe('Denied by you: “too big”');
    expect(
      decisionInWords({
        ...base,
        outcome: 'denied',
        decision: ask,
        reason: 'denied by the person: the Toolgate panel was closed',
      }),
    ).toBe('Denied because the Toolgate panel was closed; nothing was sent');
    expect(
      decisionInWords({
        ...base,
        outcome: 'invalid-arguments',
        reason: 'the arguments do not match the input schema',
      }),
    ).toBe('Refused before sending: the arguments do not match the input schema');
  });

  it('labels the actions recorded beside tool calls, and says who decided them', () => {
    const signIn = { kind: 'default' as const, reason: 'sign-in' as const };
    const declined: AuditEntry = {
      ...unsent,
      toolName: 'auth/sign-in-declined',
      caller: { kind: 'person' },
      outcome: 'denied',
      decision: { verdict: 'deny', source: signIn, reason: 'You chose not to sign in (Not now)' },
      reason: 'You chose not to sign in (Not now)',
    };
    expect(actionLabel(declined)).toBe('Sign-in declined');
    expect(decisionInWords(declined)).toBe(
      'You declined to sign in (Not now); nothing was sent to the authorization server',
    );
    const allowed = (toolName: string, decision: NonNullable<AuditEntry['decision']>) => ({
      ...base,
      toolName,
      decision,
    });
    const byIssuer = {
      verdict: 'allow' as const,
      source: signIn,
      reason: 'Decided at the authorization server https://as',
    };
    expect(actionLabel(allowed('auth/sign-in', byIssuer))).toBe('Signed in');
    expect(decisionInWords(allowed('auth/sign-in', byIssuer))).toBe(
      'You signed in. Decided at the authorization server https://as',
    );
    expect(decisionInWords(allowed('auth/refresh', byIssuer))).toBe(
      'Renewed by Toolgate. Decided at the authorization server https://as',
    );
    expect(decisionInWords(allowed('auth/sign-out', byIssuer))).toBe('You signed out');
    expect(decisionInWords(allowed('auth/sign-in-failed', byIssuer))).toBe(
      'You started the sign-in; it did not finish',
    );

    expect(actionLabel(allowed('auth/refresh', byIssuer))).toBe('Sign-in renewed');
    expect(actionLabel(allowed('auth/sign-out', byIssuer))).toBe('Signed out');
    expect(actionLabel(allowed('auth/sign-in-failed', byIssuer))).toBe('Sign-in failed');
    const shown = {
      verdict: 'allow' as const,
      source: { kind: 'default' as const, reason: 'app-shown' as const },
      reason: 'shown',
    };
    expect(actionLabel(allowed('apps/show', shown))).toBe('App shown');
    expect(decisionInWords(allowed('apps/show', shown))).toBe('shown');
    const own = {
      verdict: 'allow' as const,
      source: { kind: 'default' as const, reason: 'person-action' as const },
      reason: "the person's own action in the Skills view",
    };
    for (const [name, label] of [
      ['skills/approve', 'Skill approved'],
      ['skills/revoke', 'Skill approval revoked'],
      ['skills/inspect', 'Skill inspected'],
    ])
      expect(actionLabel(allowed(name!, own))).toBe(label);
    expect(decisionInWords(allowed('skills/approve', own))).toBe('Your own action in the Skills view');
    const approvedSkill = {
      verdict: 'allow' as const,
      source: { kind: 'remembered' as const, scope: 'always' as const, grantId: 'a' },
      reason: "the person approved this skill's manifest",
    };
    expect(actionLabel(allowed('skills/load', approvedSkill))).toBe('Skill loaded');
    expect(actionLabel(allowed('skills/read', approvedSkill))).toBe('Skill file read');
    expect(decisionInWords(allowed('skills/load', approvedSkill))).toBe(
      'Allowed by your approval of this skill',
    );
    // A server's tool named like an action is still a tool call: no label it did not earn.
    expect(actionLabel(allowed('auth/sign-in', ask))).toBeUndefined();
    expect(actionLabel(allowed('echo', byIssuer))).toBeUndefined();
  });

  it('writes times compactly: relative today, a date before', () => {
    const now = new Date(2026, 10, 28, 18, 0, 0).getTime();
    expect(compactTime(now - 10_000, now)).toBe('just now');
    expect(compactTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(compactTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(compactTime(new Date(2026, 10, 27, 14, 2).getTime(), now)).toMatch(/27/);
    expect(compactTime(new Date(2026, 10, 27, 14, 2).getTime(), now)).not.toMatch(/ago/);
    expect(compactTime(new Date(2025, 0, 3).getTime(), now)).toMatch(/2025/);
    expect(countOf(1, 'entry', 'entries')).toBe('1 entry');
    expect(countOf(17, 'event', 'events')).toBe('17 events');
  });
});

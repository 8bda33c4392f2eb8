import { describe, expect, it } from 'vitest';
import type { Caller, Decision } from '../../gate/index.js';
import { whatDecided } from './decision-source-words.js';

const app: Caller = { kind: 'host', label: 'Notes' };

describe('what decided, in words', () => {
  it('names the rule, and where to change it when it asked', () => {
    const decision: Decision = {
      verdict: 'ask',
      source: { kind: 'rule', ruleId: 'r1' },
      reason: 'Your rule “Careful” asks about "pay" on "bank".',
    };
    expect(whatDecided(decision, app)).toBe(
      'Your rule “Careful” asks about "pay" on "bank". You can change it in the Rules tab.',
    );
  });

  it('names the remembered approval and its scope', () => {
    const decision: Decision = {
      verdict: 'allow',
      source: { kind: 'remembered', scope: 'always', grantId: 'g1' },
      reason: 'You always allow echo on alpha.',
    };
    expect(whatDecided(decision, app)).toBe(
      'Your remembered approval (“Always allow”): You always allow echo on alpha.',
    );
  });

  it('says that no rule allowed it and the default asked, for whom', () => {
    const decision: Decision = {
      verdict: 'ask',
      source: { kind: 'default', reason: 'untrusted-server' },
      reason: 'alpha is not trusted, so Toolgate asks before every call.',
    };
    expect(whatDecided(decision, app)).toMatch(
      /^No rule allows this tool and no approval is remembered for the app \(?Notes\)?, so your default is to ask: alpha is not trusted/,
    );
    expect(
      whatDecided({ ...decision, source: { kind: 'default', reason: 'definition-changed' } }, app),
    ).toMatch(/^No rule covers this call, and your earlier approval no longer applies/);
  });
});

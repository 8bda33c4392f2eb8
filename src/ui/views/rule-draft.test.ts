import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '../../gate/index.js';
import { draftToInput, emptyCondition, emptyDraft, ruleToDraft } from './rule-draft.js';

describe('the rule editor draft', () => {
  it('reads values as JSON when they can be, lists by commas, ranges as numbers', () => {
    const draft = {
      ...emptyDraft(),
      name: ' Small payments ',
      verdict: 'allow' as const,
      server: 'bank',
      tool: 'pay',
      conditions: [
        { ...emptyCondition(), path: 'amount', op: 'range' as const, min: '0', max: '50' },
        { ...emptyCondition(), path: 'currency', op: 'in' as const, value: 'EUR, USD, 3' },
        { ...emptyCondition(), path: 'memo', op: 'equals' as const, value: 'rent' },
        { ...emptyCondition(), path: 'file', op: 'under' as const, value: '/home/me' },
      ],
    };
    expect(draftToInput(draft)).toEqual({
      issues: [],
      input: {
        verdict: 'allow',
        server: 'bank',
        tool: 'pay',
        name: 'Small payments',
        when: [
          { path: 'amount', op: 'range', value: { min: 0, max: 50 } },
          { path: 'currency', op: 'in', value: ['EUR', 'USD', 3] },
          { path: 'memo', op: 'equals', value: 'rent' },
          { path: 'file', op: 'under', value: '/home/me' },
        ],
      },
    });
  });

  it('says which range end is not a number', () => {
    const draft = {
      ...emptyDraft(),
      conditions: [{ ...emptyCondition(), path: 'n', op: 'range' as const, min: 'ten' }],
    };
    expect(draftToInput(draft).issues).toEqual([{ field: 'when[0].min', message: 'must be a number' }]);
  });

  it('round-trips a saved rule through the editor unchanged (property)', () => {
    const scalar = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(scalar, fc.array(scalar, { minLength: 1, maxLength: 4 }), (equal, list) => {
        const rule: PolicyRule = {
          id: 'r1',
          verdict: 'deny',
          server: 'files',
          tool: 'read_*',
          when: [
            { path: 'a', op: 'equals', value: equal },
            { path: 'b', op: 'in', value: list },
            { path: 'c', op: 'range', value: { max: 3 } },
            { path: 'd', op: 'matches', value: '123' },
          ],
          expiresAt: new Date(2099, 0, 2, 3, 4).getTime(),
          createdAt: 1,
          updatedAt: 1,
        };
        const { id, createdAt, updatedAt, ...input } = rule;
        expect(draftToInput(ruleToDraft(rule))).toEqual({ issues: [], input: { id, ...input } });
      }),
    );
  });
});

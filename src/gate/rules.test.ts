/** Rule patterns are judged by the schema room's ReDoS heuristic: one rule for both, no drift. */
import { describe, expect, it } from 'vitest';
import { catastrophicShape } from '../schema/index.js';
import { patternProblem } from './rules.js';

describe('a rule pattern', () => {
  it.each([
    // Overlapping alternatives under a repeat: the gate's own heuristic used to let this through.
    '(a|ab)*c',
    '(a+)+',
    '(\\w*)*',
  ])('is refused, as a schema pattern would be: %s', (pattern) => {
    expect(catastrophicShape(pattern)).toBeDefined();
    expect(patternProblem(pattern)).toMatch(/exponential time: simplify it$/);
  });

  it.each([
    // Common idioms whose repeated group needs a separator: the gate used to refuse them.
    '^[a-z0-9]+(?:-[a-z0-9]+)*$',
    '^([a-zA-Z0-9-]+\\.)+[a-zA-Z]{2,}$',
  ])('is accepted, as a schema pattern would be: %s', (pattern) => {
    expect(catastrophicShape(pattern)).toBeUndefined();
    expect(patternProblem(pattern)).toBeUndefined();
  });

  it('still says why an empty, overlong or invalid pattern cannot be used', () => {
    expect(patternProblem('')).toMatch(/must not be empty/);
    expect(patternProblem('a'.repeat(10_000))).toMatch(/the limit is/);
    expect(patternProblem('(')).toMatch(/not a valid regular expression/);
  });
});

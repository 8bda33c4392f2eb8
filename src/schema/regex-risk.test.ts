/**
 * The one ReDoS heuristic. Schema patterns from servers (guards.ts) and the person's rule patterns
 * (gate/rules.ts) both go through it; the cases below are the union of what each used to check.
 */
import { describe, expect, it } from 'vitest';
import { catastrophicShape } from './regex-risk.js';

describe('catastrophic regex shapes', () => {
  it.each([
    '(a+)+$',
    '(a+)+',
    '^(a*)*b',
    '(\\w*)*',
    '(.*)*',
    '(.*a){2,}',
    '(a|a)*',
    '(a|ab)+c',
    '^(\\w+\\s?)+$',
    '^((a+))+$',
    '^(?:[a-z]+ ?)*$',
    '(x+x+)+y',
    '^(\\d+){1,10}$',
  ])('flags %s', (pattern) => {
    expect(catastrophicShape(pattern)).toMatch(/exponential time$/);
  });

  it.each([
    '^[a-z0-9]+(?:-[a-z0-9]+)*$',
    '^([a-zA-Z0-9-]+\\.)+[a-zA-Z]{2,}$',
    '^\\d{3}-\\d{4}$',
    '^(\\+\\d{1,3})?\\d{10}$',
    '^[A-Z]{2}\\d{2}(?: ?\\d{4}){4}$',
    '^(\\s*,\\s*\\w+)*$',
    '^\\p{L}+$',
    '^[^,]+(,[^,]+)*$',
    '^(?<year>\\d{4})-(?<month>\\d{2})$',
    '\\u{1F600}+',
    '[(a+)+]',
    '\\(a+\\)+',
  ])('lets %s through', (pattern) => {
    expect(catastrophicShape(pattern)).toBeUndefined();
  });
});

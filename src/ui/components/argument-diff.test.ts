import { describe, expect, it } from 'vitest';
import { argumentChanges, MAX_CHANGES } from './argument-diff.js';

describe('argumentChanges', () => {
  it('finds nothing when the arguments are the same', () => {
    expect(argumentChanges({ a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [1, 2] } })).toEqual([]);
  });

  it('lists changed, added and removed fields by their path', () => {
    expect(
      argumentChanges(
        { message: 'first', options: { loud: false, tone: 'calm' }, tags: ['a'] },
        { message: 'second', options: { loud: true }, tags: ['a', 'b'], extra: 1 },
      ),
    ).toEqual([
      { path: 'message', before: 'first', after: 'second' },
      { path: 'options.loud', before: false, after: true },
      { path: 'options.tone', before: 'calm' },
      { path: 'tags', before: ['a'], after: ['a', 'b'] },
      { path: 'extra', after: 1 },
    ]);
  });

  it('quotes keys that are not identifiers, so a dot in a key is not read as a level', () => {
    expect(argumentChanges({ 'a.b': 1 }, { 'a.b': 2 })).toEqual([{ path: '["a.b"]', before: 1, after: 2 }]);
  });

  it('stops at a bound however many fields changed', () => {
    const before = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]));
    const after = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, -i - 1]));
    expect(argumentChanges(before, after)).toHaveLength(MAX_CHANGES);
  });
});

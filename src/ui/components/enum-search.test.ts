import { describe, expect, it } from 'vitest';
import { ENUM_MATCHES_SHOWN, findMatches } from './enum-search.js';

const values = Array.from({ length: 100_000 }, (_, i) => `value-${i}`);

describe('findMatches (the big-enum search)', () => {
  it('lists the first values and counts all of them when nothing is typed', () => {
    const { first, total } = findMatches(values, '  ');
    expect(total).toBe(100_000);
    expect(first).toEqual(Array.from({ length: ENUM_MATCHES_SHOWN }, (_, i) => i));
  });

  it('counts every match but lists only the first ones, in order', () => {
    const { first, total } = findMatches(values, 'value-9999');
    // value-9999 and value-99990 … value-99999
    expect(total).toBe(11);
    expect(first.map((i) => values[i])).toEqual([
      'value-9999',
      ...Array.from({ length: 10 }, (_, i) => `value-9999${i}`),
    ]);
    const wide = findMatches(values, '12');
    expect(wide.first).toHaveLength(ENUM_MATCHES_SHOWN);
    expect(wide.total).toBe(values.filter((v) => v.includes('12')).length);
    expect(wide.first.every((i) => values[i]!.includes('12'))).toBe(true);
  });

  it('ignores case (labels come lowered) and surrounding spaces', () => {
    const lowered = ['north', 'south', 'north-east'];
    expect(findMatches(lowered, ' NORTH ')).toEqual({ first: [0, 2], total: 2 });
  });

  it('finds nothing without failing', () => {
    expect(findMatches(values, 'zebra')).toEqual({ first: [], total: 0 });
  });
});

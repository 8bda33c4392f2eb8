import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../protocol/index.js';
import { canonicalText } from './canonical-text.js';

describe('canonical text for the chain', () => {
  it('is exactly canonicalJson for any JSON value (the hashes, the offline verifier depend on it)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalText(value)).toBe(canonicalJson(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('drops undefined members, writes undefined array items as null, sorts keys at every level', () => {
    const value = { b: [undefined, { d: 1, c: undefined }], a: 'é\u2028"', e: -0 };
    expect(canonicalText(value)).toBe(canonicalJson(value));
    expect(canonicalText(value)).toBe('{"a":"é\u2028\\"","b":[null,{"d":1}],"e":0}');
  });

  it('refuses what JSON cannot hold, as canonicalJson does', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, () => 1, 10n, Symbol('s')]) {
      expect(() => canonicalText({ x: bad }), String(bad)).toThrow(TypeError);
      expect(() => canonicalJson({ x: bad }), String(bad)).toThrow(TypeError);
    }
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalText(cycle)).toThrow(/cycle/);
  });
});

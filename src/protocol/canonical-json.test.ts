import { describe, expect, it } from 'vitest';
import { canonicalJson, quickHash, sha256Hex } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });
  it('gives equal text for equal values in any key order', () => {
    expect(canonicalJson({ x: 1, y: [1, 2] })).toBe(canonicalJson({ y: [1, 2], x: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });
  it('escapes strings as JSON does, and writes undefined array items as null', () => {
    expect(canonicalJson(['\u202e"\n', undefined])).toBe('["\u202e\\"\\n",null]');
  });
  it('refuses what JSON cannot hold', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow('NaN');
    expect(() => canonicalJson({ f: () => 1 })).toThrow('function');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow('cycle');
  });
  it('allows the same object twice when it is not a cycle', () => {
    const shared = { a: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"a":1},{"a":1}]');
  });
});

describe('hashes', () => {
  it('sha256Hex matches the known digest of "abc"', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
  it('quickHash is stable and sensitive to one character', () => {
    expect(quickHash('{"type":"object"}')).toBe(quickHash('{"type":"object"}'));
    expect(quickHash('{"type":"object"}')).not.toBe(quickHash('{"type":"objecT"}'));
  });
});

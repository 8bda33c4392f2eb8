/**
 * The form's walk of a server's schema is bounded by construction (issue 24): a chain of thousands
 * of `$ref`s once took over a second of the page's main thread to open. Counted in hops, not timed.
 */
import { describe, expect, it } from 'vitest';
import { withDefaults } from './schema-form.js';

/** `#/$defs/a0` → `a1` → … → the last, an object whose `x` has a default. */
function refChain(length: number) {
  const $defs: Record<string, object> = {};
  for (let i = 0; i < length - 1; i++) $defs[`a${i}`] = { $ref: `#/$defs/a${i + 1}` };
  $defs[`a${length - 1}`] = { type: 'object', properties: { x: { type: 'number', default: 1 } } };
  return { $ref: '#/$defs/a0', $defs };
}

describe('the schema form follows references within a bound', () => {
  it('follows a short chain to its end', () => {
    expect(withDefaults(refChain(10), {})).toEqual({ x: 1 });
  });

  it('stops a chain of 5,000 references after the validator’s own depth bound (a JSON field)', () => {
    expect(withDefaults(refChain(5_000), {})).toEqual({});
  });

  it('stops at the bound exactly: 32 references are followed, 33 are not', () => {
    // refChain(n) holds n references: the root's and n - 1 in $defs.
    expect(withDefaults(refChain(32), {})).toEqual({ x: 1 });
    expect(withDefaults(refChain(33), {})).toEqual({});
  });
});

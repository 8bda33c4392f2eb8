import { describe, expect, it } from 'vitest';
import { extraArguments } from './undeclared-arguments.js';

describe('extraArguments', () => {
  const declared = { type: 'object', properties: { to: { type: 'string' }, body: { type: 'string' } } };

  it('lists the proposed keys the schema does not declare, in the order proposed', () => {
    expect(extraArguments(declared, { cc: 'x', to: 'a', bcc: 'y', body: 'b' })).toEqual([
      { key: 'cc', status: 'undeclared' },
      { key: 'bcc', status: 'undeclared' },
    ]);
    expect(extraArguments(declared, { to: 'a' })).toEqual([]);
  });

  it('says which are forbidden (additionalProperties or unevaluatedProperties false)', () => {
    expect(extraArguments({ ...declared, additionalProperties: false }, { bcc: 'y' })).toEqual([
      { key: 'bcc', status: 'forbidden' },
    ]);
    expect(extraArguments({ ...declared, unevaluatedProperties: false }, { bcc: 'y' })).toEqual([
      { key: 'bcc', status: 'forbidden' },
    ]);
  });

  it('counts names matched by patternProperties as declared by pattern, and never claims forbidden on a pattern it cannot read', () => {
    const schema = { ...declared, patternProperties: { '^x-': {} }, additionalProperties: false };
    expect(extraArguments(schema, { 'x-trace': 1, other: 2 })).toEqual([
      { key: 'x-trace', status: 'pattern' },
      { key: 'other', status: 'forbidden' },
    ]);
    const unreadable = { ...declared, patternProperties: { '(?<': {} }, additionalProperties: false };
    expect(extraArguments(unreadable, { other: 2 })).toEqual([{ key: 'other', status: 'undeclared' }]);
  });

  it('does not mistake inherited names for declared ones', () => {
    expect(extraArguments(declared, { toString: 'x', constructor: 'y' })).toEqual([
      { key: 'toString', status: 'undeclared' },
      { key: 'constructor', status: 'undeclared' },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { objectParameters } from './parameters.js';

describe('objectParameters', () => {
  it('passes an object schema through unchanged', () => {
    const schema = {
      type: 'object',
      properties: { q: { type: 'string' }, tags: { type: 'array', items: { $ref: '#/$defs/tag' } } },
      required: ['q'],
      additionalProperties: false,
      $defs: { tag: { type: 'string' } },
    };
    expect(objectParameters(schema)).toEqual(schema);
  });

  it('adds empty properties to a schema that has none', () => {
    expect(objectParameters({ type: 'object' })).toEqual({ type: 'object', properties: {} });
    expect(objectParameters({})).toEqual({ type: 'object', properties: {} });
  });

  it('flattens a union root: every branch’s properties, required only what all branches require', () => {
    expect(
      objectParameters({
        type: 'object',
        properties: { verbose: { type: 'boolean' } },
        anyOf: [
          { properties: { id: { type: 'string' }, scope: { type: 'string' } }, required: ['id', 'scope'] },
          {
            properties: { email: { type: 'string' }, scope: { type: 'string' } },
            required: ['email', 'scope'],
          },
        ],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        verbose: { type: 'boolean' },
        id: { type: 'string' },
        scope: { type: 'string' },
        email: { type: 'string' },
      },
      required: ['scope'],
    });
  });

  it('merges allOf branches, requirements included, and drops enum/const/not at the root', () => {
    expect(
      objectParameters({
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { $ref: '#/$defs/withB' },
        ],
        not: { required: ['c'] },
        $defs: { withB: { properties: { b: { type: 'number' } }, required: ['b'] } },
      }),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a', 'b'],
      $defs: { withB: { properties: { b: { type: 'number' } }, required: ['b'] } },
    });
  });

  it('inlines a root $ref and keeps the definitions it still points into', () => {
    const defs = {
      Input: { type: 'object', properties: { item: { $ref: '#/$defs/Item' } }, required: ['item'] },
      Item: { type: 'string' },
    };
    expect(objectParameters({ $ref: '#/$defs/Input', $defs: defs })).toEqual({
      type: 'object',
      properties: { item: { $ref: '#/$defs/Item' } },
      required: ['item'],
      $defs: defs,
    });
  });

  it('survives a root $ref cycle', () => {
    expect(objectParameters({ $ref: '#', description: 'loops' })).toEqual({
      description: 'loops',
      type: 'object',
      properties: {},
    });
  });

  it('merges a branch property named `constructor` like any other', () => {
    expect(
      objectParameters({
        anyOf: [{ properties: { constructor: { type: 'string' } }, required: ['constructor'] }],
      }),
    ).toEqual({ type: 'object', properties: { constructor: { type: 'string' } }, required: ['constructor'] });
  });
});

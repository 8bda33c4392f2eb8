import { describe, expect, it } from 'vitest';
import { toGeminiSchema } from './gemini-schema.js';

describe('toGeminiSchema', () => {
  it('keeps the supported keywords and drops the rest', () => {
    expect(
      toGeminiSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        $id: 'urn:x',
        type: 'object',
        title: 'Search',
        description: 'Search options',
        properties: {
          query: { type: 'string', minLength: 1, pattern: '^\\S', description: 'What to look for' },
          when: { type: 'string', format: 'date-time' },
          email: { type: 'string', format: 'email' },
          limit: { type: 'integer', format: 'int32', default: 10, examples: [5] },
        },
        required: ['query', 'ghost'],
        additionalProperties: false,
      }),
    ).toEqual({
      type: 'object',
      description: 'Search options',
      properties: {
        query: { type: 'string', description: 'What to look for' },
        when: { type: 'string', format: 'date-time' },
        email: { type: 'string' },
        limit: { type: 'integer', format: 'int32' },
      },
      required: ['query'],
    });
  });

  it('inlines $defs refs and cuts recursion to a shallow stand-in', () => {
    const schema = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      $defs: {
        node: {
          type: 'object',
          description: 'A tree node',
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
        },
      },
    };
    expect(toGeminiSchema(schema)).toEqual({
      type: 'object',
      properties: {
        root: {
          type: 'object',
          description: 'A tree node',
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { type: 'object', description: 'A tree node' } },
          },
        },
      },
    });
  });

  it('turns type lists and null branches into nullable', () => {
    expect(toGeminiSchema({ type: ['string', 'null'] })).toEqual({ type: 'string', nullable: true });
    expect(toGeminiSchema({ anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'n' })).toEqual({
      type: 'integer',
      nullable: true,
      description: 'n',
    });
    expect(toGeminiSchema({ type: ['string', 'number'] })).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }],
    });
  });

  it('keeps real unions as anyOf', () => {
    expect(
      toGeminiSchema({
        oneOf: [
          { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: false },
          { type: 'string', const: 'all' },
        ],
      }),
    ).toEqual({
      anyOf: [
        { type: 'object', properties: { id: { type: 'string' } } },
        { type: 'string', enum: ['all'] },
      ],
    });
  });

  it('keeps string enums, and states other allowed values in the description', () => {
    expect(toGeminiSchema({ enum: ['a', 'b'] })).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(toGeminiSchema({ type: 'integer', enum: [1, 2], description: 'Level.' })).toEqual({
      type: 'integer',
      description: 'Level. Allowed values: 1, 2.',
    });
  });

  it('merges allOf into one schema', () => {
    expect(
      toGeminiSchema({
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'boolean' } }, required: ['b'] },
        ],
      }),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'boolean' } },
      required: ['a', 'b'],
    });
  });

  it('gives every array typed items, and drops empty properties', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        properties: {
          anything: { type: 'array' },
          pair: { type: 'array', items: [{ type: 'number' }, { type: 'string' }] },
          free: { type: 'object', additionalProperties: { type: 'string' } },
          empty: { type: 'object', properties: {} },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        anything: { type: 'array', items: { type: 'string' } },
        pair: { type: 'array', items: { type: 'number' } },
        free: { type: 'object' },
        empty: { type: 'object' },
      },
    });
  });

  it('uses a title as the description when there is no description', () => {
    expect(toGeminiSchema({ type: 'string', title: 'City' })).toEqual({
      type: 'string',
      description: 'City',
    });
  });

  it('treats property names like `constructor` and `__proto__` as plain names', () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"constructor":{"type":"string"},"__proto__":{"type":"number"}},' +
        '"required":["constructor","__proto__","toString"]}',
    );
    const converted = toGeminiSchema(schema);
    expect(Object.keys(converted.properties as object)).toEqual(['constructor', '__proto__']);
    expect(converted.required).toEqual(['constructor', '__proto__']);
  });
});

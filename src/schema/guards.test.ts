import { afterEach, describe, expect, it, vi } from 'vitest';
import { inspectSchema, inspectValue } from './guards.js';
import { createSchemaValidator, DEFAULT_SCHEMA_LIMITS } from './index.js';
import type { ValidationReport } from './report.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function reasonOf(report: ValidationReport): string {
  if (report.status !== 'skipped') throw new Error(`expected skipped, got ${JSON.stringify(report)}`);
  return report.reason;
}

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { next: schema } };
  return schema;
}

/** `a0` is a string; every `a{n}` is allOf [a{n-1}, a{n-1}]: 2^n subschemas per validation. */
function fanOut(levels: number): Record<string, unknown> {
  const $defs: Record<string, unknown> = { a0: { type: 'string' } };
  for (let n = 1; n <= levels; n++)
    $defs[`a${n}`] = { allOf: [{ $ref: `#/$defs/a${n - 1}` }, { $ref: `#/$defs/a${n - 1}` }] };
  return { $defs, $ref: `#/$defs/a${levels}` };
}

function chain(length: number): Record<string, unknown> {
  const $defs: Record<string, unknown> = { [`c${length}`]: { type: 'string' } };
  for (let n = 0; n < length; n++) $defs[`c${n}`] = { $ref: `#/$defs/c${n + 1}` };
  return { $defs, $ref: '#/$defs/c0' };
}

describe.each(['auto', 'ajv', 'cfworker'] as const)(
  'schema bombs are refused before any engine (%s)',
  (engine) => {
    const validate = (schema: unknown, value: unknown = 'x') =>
      createSchemaValidator({ engine }).validate(schema, value);

    it('size: a schema over 512 KB', async () => {
      const schema = { type: 'string', description: 'x'.repeat(600 * 1024) };
      expect(reasonOf(await validate(schema))).toBe('the schema is larger than 512 KB');
    });

    it('depth: nesting over 64 levels', async () => {
      expect((await validate(nested(20), {})).status).toBe('valid');
      expect(reasonOf(await validate(nested(40), {}))).toMatch(
        /^the schema is nested deeper than 64 levels \(at /,
      );
    });

    it('values: more than maxSchemaNodes', async () => {
      const properties = Object.fromEntries(
        Array.from({ length: 30_000 }, (_, i) => [`p${i}`, { type: 'string' }]),
      );
      expect(reasonOf(await validate({ type: 'object', properties }, {}))).toBe(
        'the schema has more than 50000 values',
      );
    });

    it('enum: more than 5,000 values', async () => {
      const values = Array.from({ length: 5_001 }, (_, i) => `v${i}`);
      expect((await validate({ enum: values.slice(0, 5_000) }, 'v1')).status).toBe('valid');
      expect(reasonOf(await validate({ type: 'object', properties: { pick: { enum: values } } }, {}))).toBe(
        'an enum at properties.pick lists 5001 values (the limit is 5000)',
      );
    });

    it('references: more than 1,000', async () => {
      const properties = Object.fromEntries(
        Array.from({ length: 1_001 }, (_, i) => [`p${i}`, { $ref: '#/$defs/s' }]),
      );
      const schema = { $defs: { s: { type: 'string' } }, type: 'object', properties };
      expect(reasonOf(await validate(schema, {}))).toBe('the schema has more than 1000 references');
    });

    it('reference chains deeper than 32', async () => {
      expect(await validate(chain(10))).toMatchObject({ status: 'valid' });
      expect(reasonOf(await validate(chain(40)))).toBe('references nest more than 32 deep (a $ref chain)');
    });

    it('reference fan-out (a "billion laughs" of $refs)', async () => {
      expect(await validate(fanOut(5))).toMatchObject({ status: 'valid' });
      expect(reasonOf(await validate(fanOut(30)))).toBe(
        'references expand to more than 100000 subschemas per validation',
      );
    });

    it('remote $refs: refused, never fetched', async () => {
      const fetchSpy = vi.spyOn(globalThis, 'fetch');
      const schema = { type: 'object', properties: { a: { $ref: 'https://schemas.example/address.json' } } };
      expect(reasonOf(await validate(schema, {}))).toBe(
        'the reference "https://schemas.example/address.json" at properties.a points outside the schema; Toolgate never fetches remote schemas',
      );
      expect(reasonOf(await validate({ $ref: 'other.json#/defs/x' }, {}))).toMatch(
        /points outside the schema/,
      );
      expect(fetchSpy).not.toHaveBeenCalled();
    });

    it('local $refs that point nowhere', async () => {
      expect(reasonOf(await validate({ $ref: '#/$defs/missing' }))).toBe(
        'the reference "#/$defs/missing" at (root) points nowhere in the schema',
      );
    });

    it('resolves $id-based and anchor references inside the document', async () => {
      const schema = {
        $id: 'https://example.com/root.json',
        type: 'object',
        properties: {
          a: { $ref: 'https://example.com/root.json#/$defs/name' },
          b: { $ref: 'item.json' },
          c: { $ref: '#short' },
        },
        $defs: {
          name: { type: 'string' },
          item: { $id: 'item.json', type: 'integer' },
          short: { $anchor: 'short', type: 'boolean' },
        },
      };
      expect(await validate(schema, { a: 'x', b: 1, c: true })).toMatchObject({ status: 'valid' });
      expect(await validate(schema, { a: 1, b: 'x', c: 0 })).toMatchObject({ status: 'invalid' });
    });

    it('patterns: too long, invalid, catastrophic; patternProperties keys too', async () => {
      const long = { type: 'string', pattern: 'a'.repeat(1_001) };
      expect(reasonOf(await validate(long))).toMatch(
        /^the pattern at \(root\) "a{57}\.\.\." is longer than 1000 characters$/,
      );
      expect(reasonOf(await validate({ type: 'string', pattern: '(' }))).toMatch(
        /^the pattern at \(root\) "\(" is not a valid regular expression/,
      );
      expect(
        reasonOf(await validate({ type: 'object', properties: { id: { pattern: '^(a+)+$' } } }, {})),
      ).toBe(
        'the pattern at properties.id "^(a+)+$" repeats a group whose body is itself repeatable (like (a+)+), which can take exponential time',
      );
      expect(
        reasonOf(await validate({ type: 'object', patternProperties: { '^(\\w+\\s?)*$': {} } }, {})),
      ).toMatch(/^the patternProperties key at \(root\) "\^\(\\\\w\+\\\\s\?\)\*\$" repeats a group/);
    });

    it('a property named like a keyword is a name, not a keyword', async () => {
      const schema = {
        type: 'object',
        properties: { pattern: { type: 'string' }, enum: { type: 'array' }, $ref: { type: 'number' } },
      };
      expect(await validate(schema, { pattern: '(a+)+', enum: [], $ref: 1 })).toMatchObject({
        status: 'valid',
      });
    });

    it('values: over 1 MB, nested over 256 levels, long arrays under uniqueItems', async () => {
      expect(reasonOf(await validate({ type: 'string' }, 'x'.repeat(1024 * 1024 + 1)))).toBe(
        'the value is larger than 1 MB of JSON',
      );
      let deep: unknown = 1;
      for (let i = 0; i < 300; i++) deep = [deep];
      expect(reasonOf(await validate({ type: 'array' }, deep))).toBe(
        'the value is nested deeper than 256 levels',
      );
      const unique = { type: 'object', properties: { ids: { type: 'array', uniqueItems: true } } };
      const ids = Array.from({ length: 2_001 }, (_, i) => i);
      expect(reasonOf(await validate(unique, { ids }))).toBe(
        'an array in the value has 2001 items, over the 2000 checked for uniqueItems',
      );
      expect(await validate(unique, { ids: ids.slice(0, 2_000) })).toMatchObject({ status: 'valid' });
      expect(await validate({ type: 'array' }, ids)).toMatchObject({ status: 'valid' });
    });
  },
);

describe('limits are configurable', () => {
  it('tighter limits trip earlier and say so', async () => {
    const validator = createSchemaValidator({ limits: { maxSchemaDepth: 4, maxValueChars: 10 } });
    expect(reasonOf(await validator.validate(nested(3), {}))).toMatch(/deeper than 4 levels/);
    expect(reasonOf(await validator.validate({ type: 'string' }, 'x'.repeat(20)))).toBe(
      'the value is larger than 10 characters of JSON',
    );
  });
});

describe('inspectSchema / inspectValue', () => {
  it('record what validation needs', () => {
    expect(inspectSchema({ type: 'array', uniqueItems: true }, DEFAULT_SCHEMA_LIMITS)).toEqual({
      ok: true,
      facts: { uniqueItems: true },
    });
    expect(inspectValue({ a: [1, 2, 3], b: 'xy' }, DEFAULT_SCHEMA_LIMITS)).toMatchObject({
      ok: true,
      longestArray: 3,
      needsJsonRoundTrip: false,
    });
    for (const odd of [{ a: undefined }, { d: new Date(0) }, [Number.NaN], () => 1])
      expect(inspectValue(odd, DEFAULT_SCHEMA_LIMITS)).toMatchObject({ ok: true, needsJsonRoundTrip: true });
  });
});

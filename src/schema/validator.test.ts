import AjvCore from 'ajv/dist/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSchemaValidator, type SchemaValidator } from './index.js';
import type { SchemaIssue, ValidationReport } from './report.js';

const ENGINES = ['ajv', 'cfworker'] as const;

/** Ajv's compile, shared by the 2020-12, 2019-09 and draft-07 classes: counts real compiles. */
function spyCompile() {
  return vi.spyOn(AjvCore.prototype, 'compile');
}

function issuesOf(report: ValidationReport): SchemaIssue[] {
  if (report.status !== 'invalid') throw new Error(`expected invalid, got ${JSON.stringify(report)}`);
  return report.issues;
}

const sorted = (issues: SchemaIssue[]) => {
  const key = (issue: SchemaIssue) => `${issue.path}\u0000${issue.message}`;
  return [...issues].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(ENGINES)('engine %s', (engine) => {
  const validator = (): SchemaValidator => createSchemaValidator({ engine });
  /** The issues of an invalid report, which this engine must have produced. */
  const issuesOf = (report: ValidationReport): SchemaIssue[] => {
    expect(report).toMatchObject({ status: 'invalid', engine });
    return report.status === 'invalid' ? report.issues : [];
  };

  describe('dialects', () => {
    it('uses 2020-12 when $schema is absent: prefixItems with items: false', async () => {
      const v = validator();
      const tuple = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false };
      expect(await v.validate(tuple, ['a', 1])).toEqual({ status: 'valid', engine });
      expect(issuesOf(await v.validate(tuple, ['a', 'b']))).toEqual([
        { path: '[1]', message: 'must be a number' },
      ]);
      expect((await v.validate(tuple, ['a', 1, 2])).status).toBe('invalid');
    });

    it('reads draft-07 from $schema (with or without the trailing #): array-form items and additionalItems', async () => {
      const v = validator();
      for (const $schema of [
        'http://json-schema.org/draft-07/schema#',
        'https://json-schema.org/draft-07/schema',
      ]) {
        const tuple = {
          $schema,
          type: 'array',
          items: [{ type: 'string' }, { type: 'number' }],
          additionalItems: false,
        };
        expect(await v.validate(tuple, ['a', 1])).toEqual({ status: 'valid', engine });
        expect(issuesOf(await v.validate(tuple, ['a', 'b']))).toEqual([
          { path: '[1]', message: 'must be a number' },
        ]);
        expect((await v.validate(tuple, ['a', 1, true])).status).toBe('invalid');
      }
    });

    it('reads 2019-09 from $schema: unevaluatedProperties and dependentRequired', async () => {
      const v = validator();
      const schema = {
        $schema: 'https://json-schema.org/draft/2019-09/schema',
        type: 'object',
        properties: { a: {}, b: {} },
        dependentRequired: { a: ['b'] },
        unevaluatedProperties: false,
      };
      expect(await v.validate(schema, { a: 1, b: 2 })).toEqual({ status: 'valid', engine });
      expect(sorted(issuesOf(await v.validate(schema, { a: 1, c: 3 })))).toEqual([
        { path: 'b', message: 'is required when "a" is present' },
        { path: 'c', message: 'is not allowed' },
      ]);
    });

    it('skips unknown dialects with a notice, and never throws', async () => {
      const v = validator();
      for (const $schema of [
        'http://json-schema.org/draft-04/schema#',
        'https://example.com/my-dialect',
        42,
      ]) {
        const report = await v.validate({ $schema, type: 'object' }, {});
        expect(report.status).toBe('skipped');
        expect(report.status === 'skipped' && report.reason).toMatch(/^unsupported JSON Schema dialect/);
        expect(report.status === 'skipped' && report.reason).toContain(
          '2020-12 (the default), 2019-09 and draft-07',
        );
      }
    });
  });

  describe('formats', () => {
    const schema = {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        homepage: { type: 'string', format: 'uri' },
        since: { type: 'string', format: 'date-time' },
      },
    };

    it('accepts well-formed values', async () => {
      const value = {
        email: 'a@example.com',
        homepage: 'https://example.com/x?y=1',
        since: '2026-05-01T10:00:00Z',
      };
      expect(await validator().validate(schema, value)).toEqual({ status: 'valid', engine });
    });

    it('names each malformed one', async () => {
      const value = { email: 'not an email', homepage: 'not a uri', since: '2026-05-01' };
      expect(sorted(issuesOf(await validator().validate(schema, value)))).toEqual([
        { path: 'email', message: 'must be a valid email' },
        { path: 'homepage', message: 'must be a valid uri' },
        { path: 'since', message: 'must be a valid date-time' },
      ]);
    });
  });

  describe('paths a person can read', () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1 },
        days: { type: 'integer', minimum: 1, maximum: 16 },
        units: { enum: ['metric', 'imperial'] },
        address: {
          type: 'object',
          properties: { zip: { type: 'string', pattern: '^\\d{5}$' }, street: { type: 'string' } },
          required: ['zip'],
        },
        items: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          maxItems: 5,
        },
        'first name': { type: 'string' },
        nickname: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['city'],
      additionalProperties: false,
    };

    it('maps nested objects, arrays, required and additionalProperties alike on both engines', async () => {
      const value = {
        days: 0,
        units: 'kelvin',
        address: { street: 5 },
        items: [{ name: 'a' }, { name: 'b' }, { name: 3 }, {}],
        'first name': false,
        nickname: 7,
        extra: true,
      };
      expect(sorted(issuesOf(await validator().validate(schema, value)))).toEqual([
        { path: '["first name"]', message: 'must be a string' },
        { path: 'address.street', message: 'must be a string' },
        { path: 'address.zip', message: 'is required' },
        { path: 'city', message: 'is required' },
        { path: 'days', message: 'must be >= 1' },
        { path: 'extra', message: 'is not allowed' },
        { path: 'items[2].name', message: 'must be a string' },
        { path: 'items[3].name', message: 'is required' },
        { path: 'nickname', message: 'must be a string or null' },
        { path: 'units', message: 'must be one of "metric", "imperial"' },
      ]);
    });

    it('words limits, patterns and the root the same way', async () => {
      const v = validator();
      const value = {
        city: '',
        days: 20,
        address: { zip: 'abc' },
        items: [{ name: 'a' }, { name: 'a' }, {}, {}, {}, {}],
      };
      expect(sorted(issuesOf(await v.validate(schema, value)))).toEqual([
        { path: 'address.zip', message: 'must match the pattern ^\\d{5}$' },
        { path: 'city', message: 'must have at least 1 character' },
        { path: 'days', message: 'must be <= 16' },
        { path: 'items', message: 'must have at most 5 items' },
        { path: 'items[2].name', message: 'is required' },
        { path: 'items[3].name', message: 'is required' },
        { path: 'items[4].name', message: 'is required' },
        { path: 'items[5].name', message: 'is required' },
      ]);
      expect(issuesOf(await v.validate(schema, 'Paris'))).toEqual([
        { path: '(root)', message: 'must be an object' },
      ]);
    });

    it('follows $ref when reading back limits', async () => {
      const withRef = {
        $defs: { port: { type: 'integer', minimum: 1024, exclusiveMaximum: 65536 } },
        type: 'object',
        properties: {
          port: { $ref: '#/$defs/port' },
          tags: { type: 'array', uniqueItems: true, minItems: 1 },
        },
      };
      expect(sorted(issuesOf(await validator().validate(withRef, { port: 80, tags: [] })))).toEqual([
        { path: 'port', message: 'must be >= 1024' },
        { path: 'tags', message: 'must have at least 1 item' },
      ]);
      expect(issuesOf(await validator().validate(withRef, { port: 65536, tags: ['a', 'b', 'a'] }))).toEqual(
        expect.arrayContaining([
          { path: 'port', message: 'must be < 65536' },
          { path: 'tags', message: 'must not contain duplicate items (items 0 and 2 are equal)' },
        ]),
      );
    });

    it('deduplicates and caps the list with "and N more"', async () => {
      const v = validator();
      const twice = { allOf: [{ required: ['a'] }, { required: ['a'] }] };
      expect(issuesOf(await v.validate(twice, {}))).toEqual([{ path: 'a', message: 'is required' }]);
      const many = { type: 'object', required: Array.from({ length: 30 }, (_, i) => `p${i}`) };
      const issues = issuesOf(await v.validate(many, {}));
      expect(issues).toHaveLength(21);
      expect(issues[0]).toEqual({ path: 'p0', message: 'is required' });
      expect(issues[20]).toEqual({ path: '…', message: 'and 10 more' });
    });

    it('reports oneOf matching several, not, const, contains and propertyNames', async () => {
      const v = validator();
      const schema2 = {
        type: 'object',
        properties: {
          id: { oneOf: [{ type: 'number' }, { type: 'integer' }] },
          mode: { not: { const: 'unsafe' } },
          version: { const: 2 },
          list: { type: 'array', contains: { type: 'string' } },
          map: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } },
        },
      };
      expect(
        sorted(
          issuesOf(
            await v.validate(schema2, { id: 1, mode: 'unsafe', version: 1, list: [1, 2], map: { OK: 1 } }),
          ),
        ),
      ).toEqual([
        { path: 'id', message: 'must match exactly one of the alternatives, but matches several' },
        { path: 'list', message: 'must contain at least 1 matching item' },
        { path: 'map', message: 'has a property name that is not allowed: "OK"' },
        { path: 'mode', message: 'must not match the excluded schema' },
        { path: 'version', message: 'must be 2' },
      ]);
    });
  });

  describe('values', () => {
    it('validates what JSON would send: undefined members are absent', async () => {
      const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] };
      expect(await validator().validate(schema, { a: undefined, b: 1 })).toEqual({ status: 'valid', engine });
      expect(issuesOf(await validator().validate(schema, { b: undefined }))).toEqual([
        { path: 'b', message: 'is required' },
      ]);
    });

    it('never throws: cycles, BigInt, undefined at the root, sloppy schemas', async () => {
      const v = validator();
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      const object = { type: 'object' };
      expect((await v.validate(object, cycle)).status).toBe('skipped');
      expect((await v.validate(object, { n: 10n })).status).toBe('skipped');
      expect(issuesOf(await v.validate(object, undefined))).toEqual([
        { path: '(root)', message: 'is not a JSON value' },
      ]);
      // draft-03 style `required: true` (seen in the wild): neither engine can use it; skipped, not passed.
      const sloppy = { type: 'object', properties: { a: { type: 'string' } }, required: true };
      const report = await v.validate(sloppy, { a: 'x' });
      expect(report.status).toBe('skipped');
      expect(report.status === 'skipped' && report.reason).toMatch(
        /^could not validate against this schema: /,
      );
    });

    it('accepts boolean schemas and refuses non-schemas', async () => {
      const v = validator();
      expect(await v.validate(true, { anything: 1 })).toEqual({ status: 'valid', engine });
      expect(issuesOf(await v.validate(false, 1))).toEqual([{ path: '(root)', message: 'is not allowed' }]);
      for (const notSchema of [null, 3, 'object', [{ type: 'string' }]])
        expect(await v.validate(notSchema, 1)).toEqual({
          status: 'skipped',
          reason: 'the schema is not a JSON Schema (an object or a boolean)',
        });
    });

    it('validates recursive schemas', async () => {
      const tree = {
        $defs: {
          node: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              children: { type: 'array', items: { $ref: '#/$defs/node' } },
            },
            required: ['name'],
          },
        },
        $ref: '#/$defs/node',
      };
      const v = validator();
      expect(await v.validate(tree, { name: 'a', children: [{ name: 'b', children: [] }] })).toEqual({
        status: 'valid',
        engine,
      });
      expect(
        issuesOf(await v.validate(tree, { name: 'a', children: [{ children: [{ name: 1 }] }] })),
      ).toEqual(
        expect.arrayContaining([
          { path: 'children[0].name', message: 'is required' },
          { path: 'children[0].children[0].name', message: 'must be a string' },
        ]),
      );
    });

    it('does not modify the schema it is given', async () => {
      const schema = Object.freeze({
        type: 'object',
        properties: Object.freeze({ a: Object.freeze({ $ref: '#/$defs/a' }) }),
        $defs: Object.freeze({ a: Object.freeze({ type: 'string' }) }),
      });
      const before = JSON.stringify(schema);
      expect(issuesOf(await validator().validate(schema, { a: 1 }))).toEqual([
        { path: 'a', message: 'must be a string' },
      ]);
      expect(JSON.stringify(schema)).toBe(before);
      expect(Object.getOwnPropertyNames(schema.properties.a)).toEqual(['$ref']);
    });
  });
});

describe('caching', () => {
  it('compiles once for two equal schemas in different objects (any key order)', async () => {
    const compile = spyCompile();
    const v = createSchemaValidator({ engine: 'ajv' });
    const one = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const two = { required: ['a'], properties: { a: { type: 'string' } }, type: 'object' };
    expect((await v.validate(one, { a: 'x' })).status).toBe('valid');
    expect((await v.validate(two, {})).status).toBe('invalid');
    expect((await v.validate(one, { a: 1 })).status).toBe('invalid');
    expect(compile).toHaveBeenCalledTimes(1);
    expect(v.stats()).toMatchObject({ prepared: 2, schemas: 1, ajvCompiles: 1, cfworkerBuilds: 0 });
    expect((await v.prepare(one)).hash).toBe((await v.prepare(two)).hash);
  });

  it('builds one cfworker validator for equal schemas too', async () => {
    const v = createSchemaValidator({ engine: 'cfworker' });
    await v.validate({ type: 'string', minLength: 2 }, 'ab');
    await v.validate({ minLength: 2, type: 'string' }, 'a');
    expect(v.stats()).toMatchObject({ schemas: 1, cfworkerBuilds: 1, ajvCompiles: 0 });
  });

  it('lists 10,000 distinct schemas without compiling (or hashing) any until one is validated', async () => {
    const compile = spyCompile();
    const v = createSchemaValidator({ engine: 'ajv' });
    const schemas = Array.from({ length: 10_000 }, (_, i) => ({
      type: 'object',
      properties: { [`p${i}`]: { type: 'integer' } },
    }));
    const prepared = await Promise.all(schemas.map((schema) => v.prepare(schema)));
    expect(compile).not.toHaveBeenCalled();
    expect(v.stats()).toMatchObject({ prepared: 10_000, schemas: 0, ajvCompiles: 0, cfworkerBuilds: 0 });
    expect(await v.prepare(schemas[5])).toBe(prepared[5]);
    expect(issuesOf((prepared[42] as (typeof prepared)[number]).validate({ p42: 'x' }))).toEqual([
      { path: 'p42', message: 'must be an integer' },
    ]);
    expect(compile).toHaveBeenCalledTimes(1);
    expect(v.stats()).toMatchObject({ schemas: 1, ajvCompiles: 1 });
  });
});

describe('auto: cfworker first, Ajv for schemas in repeated use', () => {
  const schema = { type: 'object', properties: { n: { type: 'number' } } };

  it('promotes a schema to Ajv in the background after promoteAfter validations', async () => {
    const compile = spyCompile();
    const v = createSchemaValidator({ promoteAfter: 3 });
    expect(await v.engine()).toBe('ajv');
    const prepared = await v.prepare(schema);
    const engines = [];
    for (let i = 0; i < 3; i++) engines.push((prepared.validate({ n: i }) as { engine: string }).engine);
    expect(engines).toEqual(['cfworker', 'cfworker', 'cfworker']);
    expect(compile).not.toHaveBeenCalled(); // never on the call path
    await v.idle();
    expect(compile).toHaveBeenCalledTimes(1);
    expect(prepared.validate({ n: 1 })).toEqual({ status: 'valid', engine: 'ajv' });
    expect(issuesOf(prepared.validate({ n: 'x' }))).toEqual([{ path: 'n', message: 'must be a number' }]);
    expect(v.stats()).toMatchObject({ ajvCompiles: 1, cfworkerBuilds: 1 });
  });

  it('counts big values as more work', async () => {
    const v = createSchemaValidator({ promoteAfter: 3 });
    const prepared = await v.prepare({ type: 'string' });
    prepared.validate('x'.repeat(10_000));
    await v.idle();
    expect(prepared.validate('x')).toEqual({ status: 'valid', engine: 'ajv' });
  });

  it('keeps a schema on cfworker when Ajv refuses to compile it', async () => {
    spyCompile().mockImplementation(() => {
      throw new Error('strict mode: unknown keyword');
    });
    const v = createSchemaValidator({ promoteAfter: 1 });
    const prepared = await v.prepare(schema);
    prepared.validate({ n: 1 });
    await v.idle();
    expect(prepared.validate({ n: 1 })).toEqual({ status: 'valid', engine: 'cfworker' });
    expect(await v.engine()).toBe('ajv');
  });
});

describe('where eval is blocked', () => {
  const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
  const cspProbe = () => {
    throw new EvalError(
      "Evaluating a string as JavaScript violates the following Content Security Policy directive because 'unsafe-eval' is not an allowed source of script",
    );
  };

  it.each(['auto', 'ajv'] as const)(
    'a failing probe sends engine %s to cfworker and never loads Ajv',
    async (engine) => {
      const compile = spyCompile();
      const v = createSchemaValidator({ engine, evalProbe: cspProbe, promoteAfter: 1 });
      expect(await v.engine()).toBe('cfworker');
      expect(await v.validate(schema, { n: 1 })).toEqual({ status: 'valid', engine: 'cfworker' });
      expect(issuesOf(await v.validate(schema, {}))).toEqual([{ path: 'n', message: 'is required' }]);
      await v.idle();
      expect(compile).not.toHaveBeenCalled();
      expect(v.stats().ajvUnavailable).toMatch(/does not allow eval/);
    },
  );

  it('an EvalError from Ajv compile itself falls back to cfworker for this and every later schema', async () => {
    const compile = spyCompile().mockImplementation(() => {
      throw new EvalError(
        'Refused to evaluate a string as JavaScript because of the Content Security Policy',
      );
    });
    const v = createSchemaValidator({ engine: 'ajv' });
    expect(await v.engine()).toBe('ajv');
    expect(await v.validate(schema, { n: 1 })).toEqual({ status: 'valid', engine: 'cfworker' });
    expect(issuesOf(await v.validate(schema, { n: 'x' }))).toEqual([
      { path: 'n', message: 'must be a number' },
    ]);
    expect(await v.validate({ type: 'string' }, 's')).toEqual({ status: 'valid', engine: 'cfworker' });
    expect(compile).toHaveBeenCalledTimes(1);
    expect(await v.engine()).toBe('cfworker');
    expect(v.stats().ajvUnavailable).toMatch(/^eval is blocked here/);
  });

  it('the same in auto mode, during a background promotion', async () => {
    const compile = spyCompile().mockImplementation(() => {
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    const v = createSchemaValidator({ promoteAfter: 1 });
    const prepared = await v.prepare(schema);
    expect(prepared.validate({ n: 1 })).toEqual({ status: 'valid', engine: 'cfworker' });
    await v.idle();
    expect(prepared.validate({ n: 1 })).toEqual({ status: 'valid', engine: 'cfworker' });
    expect(compile).toHaveBeenCalledTimes(1);
    expect(await v.engine()).toBe('cfworker');
  });
});

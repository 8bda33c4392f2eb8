import { describe, expect, it } from 'vitest';
import { headerBindings, mirroredHeaders } from './tool-checks.js';
import { toolNameProblem, toolShapeProblem } from './tool-problems.js';

describe('toolNameProblem (2025-11-25 naming rules)', () => {
  it.each(['getUser', 'DATA_EXPORT_v2', 'admin.tools.list', 'a', 'x'.repeat(128)])('accepts %s', (name) => {
    expect(toolNameProblem(name)).toBeUndefined();
  });
  it.each([
    ['', 'empty'],
    ['x'.repeat(129), '129 characters'],
    ['get user', 'characters'],
    ['a,b', 'characters'],
    ['naïve', 'characters'],
  ])('flags %j (%s)', (name, reason) => {
    expect(toolNameProblem(name)).toContain(reason);
  });
});

describe('x-mcp-header bindings (2026-07-28)', () => {
  it('reads bindings reachable through properties, nested ones too', () => {
    const result = headerBindings({
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        query: { type: 'string' },
        scope: { type: 'object', properties: { tenant: { type: 'integer', 'x-mcp-header': 'Tenant' } } },
      },
    });
    expect(result).toEqual({
      bindings: [
        { header: 'Region', path: ['region'] },
        { header: 'Tenant', path: ['scope', 'tenant'] },
      ],
    });
  });

  it.each([
    [{ properties: { n: { type: 'number', 'x-mcp-header': 'N' } } }, 'string, integer or boolean'],
    [
      {
        properties: {
          a: { type: 'string', 'x-mcp-header': 'Dup' },
          b: { type: 'string', 'x-mcp-header': 'dup' },
        },
      },
      'used twice',
    ],
    [{ properties: { a: { type: 'string', 'x-mcp-header': 'Bad Name' } } }, 'not a valid header name'],
    [{ properties: { a: { type: 'string', 'x-mcp-header': '' } } }, 'non-empty'],
    [
      { properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } } },
      'only allowed on properties reachable',
    ],
    [
      { oneOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] },
      'only allowed on properties reachable',
    ],
    [{ $defs: { a: { type: 'string', 'x-mcp-header': 'A' } } }, 'only allowed on properties reachable'],
  ])('rejects %j', (schema, reason) => {
    const result = headerBindings({ type: 'object', ...schema });
    expect('problem' in result && result.problem).toContain(reason);
  });

  it('mirrors present values, omits null/absent/unsafe integers, encodes through the given encoder', () => {
    const bindings = [
      { header: 'Region', path: ['region'] },
      { header: 'Tenant', path: ['scope', 'tenant'] },
      { header: 'Flag', path: ['flag'] },
      { header: 'Missing', path: ['missing'] },
      { header: 'Null', path: ['nothing'] },
      { header: 'Huge', path: ['huge'] },
    ];
    const headers = mirroredHeaders(
      bindings,
      { region: 'us-west1', scope: { tenant: 42 }, flag: false, nothing: null, huge: 2 ** 60 },
      (v) => `<${v}>`,
    );
    expect(headers).toEqual({
      'Mcp-Param-Region': '<us-west1>',
      'Mcp-Param-Tenant': '<42>',
      'Mcp-Param-Flag': '<false>',
    });
  });
});

describe('toolShapeProblem', () => {
  it('names the JSON type an inputSchema has instead of an object, and who must fix it', () => {
    const problem = (inputSchema: unknown) => toolShapeProblem({ name: 't', inputSchema });
    expect(problem('object')).toBe(
      'inputSchema is a string, not an object: the server must fix its tool definition',
    );
    expect(problem(null)).toBe('inputSchema is null, not an object: the server must fix its tool definition');
    expect(problem([{ type: 'object' }])).toBe(
      'inputSchema is an array, not an object: the server must fix its tool definition',
    );
    expect(problem(42)).toBe(
      'inputSchema is a number, not an object: the server must fix its tool definition',
    );
    expect(toolShapeProblem({ name: 't' })).toBe(
      'it has no inputSchema (an object is required): the server must fix its tool definition',
    );
    expect(toolShapeProblem({ name: 7, inputSchema: {} })).toBe(
      'its name is a number, not a string: the server must fix its tool definition',
    );
    expect(toolShapeProblem('tool')).toBe(
      'the listing entry is a string, not an object: the server must fix its tool definition',
    );
    expect(toolShapeProblem({ name: 't', inputSchema: { type: 'object' } })).toBeUndefined();
  });
});

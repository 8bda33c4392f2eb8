import { describe, expect, it } from 'vitest';
import { checkToolOutput, createSchemaValidator } from './index.js';

const tool = {
  outputSchema: {
    type: 'object',
    properties: { temperature: { type: 'number' }, conditions: { type: 'string' } },
    required: ['temperature'],
  },
};

describe('checkToolOutput', () => {
  const validator = createSchemaValidator({ engine: 'cfworker' });

  it('has nothing to check without an outputSchema', async () => {
    expect(
      await checkToolOutput({}, { content: [], structuredContent: { anything: 1 } }, validator),
    ).toBeUndefined();
  });

  it('exempts tool errors (isError: true), even with mismatching structuredContent', async () => {
    const result = {
      content: [{ type: 'text' as const, text: 'boom' }],
      isError: true,
      structuredContent: { x: 1 },
    };
    expect(await checkToolOutput(tool, result, validator)).toBeUndefined();
  });

  it('passes conforming structuredContent', async () => {
    const result = { content: [], structuredContent: { temperature: 21.5, conditions: 'sunny' } };
    expect(await checkToolOutput(tool, result, validator)).toEqual({ status: 'valid', engine: 'cfworker' });
  });

  it('reports a mismatch with paths', async () => {
    const result = { content: [], structuredContent: { temperature: 'warm' } };
    expect(await checkToolOutput(tool, result, validator)).toEqual({
      status: 'invalid',
      engine: 'cfworker',
      issues: [{ path: 'temperature', message: 'must be a number' }],
    });
  });

  it('reports missing structuredContent when an outputSchema is declared', async () => {
    const report = await checkToolOutput(tool, { content: [{ type: 'text', text: '{}' }] }, validator);
    expect(report).toEqual({
      status: 'invalid',
      engine: 'cfworker',
      issues: [
        {
          path: '(root)',
          message: 'is missing: the tool declares an outputSchema but its result has no structuredContent',
        },
      ],
    });
  });

  it('skips (never passes) an outputSchema it cannot use', async () => {
    const bomb = { outputSchema: { type: 'string', pattern: '(a+)+$' } };
    const report = await checkToolOutput(bomb, { content: [], structuredContent: 'aaa' }, validator);
    expect(report?.status).toBe('skipped');
  });

  it('uses the shared validator when none is given', async () => {
    const result = { content: [], structuredContent: { temperature: 3 } };
    expect(await checkToolOutput(tool, result)).toMatchObject({ status: 'valid' });
  });
});

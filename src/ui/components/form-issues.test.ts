/**
 * The form's fields and the validator's issues meet on one path: each rule the form checks as the
 * person types (required, type, pattern, range, lengths) lands on the field that holds the value,
 * nested objects, array items and odd keys included, checked with the real validator.
 */
import { describe, expect, it } from 'vitest';
import { createSchemaValidator } from '../../schema/index.js';
import { type FormIssues, groupIssues, itemPath, keyPath, messagesAt } from './form-issues.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
    count: { type: 'integer', minimum: 1, maximum: 3 },
    'odd key': { type: 'string' },
    address: {
      type: 'object',
      properties: { zip: { type: 'string', pattern: '^\\d{5}$' } },
      required: ['zip'],
    },
    tags: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
  },
  required: ['name', 'count'],
};

async function issuesOf(value: Record<string, unknown>) {
  const report = await createSchemaValidator().validate(schema, value);
  return groupIssues(report.status === 'invalid' ? report.issues : []);
}

const everyField = (byPath: Map<string, string[]>): FormIssues => ({ byPath, all: true, touched: new Set() });

describe('issues on the fields that hold them', () => {
  it('puts required, type, pattern, range and length on each field', async () => {
    const byPath = await issuesOf({ name: 'A', count: 9, 'odd key': 4, address: { zip: 'x' }, tags: [''] });
    const issues = everyField(byPath);
    expect(messagesAt(issues, keyPath('', 'name'), true)).toEqual([
      'must have at least 2 characters',
      'must match the pattern ^[a-z]+$',
    ]);
    expect(messagesAt(issues, keyPath('', 'count'), true)).toEqual(['must be <= 3']);
    expect(messagesAt(issues, keyPath('', 'odd key'), true)).toEqual(['must be a string']);
    expect(messagesAt(issues, keyPath(keyPath('', 'address'), 'zip'), true)).toEqual([
      'must match the pattern ^\\d{5}$',
    ]);
    expect(messagesAt(issues, itemPath(keyPath('', 'tags'), 0), true)).toEqual([
      'must have at least 1 character',
    ]);
  });

  it('marks a missing required value on its own field, and a too-short list on the list', async () => {
    const issues = everyField(await issuesOf({ address: {}, tags: [] }));
    expect(messagesAt(issues, 'name', true)).toEqual(['is required']);
    expect(messagesAt(issues, 'count', true)).toEqual(['is required']);
    expect(messagesAt(issues, 'address.zip', true)).toEqual(['is required']);
    // A fieldset shows only its own (the list's length), not its items'.
    expect(messagesAt(issues, 'tags', false)).toEqual(['must have at least 1 item']);
  });

  it('gives a JSON field the issues inside its value, each with the rest of its path', async () => {
    const issues = everyField(await issuesOf({ name: 'abc', count: 1, address: { zip: 1 } }));
    expect(messagesAt(issues, 'address', true)).toEqual(['zip must be a string']);
    expect(messagesAt(issues, 'address', false)).toEqual([]);
  });

  it('shows nothing on a field the person has not edited until they press Call', async () => {
    const byPath = await issuesOf({});
    const touched = new Set<string>();
    expect(messagesAt({ byPath, all: false, touched }, 'name', true)).toEqual([]);
    touched.add('name');
    expect(messagesAt({ byPath, all: false, touched }, 'name', true)).toEqual(['is required']);
    expect(messagesAt({ byPath, all: false, touched }, 'count', true)).toEqual([]);
  });
});

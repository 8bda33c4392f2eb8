/**
 * Realistic tool schemas for the schema bench: the shapes MCP servers publish (a dozen properties,
 * strings with formats, enums and patterns, bounded integers, a nested object, an array of objects),
 * varied per index so every schema is distinct, plus arguments that satisfy each one.
 */

/** The `i`-th distinct tool inputSchema. */
export function toolSchema(i: number): Record<string, unknown> {
  return {
    type: 'object',
    description: `Tool number ${i}: looks things up and returns a summary.`,
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 500, description: 'What to look for' },
      [`field${i}`]: { type: 'string', description: `A field only tool ${i} has` },
      limit: { type: 'integer', minimum: 1, maximum: 100 + (i % 50), default: 10 },
      units: { type: 'string', enum: ['metric', 'imperial', 'kelvin'] },
      email: { type: 'string', format: 'email' },
      since: { type: 'string', format: 'date-time' },
      homepage: { type: 'string', format: 'uri' },
      slug: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' },
      verbose: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 20, uniqueItems: true },
      address: {
        type: 'object',
        properties: { street: { type: 'string' }, city: { type: 'string' }, zip: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
      items: {
        type: 'array',
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, quantity: { type: 'number', exclusiveMinimum: 0 } },
          required: ['name'],
        },
      },
    },
    required: ['query'],
    additionalProperties: false,
  };
}

/** Arguments that satisfy every toolSchema. */
export const VALID_ARGS = Object.freeze({
  query: 'weather in Paris',
  limit: 5,
  units: 'metric',
  email: 'someone@example.com',
  since: '2026-05-01T10:00:00Z',
  homepage: 'https://example.com/home',
  slug: 'paris-weather',
  verbose: true,
  tags: ['weather', 'paris'],
  address: { city: 'Paris', zip: '75001' },
  items: [
    { name: 'umbrella', quantity: 1 },
    { name: 'coat', quantity: 2 },
  ],
});

/** Arguments with five problems, for the cost of a failing validation. */
export const INVALID_ARGS = Object.freeze({
  query: '',
  limit: 0,
  units: 'parsecs',
  email: 'nope',
  address: { zip: 75001 },
  extra: true,
});

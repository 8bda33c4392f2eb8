/** Which JSON Schema dialect a schema is written in, read from its root `$schema`. */

/** The dialects Toolgate validates. */
export type Dialect = '2020-12' | '2019-09' | 'draft-07';

type DialectChoice = { dialect: Dialect } | { unsupported: string };

const KNOWN: Record<string, Dialect> = {
  'json-schema.org/draft/2020-12/schema': '2020-12',
  'json-schema.org/draft/2019-09/schema': '2019-09',
  'json-schema.org/draft-07/schema': 'draft-07',
};

/** 2020-12 when `$schema` is absent (as MCP specifies); `unsupported` carries a sentence for the person. */
export function dialectOf(schema: unknown): DialectChoice {
  if (typeof schema !== 'object' || schema === null || !('$schema' in schema)) return { dialect: '2020-12' };
  const declared = (schema as { $schema: unknown }).$schema;
  if (typeof declared === 'string') {
    const key = declared
      .trim()
      .replace(/^https?:\/\//, '')
      .replace(/#$/, '')
      .replace(/\/$/, '');
    const dialect = KNOWN[key];
    if (dialect) return { dialect };
  }
  const shown = typeof declared === 'string' ? `"${declared.slice(0, 120)}"` : 'a non-string value';
  return {
    unsupported: `unsupported JSON Schema dialect ${shown} in $schema: Toolgate validates 2020-12 (the default), 2019-09 and draft-07`,
  };
}

/**
 * Bounds on what the validator accepts: a schema or value over any of them is not validated (the
 * report says `skipped` and names the limit), so a hostile server cannot stall the page.
 */

/** Every bound the validator enforces. */
export interface SchemaLimits {
  /** Canonical JSON length of a schema, in characters. */
  maxSchemaChars: number;
  /** Nesting depth of a schema document (objects and arrays). */
  maxSchemaDepth: number;
  /** JSON values in a schema document. */
  maxSchemaNodes: number;
  /** Values in one `enum`. */
  maxEnumValues: number;
  /** `$ref`s (and `$dynamicRef`/`$recursiveRef`) in a schema document. */
  maxRefs: number;
  /** References followed one inside another (a chain of `$ref` → `$ref` → ...). */
  maxRefDepth: number;
  /** Subschemas one validation pass may visit once references are expanded (catches ref fan-out bombs). */
  maxRefExpansion: number;
  /** Length of one `pattern` or `patternProperties` key. */
  maxPatternLength: number;
  /** Approximate JSON size of a value to validate, in characters. */
  maxValueChars: number;
  /** Nesting depth of a value to validate. */
  maxValueDepth: number;
  /** Longest array checked against `uniqueItems` (a quadratic check). */
  maxUniqueItems: number;
  /** Issues listed in one report; the rest are summarized as "and N more". */
  maxIssues: number;
}

/** The defaults: generous for real tool schemas, small enough to keep a validation in milliseconds. */
export const DEFAULT_SCHEMA_LIMITS: Readonly<SchemaLimits> = Object.freeze({
  maxSchemaChars: 512 * 1024,
  maxSchemaDepth: 64,
  maxSchemaNodes: 50_000,
  maxEnumValues: 5_000,
  maxRefs: 1_000,
  maxRefDepth: 32,
  maxRefExpansion: 100_000,
  maxPatternLength: 1_000,
  maxValueChars: 1024 * 1024,
  maxValueDepth: 256,
  maxUniqueItems: 2_000,
  maxIssues: 20,
});

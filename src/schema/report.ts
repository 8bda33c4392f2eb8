/** What a schema check reports: shared by the validators, the gate and the views. */

/** One problem with arguments or a result, at a path a person can read (`items[2].name`, or `(root)`). */
export interface SchemaIssue {
  path: string;
  message: string;
}

/** Outcome of checking a value against a schema. `skipped` never counts as valid. */
export type ValidationReport =
  | { status: 'valid'; engine: ValidatorEngine }
  | { status: 'invalid'; engine: ValidatorEngine; issues: SchemaIssue[] }
  | { status: 'skipped'; reason: string };

export type ValidatorEngine = 'ajv' | 'cfworker';

/**
 * Step 7 of the pipeline: a result's structuredContent against the tool's outputSchema. Tool errors
 * (`isError: true`) are exempt; a declared outputSchema with no structuredContent is a mismatch.
 */

import type { CallToolResult, Tool } from '../protocol/index.js';
import type { ValidationReport } from './report.js';
import { type SchemaValidator, sharedSchemaValidator } from './validator.js';

/** Undefined when there is nothing to check (no outputSchema, or a tool error); never rejects. */
export async function checkToolOutput(
  tool: Pick<Tool, 'outputSchema'>,
  result: CallToolResult,
  validator: SchemaValidator = sharedSchemaValidator(),
): Promise<ValidationReport | undefined> {
  if (tool.outputSchema === undefined || result.isError === true) return undefined;
  if (result.structuredContent === undefined) {
    return {
      status: 'invalid',
      engine: await validator.engine(),
      issues: [
        {
          path: '(root)',
          message: 'is missing: the tool declares an outputSchema but its result has no structuredContent',
        },
      ],
    };
  }
  return validator.validate(tool.outputSchema, result.structuredContent);
}

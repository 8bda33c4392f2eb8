/**
 * Stands in for src/schema/ajv-engine.ts in the service worker's build (scripts/build-extension.mjs
 * aliases it). MV3 forbids eval in extension workers, so Ajv, which compiles schemas to code, can
 * never run there; the worker's validator is set to the interpreting engine (cfworker) and never
 * asks for Ajv. This keeps Ajv's code out of the worker file altogether, and says so if reached.
 */
import type { AjvInstance, Dialect } from '../src/schema/index.js';

export type { AjvInstance, AjvValidateFunction } from '../src/schema/index.js';

export async function createAjv(_dialect: Dialect): Promise<AjvInstance> {
  throw new Error(
    'Ajv is not part of the extension worker: its CSP forbids eval, so schemas are interpreted.',
  );
}

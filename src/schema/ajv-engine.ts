/**
 * Ajv, loaded on first need (a separate chunk of ~40 KB gzip) with one instance per dialect and
 * ajv-formats added. Options: `strict: false` because servers write sloppy schemas; `allErrors` so a
 * person sees every problem at once; no meta-schema validation (it cost ~70 ms on the first compile
 * and cfworker, used first, does not do it either).
 */

import type { Dialect } from './dialect.js';
import type { AjvErrorLike } from './issues.js';

/** A compiled Ajv validator, as used here. */
export interface AjvValidateFunction {
  (value: unknown): boolean;
  errors?: readonly AjvErrorLike[] | null;
}

/** The part of an Ajv instance used here. */
export interface AjvInstance {
  compile(schema: unknown): AjvValidateFunction;
}

const OPTIONS = {
  strict: false,
  allErrors: true,
  validateSchema: false,
  meta: false,
  addUsedSchema: false,
  logger: false,
  loopEnum: 64,
  loopRequired: 64,
} as const;

type AjvClass = new (options: typeof OPTIONS) => AjvInstance;

async function ajvClass(dialect: Dialect): Promise<AjvClass> {
  // Literal specifiers, so the bundler splits each dialect (and Ajv's core) into its own chunk.
  const module =
    dialect === '2020-12'
      ? await import('ajv/dist/2020')
      : dialect === '2019-09'
        ? await import('ajv/dist/2019')
        : await import('ajv');
  return module.default as unknown as AjvClass;
}

/** A fresh Ajv instance for `dialect`, with formats. */
export async function createAjv(dialect: Dialect): Promise<AjvInstance> {
  const [Ajv, formats] = await Promise.all([ajvClass(dialect), import('ajv-formats')]);
  const ajv = new Ajv(OPTIONS);
  (formats.default as unknown as (ajv: AjvInstance) => void)(ajv);
  return ajv;
}

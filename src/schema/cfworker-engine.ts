/**
 * @cfworker/json-schema: an interpreting validator (no eval), usable under any CSP, in MV3 service
 * workers and content scripts. Imported statically: it is small, it is the first engine every schema
 * meets, and a service worker cannot load chunks with import().
 */

import { dereference, type Schema, validate } from '@cfworker/json-schema';
import type { Dialect } from './dialect.js';
import type { CfworkerUnitLike } from './issues.js';

const DRAFTS = { '2020-12': '2020-12', '2019-09': '2019-09', 'draft-07': '7' } as const;

/** A built cfworker validator plus what issue mapping needs to read the schema back. */
export interface CfworkerValidator {
  validate(value: unknown): { valid: boolean; errors: readonly CfworkerUnitLike[] };
  root: unknown;
  lookup: Record<string, unknown>;
}

/** Builds a validator over `schema`, which cfworker annotates in place: pass a private copy. */
export function createCfworker(schema: object | boolean, dialect: Dialect): CfworkerValidator {
  const root = schema as Schema | boolean;
  const draft = DRAFTS[dialect];
  const lookup = dereference(root);
  return {
    validate: (value) => validate(value, root, draft, lookup, false),
    root,
    lookup,
  };
}

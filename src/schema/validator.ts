/**
 * The validator facade. One core path: a schema is registered (guards, dialect, hash; nothing
 * compiled), and each validation runs the engine the schema has now. In `auto`, every schema starts
 * on @cfworker/json-schema (built in microseconds, no eval) and, once it has been validated often
 * enough to repay a compile, Ajv (loaded on first need) compiles it in the background; where eval is
 * blocked (one probe per realm, or an EvalError from Ajv itself) everything stays on cfworker.
 */

import { canonicalJson, quickHash } from '../protocol/index.js';
import { type AjvInstance, type AjvValidateFunction, createAjv } from './ajv-engine.js';
import { type CfworkerValidator, createCfworker } from './cfworker-engine.js';
import { type Dialect, dialectOf } from './dialect.js';
import { evalAllowed, isEvalBlocked } from './eval-probe.js';
import { inspectSchema, inspectValue, type SchemaFacts } from './guards.js';
import { finishIssues, fromAjv, fromCfworker } from './issues.js';
import { DEFAULT_SCHEMA_LIMITS, type SchemaLimits } from './limits.js';
import type { SchemaIssue, ValidationReport, ValidatorEngine } from './report.js';

/** Which engine validates: `auto` is cfworker first and Ajv for schemas in repeated use, where eval works. */
export type EngineChoice = 'auto' | 'ajv' | 'cfworker';

export interface SchemaValidatorOptions {
  /** Default `auto`. `ajv` compiles on first validation (falling back to cfworker where eval is blocked). */
  engine?: EngineChoice;
  /** Overrides of DEFAULT_SCHEMA_LIMITS. */
  limits?: Partial<SchemaLimits>;
  /**
   * `auto` only: cfworker validations of one schema before Ajv compiles it (a value every 4 KB of
   * JSON counts once more). Default 200: about where one Ajv compile pays for itself (bench/schema.mjs).
   */
  promoteAfter?: number;
  /** Code that needs eval; a throw means eval is blocked. Default: `new Function`, probed once per realm. */
  evalProbe?: () => unknown;
}

/** A registered schema: validation is synchronous and never throws. */
export interface PreparedSchema {
  /** The cache key (hashes of the schema's canonical JSON); empty when the schema is refused. */
  readonly hash: string;
  /** Why every validation against this schema is skipped (a limit, an unsupported dialect), if so. */
  readonly skipReason: string | undefined;
  /** Checks a value against the schema. */
  validate(value: unknown): ValidationReport;
}

/** Counters for tests and benchmarks. */
export interface SchemaValidatorStats {
  /** Schema objects prepared (registered by identity; nothing else is done until first use). */
  prepared: number;
  /** Distinct schemas in use (by content: equal schemas in different objects count once). */
  schemas: number;
  ajvCompiles: number;
  cfworkerBuilds: number;
  /** Why Ajv is not used, when eval turned out to be blocked or Ajv failed to load. */
  ajvUnavailable: string | undefined;
}

/** The facade the gate uses for inputSchema and outputSchema checks. */
export interface SchemaValidator {
  /** Registers a schema (guards, hash and compile wait for first use) and loads what validation needs. */
  prepare(schema: unknown): Promise<PreparedSchema>;
  /** `prepare(schema)` then `validate(value)`; never rejects. */
  validate(schema: unknown, value: unknown): Promise<ValidationReport>;
  /** The engine for schemas in steady use: `ajv`, or `cfworker` where eval is blocked or chosen. */
  engine(): Promise<ValidatorEngine>;
  /** Resolves when no background compile is queued. */
  idle(): Promise<void>;
  stats(): SchemaValidatorStats;
}

interface Entry {
  hash: string;
  /** The first schema object seen with this content; schemas are treated as immutable once prepared. */
  source: object | boolean;
  dialect: Dialect;
  facts: SchemaFacts;
  cf?: CfworkerValidator;
  ajv?: AjvValidateFunction;
  /** Validation work done on cfworker, in validations (see promoteAfter). */
  work: number;
  promotion: 'none' | 'queued' | 'done';
}

const DEFAULT_PROMOTE_AFTER = 200;
const BYTES_PER_EXTRA_WORK = 4096;

/** Creates a validator with its own caches and Ajv instances. */
export function createSchemaValidator(options: SchemaValidatorOptions = {}): SchemaValidator {
  const mode = options.engine ?? 'auto';
  const limits: SchemaLimits = { ...DEFAULT_SCHEMA_LIMITS, ...options.limits };
  const promoteAfter = Math.max(1, options.promoteAfter ?? DEFAULT_PROMOTE_AFTER);
  const byIdentity = new WeakMap<object, PreparedSchema>();
  const byHash = new Map<string, Entry>();
  const ajvLoading = new Map<Dialect, Promise<AjvInstance | undefined>>();
  const ajvReady = new Map<Dialect, AjvInstance>();
  const promotions: Entry[] = [];
  let draining: Promise<void> | undefined;
  let evalVerdict: boolean | undefined;
  let ajvUnavailable: string | undefined;
  let ajvCompiles = 0;
  let cfworkerBuilds = 0;
  let handles = 0;

  const ajvWanted = (): boolean => {
    if (mode === 'cfworker' || ajvUnavailable !== undefined) return false;
    evalVerdict ??= evalAllowed(options.evalProbe);
    if (!evalVerdict) ajvUnavailable = 'this page does not allow eval (Content Security Policy)';
    return evalVerdict;
  };

  const ensureAjv = (dialect: Dialect): Promise<AjvInstance | undefined> => {
    let pending = ajvLoading.get(dialect);
    if (!pending) {
      pending = createAjv(dialect).then(
        (ajv) => {
          ajvReady.set(dialect, ajv);
          return ajv;
        },
        (error: unknown) => {
          ajvUnavailable = `Ajv failed to load: ${messageOf(error)}`;
          return undefined;
        },
      );
      ajvLoading.set(dialect, pending);
    }
    return pending;
  };

  /** Compiles with Ajv if it is loaded; any failure leaves the schema on cfworker. */
  const compileAjv = (entry: Entry): void => {
    const ajv = ajvReady.get(entry.dialect);
    if (!ajv || !ajvWanted()) return;
    entry.promotion = 'done';
    try {
      entry.ajv = ajv.compile(privateCopy(entry.source));
      ajvCompiles++;
    } catch (error) {
      if (isEvalBlocked(error)) ajvUnavailable = `eval is blocked here (${messageOf(error)})`;
      // Otherwise Ajv refused this schema (e.g. `required: true`): cfworker keeps validating it.
    }
  };

  const drain = async (): Promise<void> => {
    try {
      while (promotions.length > 0) {
        await nextTask();
        const entry = promotions.shift() as Entry;
        if (await ensureAjv(entry.dialect)) compileAjv(entry);
      }
    } finally {
      draining = undefined;
    }
  };

  const promote = (entry: Entry): void => {
    entry.promotion = 'queued';
    promotions.push(entry);
    draining ??= drain();
  };

  const runCfworker = (entry: Entry, value: unknown): ValidationReport => {
    if (!entry.cf) {
      entry.cf = createCfworker(privateCopy(entry.source), entry.dialect);
      cfworkerBuilds++;
    }
    const result = entry.cf.validate(value);
    if (result.valid) return { status: 'valid', engine: 'cfworker' };
    const issues = fromCfworker(result.errors, entry.cf.root, entry.cf.lookup);
    return invalid('cfworker', finishIssues(issues, value, limits.maxIssues));
  };

  const runAjv = (validate: AjvValidateFunction, value: unknown): ValidationReport => {
    if (validate(value)) return { status: 'valid', engine: 'ajv' };
    return invalid('ajv', finishIssues(fromAjv(validate.errors ?? []), value, limits.maxIssues));
  };

  const run = (entry: Entry, value: unknown): ValidationReport => {
    try {
      const inspection = inspectValue(value, limits);
      if (!inspection.ok) return skipped(inspection.reason);
      if (entry.facts.uniqueItems && inspection.longestArray > limits.maxUniqueItems)
        return skipped(
          `an array in the value has ${inspection.longestArray} items, over the ${limits.maxUniqueItems} checked for uniqueItems`,
        );
      if (!entry.ajv && mode === 'ajv' && entry.promotion === 'none') compileAjv(entry);
      let subject = value;
      if (inspection.needsJsonRoundTrip) {
        // Validate what will be sent: JSON drops undefined members and functions, turns Dates to strings.
        const json = JSON.stringify(value);
        if (json === undefined)
          return invalid(entry.ajv ? 'ajv' : 'cfworker', [
            { path: '(root)', message: 'is not a JSON value' },
          ]);
        subject = JSON.parse(json);
      }
      if (entry.ajv) return runAjv(entry.ajv, subject);
      const report = runCfworker(entry, subject);
      if (mode === 'auto' && entry.promotion === 'none') {
        entry.work += 1 + inspection.chars / BYTES_PER_EXTRA_WORK;
        if (entry.work >= promoteAfter && ajvWanted()) promote(entry);
      }
      return report;
    } catch (error) {
      // JSON.stringify on a cycle or BigInt, or an engine that threw (a stack overflow on a
      // recursive schema): never a crash, never a pass.
      return skipped(`could not validate against this schema: ${messageOf(error)}`);
    }
  };

  const currentEngine = (): ValidatorEngine => (mode !== 'cfworker' && ajvWanted() ? 'ajv' : 'cfworker');

  /** A schema resolved: its shared entry, or the report every validation gets when it is refused. */
  type Target = Entry | { refusal: ValidationReport & { status: 'skipped' } };

  const refused = (reason: string): Target => ({ refusal: { status: 'skipped', reason } });

  const resolve = (schema: unknown): Target => {
    try {
      if (typeof schema === 'boolean')
        return entryFor(String(schema), schema, '2020-12', { uniqueItems: false });
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
        return refused('the schema is not a JSON Schema (an object or a boolean)');
      const choice = dialectOf(schema);
      if ('unsupported' in choice) return refused(choice.unsupported);
      const inspection = inspectSchema(schema, limits);
      if (!inspection.ok) return refused(inspection.reason);
      const canonical = canonicalJson(schema);
      if (canonical.length > limits.maxSchemaChars)
        return refused(`the schema is larger than ${Math.round(limits.maxSchemaChars / 1024)} KB`);
      // Two seeds: a 106-bit key, so equal keys can be trusted without keeping the canonical text.
      const hash = `${quickHash(canonical)}.${quickHash(canonical, 1)}`;
      return entryFor(hash, schema, choice.dialect, inspection.facts);
    } catch (error) {
      return refused(`the schema could not be read: ${messageOf(error)}`);
    }
  };

  const entryFor = (hash: string, source: object | boolean, dialect: Dialect, facts: SchemaFacts): Entry => {
    let entry = byHash.get(hash);
    if (!entry) {
      entry = { hash, source, dialect, facts, work: 0, promotion: 'none' };
      byHash.set(hash, entry);
    }
    return entry;
  };

  /**
   * Registration is lazy: a handle per schema object, resolved (guards, canonical hash, shared entry)
   * on first use, so listing a catalog costs a WeakMap entry per tool.
   */
  const handleFor = (schema: unknown): PreparedSchema => {
    const keyed = typeof schema === 'object' && schema !== null;
    if (keyed) {
      const known = byIdentity.get(schema);
      if (known) return known;
    }
    let target: Target | undefined;
    const resolved = (): Target => {
      target ??= resolve(schema);
      return target;
    };
    const prepared: PreparedSchema = {
      get hash() {
        const current = resolved();
        return 'refusal' in current ? '' : current.hash;
      },
      get skipReason() {
        const current = resolved();
        return 'refusal' in current ? current.refusal.reason : undefined;
      },
      validate(value) {
        const current = resolved();
        return 'refusal' in current ? { ...current.refusal } : run(current, value);
      },
    };
    handles++;
    if (keyed) byIdentity.set(schema, prepared);
    return prepared;
  };

  const prepare = async (schema: unknown): Promise<PreparedSchema> => {
    const prepared = handleFor(schema);
    if (mode === 'ajv' && ajvWanted()) {
      const choice = dialectOf(schema);
      if ('dialect' in choice) await ensureAjv(choice.dialect);
    }
    return prepared;
  };

  return {
    prepare,
    async validate(schema, value) {
      try {
        return (await prepare(schema)).validate(value);
      } catch (error) {
        return skipped(`the schema could not be used: ${messageOf(error)}`);
      }
    },
    async engine() {
      return currentEngine();
    },
    async idle() {
      while (draining) await draining;
    },
    stats() {
      return { prepared: handles, schemas: byHash.size, ajvCompiles, cfworkerBuilds, ajvUnavailable };
    },
  };
}

let shared: SchemaValidator | undefined;

/** A validator with default options, shared by callers that pass none (e.g. checkToolOutput). */
export function sharedSchemaValidator(): SchemaValidator {
  shared ??= createSchemaValidator();
  return shared;
}

function skipped(reason: string): ValidationReport {
  return { status: 'skipped', reason };
}

function invalid(engine: ValidatorEngine, issues: SchemaIssue[]): ValidationReport {
  return {
    status: 'invalid',
    engine,
    issues: issues.length > 0 ? issues : [{ path: '(root)', message: 'does not match the schema' }],
  };
}

/** Engines keep references into the schema (cfworker annotates it): each gets its own copy. */
function privateCopy(source: object | boolean): object | boolean {
  return typeof source === 'boolean' ? source : (JSON.parse(canonicalJson(source)) as object);
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const firstLine = text.split('\n')[0] ?? text;
  return firstLine.length > 200 ? `${firstLine.slice(0, 197)}...` : firstLine;
}

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

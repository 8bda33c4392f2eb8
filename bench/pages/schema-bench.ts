/**
 * In-page measurements for bench/schema.mjs, driven step by step through `window.schemaBench`.
 * Only performance.now() is read. Each step returns plain numbers; raw-engine baselines (an Ajv
 * function or a cfworker Validator called directly) run in the same page, interleaved with the
 * facade, so ratios compare like with like.
 */

import { Validator } from '@cfworker/json-schema';
import { createSchemaValidator, type PreparedSchema } from '../../src/schema/index.js';
import { INVALID_ARGS, toolSchema, VALID_ARGS } from './schema-tools.js';

/** The weather tool: three properties, the smallest realistic schema. */
const SMALL_SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    days: { type: 'integer', minimum: 1, maximum: 16 },
    units: { enum: ['metric', 'imperial'] },
  },
  required: ['city'],
};
const SMALL_VALID = { city: 'Paris', days: 3 };
const SMALL_INVALID = { days: 0, units: 'kelvin' };

interface AjvLike {
  compile(schema: unknown): (value: unknown) => boolean;
}

/** Ajv as a person would set it up from its README (meta-schema validation on): the baseline. */
async function readmeAjv(): Promise<AjvLike> {
  const [{ default: Ajv2020 }, { default: addFormats }] = await Promise.all([
    import('ajv/dist/2020'),
    import('ajv-formats'),
  ]);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv as unknown as AjvLike;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Microseconds per call of `fn`, as the median over `rounds` timed loops of `calls` calls. */
function perCallUs(fn: () => unknown, calls: number, rounds: number): number[] {
  const perRound: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    for (let i = 0; i < calls; i++) fn();
    perRound.push(((performance.now() - start) * 1000) / calls);
  }
  return perRound;
}

const bench = {
  /** On a fresh page: the facade's very first Ajv use (chunk load, instance, first compile), then a second schema. */
  async firstAjv(): Promise<Record<string, number>> {
    const validator = createSchemaValidator({ engine: 'ajv' });
    let start = performance.now();
    const prepared = await validator.prepare(toolSchema(0));
    const loadMs = performance.now() - start;
    start = performance.now();
    prepared.validate(VALID_ARGS);
    const firstCompileMs = performance.now() - start;
    const second = await validator.prepare(toolSchema(1));
    start = performance.now();
    second.validate(VALID_ARGS);
    const secondCompileMs = performance.now() - start;
    return { loadMs, firstCompileMs, secondCompileMs };
  },

  /** On a fresh page: Ajv set up as in its README (meta-schema validated on first compile). */
  async firstReadmeAjv(): Promise<Record<string, number>> {
    let start = performance.now();
    const ajv = await readmeAjv();
    const loadMs = performance.now() - start;
    start = performance.now();
    ajv.compile(toolSchema(0))(VALID_ARGS);
    const firstCompileMs = performance.now() - start;
    start = performance.now();
    ajv.compile(toolSchema(1))(VALID_ARGS);
    const secondCompileMs = performance.now() - start;
    return { loadMs, firstCompileMs, secondCompileMs };
  },

  /** On a fresh page: the first validation in auto mode (cfworker, no Ajv chunk needed). */
  async firstAuto(): Promise<Record<string, number>> {
    const validator = createSchemaValidator();
    const start = performance.now();
    const report = await validator.validate(toolSchema(0), VALID_ARGS);
    const firstMs = performance.now() - start;
    if (report.status !== 'valid') throw new Error(`unexpected ${JSON.stringify(report)}`);
    return { firstMs };
  },

  /**
   * Per-schema cost of a first validation (register + compile/build + validate) with warm engines,
   * against README-style Ajv doing compile + first call; the three interleave, rotating per schema.
   */
  async firstCall(count: number): Promise<Record<string, number>> {
    const ajvValidator = createSchemaValidator({ engine: 'ajv' });
    const cfValidator = createSchemaValidator({ engine: 'cfworker' });
    const rawAjv = await readmeAjv();
    await ajvValidator.validate(toolSchema(-1), VALID_ARGS); // chunk, instance, JIT
    await cfValidator.validate(toolSchema(-1), VALID_ARGS);
    rawAjv.compile(toolSchema(-1))(VALID_ARGS);
    const times: Record<'ajv' | 'cfworker' | 'readme', number[]> = { ajv: [], cfworker: [], readme: [] };
    const contenders: [keyof typeof times, (i: number) => Promise<unknown>][] = [
      ['ajv', async (i) => (await ajvValidator.prepare(toolSchema(i))).validate(VALID_ARGS)],
      ['cfworker', async (i) => (await cfValidator.prepare(toolSchema(i))).validate(VALID_ARGS)],
      ['readme', async (i) => rawAjv.compile(toolSchema(i))(VALID_ARGS)],
    ];
    for (let i = 0; i < count; i++) {
      const shift = i % contenders.length;
      for (const [name, run] of [...contenders.slice(shift), ...contenders.slice(0, shift)]) {
        const start = performance.now();
        await run(i); // fresh schema objects for each contender
        times[name].push(performance.now() - start);
      }
    }
    return {
      ajvFirstCallMs: median(times.ajv),
      cfworkerFirstCallMs: median(times.cfworker),
      readmeAjvFirstCallMs: median(times.readme),
      ajvCompiles: ajvValidator.stats().ajvCompiles,
      cfworkerBuilds: cfValidator.stats().cfworkerBuilds,
    };
  },

  /** Warm validation per call: the facade on each engine and the raw engines, interleaved by round. */
  async warm(calls: number, rounds: number, small: boolean): Promise<Record<string, number>> {
    const schema = small ? SMALL_SCHEMA : toolSchema(7);
    const valid = small ? SMALL_VALID : VALID_ARGS;
    const invalid = small ? SMALL_INVALID : INVALID_ARGS;
    const ajvPrepared = await createSchemaValidator({ engine: 'ajv' }).prepare(schema);
    const cfPrepared = await createSchemaValidator({ engine: 'cfworker' }).prepare(schema);
    const rawAjv = (await readmeAjv()).compile(schema);
    const rawCf = new Validator(JSON.parse(JSON.stringify(schema)), '2020-12', false);
    for (const prepared of [ajvPrepared, cfPrepared] as PreparedSchema[]) {
      if (prepared.validate(valid).status !== 'valid') throw new Error('valid args rejected');
      if (prepared.validate(invalid).status !== 'invalid') throw new Error('invalid args accepted');
    }
    const contenders: Record<string, [() => unknown, number]> = {
      ajvFacadeValid: [() => ajvPrepared.validate(valid), calls],
      ajvRawValid: [() => rawAjv(valid), calls],
      cfworkerFacadeValid: [() => cfPrepared.validate(valid), Math.ceil(calls / 20)],
      cfworkerRawValid: [() => rawCf.validate(valid), Math.ceil(calls / 20)],
      ajvFacadeInvalid: [() => ajvPrepared.validate(invalid), Math.ceil(calls / 10)],
      cfworkerFacadeInvalid: [() => cfPrepared.validate(invalid), Math.ceil(calls / 20)],
    };
    const names = Object.keys(contenders);
    const samples = new Map(names.map((name) => [name, [] as number[]]));
    for (const [fn, count] of Object.values(contenders)) perCallUs(fn, Math.ceil(count / 4), 1);
    for (let round = 0; round < rounds; round++) {
      const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)];
      for (const name of order) {
        const [fn, count] = contenders[name] as [() => unknown, number];
        samples.get(name)?.push(...perCallUs(fn, count, 1));
      }
    }
    return Object.fromEntries(names.map((name) => [`${name}Us`, median(samples.get(name) ?? [])]));
  },

  /** A catalog of `count` distinct tools made ready: every inputSchema prepared, nothing compiled. */
  async catalog(count: number): Promise<Record<string, number>> {
    const schemas = Array.from({ length: count }, (_, i) => toolSchema(i));
    const validator = createSchemaValidator();
    let start = performance.now();
    const prepared = await Promise.all(schemas.map((schema) => validator.prepare(schema)));
    const listMs = performance.now() - start;
    const afterListing = validator.stats();
    start = performance.now();
    await Promise.all(schemas.map((schema) => validator.prepare(schema)));
    const sameObjectsMs = performance.now() - start;
    // The work deferred to each schema's first use: guards, canonical JSON, hash, shared entry.
    start = performance.now();
    for (const handle of prepared) if (handle.hash === '') throw new Error('a bench schema was refused');
    const resolveAllMs = performance.now() - start;
    return {
      count,
      listMs,
      sameObjectsMs,
      resolvePerSchemaUs: (resolveAllMs * 1000) / count,
      hashedAtListing: afterListing.schemas,
      compilesAtListing: afterListing.ajvCompiles + afterListing.cfworkerBuilds,
    };
  },

  /** The hybrid end to end: one schema validated `calls` times in auto mode, promotions awaited. */
  async hybrid(calls: number): Promise<Record<string, number | string>> {
    const validator = createSchemaValidator();
    const prepared = await validator.prepare(toolSchema(3));
    let cfworker = 0;
    let ajv = 0;
    for (let i = 0; i < calls; i++) {
      const report = prepared.validate(VALID_ARGS);
      if (report.status === 'valid' && report.engine === 'ajv') ajv++;
      else cfworker++;
      if (i % 16 === 0) await validator.idle();
    }
    return { calls, onCfworker: cfworker, onAjv: ajv, engine: await validator.engine() };
  },
};

declare global {
  interface Window {
    schemaBench: typeof bench;
  }
}

window.schemaBench = bench;
document.title = 'schema bench ready';

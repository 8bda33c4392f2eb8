/**
 * The profiling page (bench/profile.mjs drives it): the instant-fetch contenders, callable by name,
 * so that a CPU profile of many calls shows nothing but client work.
 */

import { instantContenders } from './contenders.js';
import type { Contender } from './measure.js';

const contenders = instantContenders().then(
  (list) => new Map<string, Contender>(list.map((contender) => [contender.name, contender])),
);

/** Runs `calls` sequential calls of one contender; returns the mean microseconds per call. */
async function run(name: string, calls: number): Promise<number> {
  const contender = (await contenders).get(name);
  if (!contender) throw new Error(`no contender ${name}`);
  const start = performance.now();
  for (let i = 0; i < calls; i++) await contender.call();
  return ((performance.now() - start) * 1000) / calls;
}

Object.assign(globalThis, { bench: { ready: contenders.then(() => true), run } });

import { describe, expect, it } from 'vitest';
import { GENESIS } from './chain.js';
import { type ChainRef, DEFAULT_RETENTION, findCut, parseRetention } from './retention.js';

describe('retention settings', () => {
  it('is on by default with a cap', () => {
    expect(DEFAULT_RETENTION.maxEntries).toBe(20_000);
  });

  it('reads back what the person chose, and nothing malformed', () => {
    expect(parseRetention({ maxEntries: 500 })).toEqual({ maxEntries: 500 });
    expect(parseRetention({ maxAgeMs: 86_400_000 })).toEqual({ maxAgeMs: 86_400_000 });
    expect(parseRetention(false)).toBe(false);
    for (const bad of [
      undefined,
      null,
      {},
      { maxEntries: 0 },
      { maxEntries: -5 },
      { maxEntries: 1.5 },
      'all',
      true,
    ])
      expect(parseRetention(bad), JSON.stringify(bad)).toBeUndefined();
    // Extra fields are dropped, not stored.
    expect(parseRetention({ maxEntries: 100, evil: '<img>' })).toEqual({ maxEntries: 100 });
  });
});

describe('where retention cuts the chain', () => {
  const ref = (
    id: string,
    firstSeq: number,
    lastSeq: number,
    outcome: ChainRef['outcome'] = 'success',
  ): ChainRef => ({
    invocationId: id,
    firstSeq,
    lastSeq,
    startedAt: firstSeq,
    outcome,
  });
  async function* each(refs: ChainRef[]) {
    yield* refs;
  }
  /** What pruneLog passes: pending calls never go, the rest while the policy wants them gone. */
  const finished = (r: ChainRef) => r.outcome !== 'pending';

  it('cuts after whole calls only, and never past a pending one', async () => {
    // a: 1-2, b: 3-6 overlapping c: 4-5, d: 7-8, e pending from 9.
    const refs = [ref('a', 1, 2), ref('b', 3, 6), ref('c', 4, 5), ref('d', 7, 8), ref('e', 9, 9, 'pending')];
    expect(await findCut(each(refs), GENESIS, finished)).toEqual({ count: 4, cutSeq: 8 });
    // Two entries wanted gone: b cannot go without c (they overlap), so only a goes.
    expect(await findCut(each(refs), GENESIS, (r, index) => finished(r) && index < 2)).toEqual({
      count: 1,
      cutSeq: 2,
    });
    expect(await findCut(each(refs), GENESIS, (r, index) => finished(r) && index < 3)).toEqual({
      count: 3,
      cutSeq: 6,
    });
    expect(await findCut(each([]), { seq: 5, hash: 'h' }, finished)).toEqual({ count: 0, cutSeq: 5 });
  });
});

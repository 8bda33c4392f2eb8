import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuditEntry, EntryOutcome } from './entry.js';
import { type AuditQuery, compareNewestFirst, encodeCursor, entryPasses, filterOf } from './filter.js';
import {
  buildSegment,
  matchPositions,
  PAGE_ENTRIES,
  patchSegment,
  pendingIn,
  slotOf,
  TERM,
} from './segment.js';

const OUTCOMES: EntryOutcome[] = ['pending', 'success', 'tool-error', 'denied'];
const WORDS = ['alpha', 'alps', 'beta', 'path/to', 'x.y_z', 'Ünï', '42', '420'];

function entry(
  i: number,
  tool: string,
  server: string,
  outcome: EntryOutcome,
  words: string[],
  at: number,
): AuditEntry {
  return {
    invocationId: `id-${i}`,
    serverId: server,
    toolName: tool,
    caller: { kind: 'host' },
    startedAt: at,
    outcome,
    argumentsPreview: JSON.stringify({ words }),
    edited: false,
    timestamps: { requested: at, sent: at + 1 },
    redactedPaths: [],
    ...(outcome === 'pending' ? { pendingSession: `session-${i % 3}` } : {}),
    seqs: [i * 2 + 1, i * 2 + 2],
    firstSeq: i * 2 + 1,
  };
}

const entries = fc
  .array(
    fc.record({
      tool: fc.constantFrom('read', 'write', 'tool_42'),
      server: fc.constantFrom('a', 'b.example'),
      outcome: fc.constantFrom(...OUTCOMES),
      words: fc.subarray(WORDS),
      at: fc.integer({ min: 0, max: 40 }),
    }),
    { maxLength: 60 },
  )
  .map((list) => list.map((e, i) => entry(i, e.tool, e.server, e.outcome, e.words, e.at)));

const queries = fc.record(
  {
    toolName: fc.constantFrom('read', 'write', 'tool_42', 'none'),
    serverId: fc.constantFrom('a', 'b.example'),
    outcome: fc.oneof(fc.constantFrom(...OUTCOMES), fc.subarray(OUTCOMES, { minLength: 1 })),
    text: fc.constantFrom('alp', 'alpha beta', 'x.y', 'z', 'ünï', '4', '420', 'tool', 'example', 'nothing'),
    from: fc.integer({ min: 0, max: 40 }),
    to: fc.integer({ min: 0, max: 40 }),
  },
  { requiredKeys: [] },
);

describe('index segments', () => {
  it('find exactly the entries a filter passes, newest first, with or without a cursor', () => {
    fc.assert(
      fc.property(entries, queries, fc.nat(), (list, query: AuditQuery, cut) => {
        const { summary, words } = buildSegment(1, list.length * 2, list);
        const sorted = [...list].sort(compareNewestFirst);
        const cursor = sorted.length > 0 ? encodeCursor(sorted[cut % sorted.length]!) : undefined;
        for (const q of [query, cursor ? { ...query, cursor } : query]) {
          const filter = filterOf(q);
          const expected = sorted.filter((e) => entryPasses(e, filter)).map((e) => e.invocationId);
          const found = matchPositions(summary, filter, 1000, words).map((p) => summary.ids[p]);
          expect(found).toEqual(expected);
          expect(matchPositions(summary, filter, 2, words)).toHaveLength(Math.min(2, expected.length));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('pages hold every entry once, grouped by server and tool; the summary says where each is', () => {
    const list = Array.from({ length: 70 }, (_, i) =>
      entry(i, `t${i % 3}`, i % 2 ? 's1' : 's2', 'success', ['alpha'], 100 - i),
    );
    const built = buildSegment(7, 140, list);
    expect(built.pages).toHaveLength(Math.ceil(70 / PAGE_ENTRIES));
    const paged = built.pages.flatMap((page) => page.entries);
    expect(new Set(paged.map((e) => e.invocationId)).size).toBe(70);
    for (const [position, id] of built.summary.ids.entries()) {
      const { page, index } = slotOf(built.summary, position);
      expect(built.pages[page]!.entries[index]!.invocationId).toBe(id);
    }
    // Each server and tool pair is one run in page order, newest first within it.
    const runs = paged.map((e) => `${e.serverId}/${e.toolName}`);
    expect(runs.filter((run, i) => run !== runs[i - 1])).toHaveLength(6);
    for (let i = 1; i < paged.length; i++)
      if (runs[i] === runs[i - 1]) expect(paged[i]!.startedAt).toBeLessThan(paged[i - 1]!.startedAt);
    expect(JSON.parse(built.ids.ids)).toEqual(built.summary.ids);
    expect(built.terms.from).toBe(7);
    expect(built.terms.terms).toEqual(
      expect.arrayContaining([`${TERM.tool}t0`, `${TERM.server}s1`, `${TERM.word}alpha`]),
    );
    expect(built.info).toMatchObject({ from: 7, to: 140, count: 70, minAt: 31, maxAt: 100, minFirstSeq: 1 });
  });

  it('patch a pending entry in place: outcome, last event, session, counts', () => {
    const list = [
      entry(0, 't', 's', 'pending', [], 10),
      entry(1, 't', 's', 'pending', [], 20),
      entry(2, 't', 's', 'success', [], 30),
    ];
    const built = buildSegment(1, 6, list);
    expect(pendingIn(built.summary).map((p) => [p.invocationId, p.session])).toEqual([
      ['id-1', 'session-1'],
      ['id-0', 'session-0'],
    ]);
    const { pendingSession: _gone, ...rest } = list[0]!;
    const finished: AuditEntry = { ...rest, outcome: 'tool-error', seqs: [1, 9] };
    const pages = new Map(built.pages.map((page) => [page.page, page]));
    const info = patchSegment(built.summary, pages, built.info, [finished]);
    expect(info.counts).toEqual({ pending: 1, success: 1, 'tool-error': 1 });
    expect(pendingIn(built.summary).map((p) => p.invocationId)).toEqual(['id-1']);
    const position = built.summary.ids.indexOf('id-0');
    expect(built.summary.lastSeq[position]).toBe(9);
    expect(matchPositions(built.summary, filterOf({ outcome: 'tool-error' }), 10)).toEqual([position]);
    const { page, index } = slotOf(built.summary, position);
    expect(pages.get(page)!.entries[index]).toBe(finished);
  });
});

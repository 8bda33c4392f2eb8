import { describe, expect, it } from 'vitest';
import type { ListingParams } from '../../session/index.js';
import { pageThrough } from './paged-listing.js';

/** A server's pages: `pages[i]` is answered for cursor String(i) (the first for no cursor). */
function server(pages: Array<{ items: number[]; nextCursor?: string }>) {
  const asked: ListingParams[] = [];
  return {
    asked,
    fetchPage: async (params: ListingParams) => {
      asked.push(params);
      const page = pages[Number(params.cursor ?? 0)];
      if (!page) throw new Error(`no page at ${params.cursor}`);
      return page;
    },
  };
}

describe('pageThrough', () => {
  it('asks for the first page alone, then each cursor, and shows every page as it arrives', async () => {
    const { asked, fetchPage } = server([
      { items: [1, 2], nextCursor: '1' },
      { items: [3], nextCursor: '2' },
      { items: [4] },
    ]);
    const shown: number[][] = [];
    const paged = await pageThrough(
      fetchPage,
      (items) => shown.push([...items]),
      new AbortController().signal,
    );
    expect(asked).toEqual([{ maxPages: 1 }, { cursor: '1' }, { cursor: '2' }]);
    expect(shown).toEqual([
      [1, 2],
      [1, 2, 3],
      [1, 2, 3, 4],
    ]);
    expect(paged).toEqual({ items: [1, 2, 3, 4] });
  });

  it('stops where a cursor comes back, keeping what it listed', async () => {
    const { asked, fetchPage } = server([
      { items: [1], nextCursor: '1' },
      { items: [2], nextCursor: '1' },
    ]);
    const paged = await pageThrough(fetchPage, () => undefined, new AbortController().signal);
    expect(asked).toHaveLength(2);
    expect(paged.items).toEqual([1, 2]);
    expect(paged.note).toMatch(/page twice/);
  });

  it('asks for no page after an abort, keeping the page in flight', async () => {
    const abort = new AbortController();
    const { asked, fetchPage } = server([
      { items: [1], nextCursor: '1' },
      { items: [2], nextCursor: '2' },
      { items: [3] },
    ]);
    const paged = await pageThrough(
      fetchPage,
      (items) => {
        if (items.length === 1) abort.abort();
      },
      abort.signal,
    );
    expect(asked).toHaveLength(1);
    expect(paged).toEqual({ items: [1], note: 'Stopped.' });
  });
});

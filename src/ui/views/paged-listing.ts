/**
 * Follows a listing's cursors page by page for the Resources and Prompts tabs, handing each page to
 * `onPage` as it arrives, so the first rows show before the last page is in. The client's bounds
 * hold here too (it only fetches the one page asked): a cursor that comes back ends the listing, and
 * so do 200 pages or 50,000 items. Aborting `signal` stops after the page in flight.
 */

import { DEFAULT_MAX_ITEMS as MAX_ITEMS, DEFAULT_MAX_PAGES as MAX_PAGES } from '../../client/index.js';
import type { ListingParams } from '../../session/index.js';

export interface Paged<T> {
  items: T[];
  /** Why the listing ended before the server's last page, in words for the person. */
  note?: string;
}

export async function pageThrough<T>(
  fetchPage: (params: ListingParams) => Promise<{ items: T[]; nextCursor?: string }>,
  onPage: (items: readonly T[]) => void,
  signal: AbortSignal,
): Promise<Paged<T>> {
  const items: T[] = [];
  const seen = new Set<string>();
  let params: ListingParams = { maxPages: 1 };
  for (let page = 1; ; page++) {
    const answer = await fetchPage(params);
    items.push(...answer.items);
    onPage(items.slice());
    const next = answer.nextCursor;
    if (next === undefined) return { items };
    if (items.length >= MAX_ITEMS)
      return {
        items: items.slice(0, MAX_ITEMS),
        note: `Listed the first ${MAX_ITEMS.toLocaleString('en')}.`,
      };
    if (page >= MAX_PAGES) return { items, note: `Listed the first ${MAX_PAGES} pages.` };
    if (seen.has(next)) return { items, note: 'The server sent a page twice; the listing stops there.' };
    if (signal.aborted) return { items, note: 'Stopped.' };
    seen.add(next);
    params = { cursor: next };
  }
}

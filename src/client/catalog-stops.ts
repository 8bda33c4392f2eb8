/**
 * Why a tools listing stopped before its end, in words. Loaded with `import()` only when a listing
 * stops early (a failed page, a loop, more than the limits): connect, list and call do not pay for
 * the wording (the library's eager budget, BENCHMARKS.md).
 */

/** Where the listing stood when it stopped: what catalog.ts records, in numbers, not words. */
export type CatalogStop =
  | { kind: 'page-failed'; error: unknown }
  | { kind: 'no-tools-array' }
  | { kind: 'too-many-tools'; maxTools: number }
  | { kind: 'cursor-loop'; cursor: string }
  | { kind: 'too-many-pages'; maxPages: number };

/** The sentence for a listing of `serverId` that stopped after `pages` pages with `kept` tools. */
export function catalogStopMessage(serverId: string, stop: CatalogStop, pages: number, kept: number): string {
  const list = `${serverId}: tools/list`;
  switch (stop.kind) {
    case 'page-failed':
      return `${list} failed on page ${pages + 1} (${(stop.error as Error)?.message ?? String(stop.error)}); showing the ${kept} tools fetched before it`;
    case 'no-tools-array':
      return `${list} page ${pages} has no "tools" array; stopped with the ${kept} tools fetched before it`;
    case 'too-many-tools':
      return `${list} offered more than ${stop.maxTools} tools; kept the first ${stop.maxTools} (after ${pages} ${pages === 1 ? 'page' : 'pages'})`;
    case 'cursor-loop':
      return `${list} returned cursor "${stop.cursor.length > 60 ? `${stop.cursor.slice(0, 60)}…` : stop.cursor}" twice (a pagination loop); stopped after ${pages} pages with ${kept} tools`;
    case 'too-many-pages':
      return `${list} still had more pages after ${stop.maxPages}; stopped with ${kept} tools (raise maxPages if this server really has that many)`;
  }
}

/**
 * What free-text search matches: words. An entry's words come from its tool name, server and
 * arguments preview, lower-cased. A word is a run of letters and digits; a run joined by `.`, `_` or
 * `-` (`tool_42`, `server-0`, `example.com`) counts as a word too, besides its parts. A search
 * matches an entry when every word of the search begins one of the entry's words, so `exam` finds
 * `example.com`, `tool_4` finds `tool_42` and `"i":4242` finds an argument `i` of `4242`. Word
 * prefixes (not arbitrary substrings) are what an index can answer without reading every entry.
 */

/** Longer words are indexed by their first characters only (a search word is cut the same way). */
export const MAX_WORD_CHARS = 40;

const COMPOUND = /[\p{L}\p{N}]+(?:[._-][\p{L}\p{N}]+)*/gu;
const PLAIN = /[\p{L}\p{N}]+/gu;
const JOINER = /[._-]/;

function clip(word: string): string {
  return word.length > MAX_WORD_CHARS ? word.slice(0, MAX_WORD_CHARS) : word;
}

/** Adds the words of `text` to `into`. */
export function addWords(text: string, into: Set<string>): void {
  for (const [word] of text.toLowerCase().matchAll(COMPOUND)) {
    into.add(clip(word));
    if (JOINER.test(word)) for (const [part] of word.matchAll(PLAIN)) into.add(clip(part));
  }
}

/** The words a search looks for (in the order given, duplicates removed). */
export function searchWords(text: string): string[] {
  const words = new Set<string>();
  for (const [word] of text.toLowerCase().matchAll(COMPOUND)) words.add(clip(word));
  return [...words];
}

interface Searchable {
  toolName: string;
  serverId: string;
  argumentsPreview: string;
}

/** An entry's words, sorted (computed once per entry object). */
export function wordsOfEntry(entry: Searchable): readonly string[] {
  let words = cache.get(entry);
  if (!words) {
    const found = new Set<string>();
    addWords(entry.toolName, found);
    addWords(entry.serverId, found);
    addWords(entry.argumentsPreview, found);
    words = [...found].sort();
    cache.set(entry, words);
  }
  return words;
}
const cache = new WeakMap<object, readonly string[]>();

/** The first index in `sorted` whose word is >= `word`. */
export function lowerBound(sorted: readonly string[], word: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < word) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether some word in `sorted` begins with `prefix`. */
export function hasPrefix(sorted: readonly string[], prefix: string): boolean {
  return sorted[lowerBound(sorted, prefix)]?.startsWith(prefix) ?? false;
}

/** Whether every search word begins one of the entry's words. */
export function matchesWords(entry: Searchable, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const own = wordsOfEntry(entry);
  return words.every((word) => hasPrefix(own, word));
}

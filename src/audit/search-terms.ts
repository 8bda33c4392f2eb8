/**
 * What free-text search matches: words. An entry's words come from its tool name, server, caller
 * (its kind, its label, and who it is in the words the audit view uses: "you", "the app", "the web
 * site") and arguments preview, lower-cased. A word is a run of letters and digits; a run joined by `.`, `_` or
 * `-` (`tool_42`, `server-0`, `example.com`) counts as a word too, besides its parts. A search
 * matches an entry when every word of the search begins one of the entry's words, so `exam` finds
 * `example.com`, `tool_4` finds `tool_42` and `"i":4242` finds an argument `i` of `4242`. Word
 * prefixes (not arbitrary substrings) are what an index can answer without reading every entry.
 */

import { type Caller, describeCaller } from '../gate/index.js';

/** Longer words are indexed by their first characters only (a search word is cut the same way). */
const MAX_WORD_CHARS = 40;

const UNICODE_WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** Whether the code point is a letter or digit (ASCII answered without a regular expression). */
function isWordChar(code: number): boolean {
  if (code < 128)
    return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
  return UNICODE_WORD_CHAR.test(String.fromCodePoint(code));
}

function isJoiner(code: number): boolean {
  return code === 46 || code === 95 || code === 45; // . _ -
}

function clip(word: string): string {
  return word.length > MAX_WORD_CHARS ? word.slice(0, MAX_WORD_CHARS) : word;
}

/**
 * Scans lower-cased text for words: calls `compound` with each maximal run of letters and digits
 * joined by single `.`, `_` or `-`, and `part` with each plain run inside a joined one. (The same
 * as the regular expression /[\p{L}\p{N}]+(?:[._-][\p{L}\p{N}]+)*\/gu and /[\p{L}\p{N}]+/gu,
 * written out: this runs over every entry sealed, and measured several times faster.)
 */
function scanWords(text: string, compound: (word: string) => void, part?: (word: string) => void): void {
  const n = text.length;
  let i = 0;
  const width = (code: number) => (code > 0xffff ? 2 : 1);
  /** The end of the run of letters and digits starting at `from`. */
  const runEnd = (from: number) => {
    let at = from;
    while (at < n) {
      const code = text.codePointAt(at)!;
      if (!isWordChar(code)) break;
      at += width(code);
    }
    return at;
  };
  while (i < n) {
    const code = text.codePointAt(i)!;
    if (!isWordChar(code)) {
      i += width(code);
      continue;
    }
    const start = i;
    let partStart = i;
    let joined = false;
    for (;;) {
      i = runEnd(i);
      // A joiner continues the word only when a letter or digit follows it.
      const next = i + 1 < n ? text.codePointAt(i + 1)! : -1;
      if (i < n && isJoiner(text.charCodeAt(i)) && next >= 0 && isWordChar(next)) {
        if (part) part(text.slice(partStart, i));
        joined = true;
        i += 1;
        partStart = i;
        continue;
      }
      break;
    }
    if (joined && part) part(text.slice(partStart, i));
    compound(text.slice(start, i));
  }
}

/** Adds the words of `text` to `into`. */
export function addWords(text: string, into: Set<string>): void {
  const add = (word: string) => into.add(clip(word));
  scanWords(text.toLowerCase(), add, add);
}

/** The words a search looks for (in the order given, duplicates removed). */
export function searchWords(text: string): string[] {
  const words = new Set<string>();
  scanWords(text.toLowerCase(), (word) => words.add(clip(word)));
  return [...words];
}

interface Searchable {
  toolName: string;
  serverId: string;
  argumentsPreview: string;
  /** Absent only in old tests' entries; every recorded entry has one. */
  caller?: Caller;
}

/**
 * Calls `visit` with each word of an entry, repeats included (sealing dedupes as it indexes).
 * Segments sealed before the caller's words were indexed do not have them: a search for a caller
 * finds calls recorded since (the log on a person's machine is young; nothing else changed).
 */
export function visitWords(entry: Searchable, visit: (word: string) => void): void {
  const clipped = (word: string) => visit(clip(word));
  const caller = entry.caller ? `${entry.caller.kind} ${describeCaller(entry.caller)}` : '';
  for (const text of [entry.toolName, entry.serverId, caller, entry.argumentsPreview])
    scanWords(text.toLowerCase(), clipped, clipped);
}

/** An entry's words, sorted (computed once per entry object). */
export function wordsOfEntry(entry: Searchable): readonly string[] {
  let words = cache.get(entry);
  if (!words) {
    const found = new Set<string>();
    visitWords(entry, (word) => found.add(word));
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

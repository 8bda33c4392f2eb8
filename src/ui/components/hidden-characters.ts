/**
 * Characters in proposed arguments that a person would not see in a text box: C0/C1 controls (tab
 * and line feed excepted: a text area shows them), format characters (zero-width spaces and
 * joiners, bidi embeddings, overrides and isolates, the BOM, the soft hyphen, tag characters),
 * fillers that render as nothing, and runs of variation selectors (bytes smuggled one per selector).
 * The approval dialog shows each one as an escape (`\u202E`) and says what it is; nothing is removed.
 *
 * Unlike `gate/poisoning.ts` (which judges a tool's own text and lets a joiner inside an emoji be),
 * this flags every such character: an argument is about to be sent, and a zero-width joiner in it
 * is worth a look even where it is legitimate.
 */

import { codeName } from '../../gate/index.js';

/** One hidden character: where it is (UTF-16 index), what it is, and its visible escape. */
export interface HiddenCharacter {
  index: number;
  codePoint: number;
  /** `\u202E`, `\r`, `\u{E0041}`: how the dialog shows it. */
  escape: string;
  /** `U+202E RIGHT-TO-LEFT OVERRIDE`. */
  name: string;
}

/** Text split for display: plain runs, and hidden characters replaced by their escape. */
export type Segment = { text: string } | { hidden: HiddenCharacter };

/**
 * Controls a person may know by name; every other character is named as the gate names it in its
 * poisoning flags (one table for both, src/gate/poisoning.ts).
 */
const CONTROL_NAMES = new Map<number, string>([
  [0x00, 'NULL'],
  [0x08, 'BACKSPACE'],
  [0x0b, 'LINE TABULATION'],
  [0x0c, 'FORM FEED'],
  [0x0d, 'CARRIAGE RETURN'],
  [0x1b, 'ESCAPE'],
  [0x7f, 'DELETE'],
  [0x85, 'NEXT LINE'],
]);

/** Short escapes a person may know; everything else is `\uXXXX` or `\u{XXXXX}`. */
const SHORT_ESCAPES = new Map<number, string>([
  [0x08, '\\b'],
  [0x0b, '\\v'],
  [0x0c, '\\f'],
  [0x0d, '\\r'],
]);

/** Format characters that are visible signs (prepended concatenation marks), not hidden ones. */
const VISIBLE_FORMAT = new Set([
  0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06dd, 0x070f, 0x0890, 0x0891, 0x08e2, 0x110bd, 0x110cd,
]);
const RENDERS_AS_NOTHING = new Set([0x034f, 0x115f, 0x1160, 0x3164, 0xffa0, 0x2028, 0x2029]);
const FORMAT = /\p{Cf}/u;
/** Quick test: plain printable ASCII (with tab and line feed) has nothing hidden. */
const ONLY_PLAIN = /^[\x20-\x7e\t\n]*$/;

const isSelector = (codePoint: number | undefined) =>
  codePoint !== undefined && codePoint >= 0xfe00 && codePoint <= 0xfe0f;

function hiddenHere(codePoint: number, before: number | undefined, after: number | undefined): boolean {
  if (codePoint === 0x09 || codePoint === 0x0a) return false;
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f)) return true;
  if (RENDERS_AS_NOTHING.has(codePoint)) return true;
  if (codePoint >= 0x180b && codePoint <= 0x180f) return true;
  if (codePoint >= 0xe0100 && codePoint <= 0xe01ef) return true;
  // One selector after its base is ordinary (❤️); two in a row never occur in real text.
  if (isSelector(codePoint)) return isSelector(before) || isSelector(after);
  return FORMAT.test(String.fromCodePoint(codePoint)) && !VISIBLE_FORMAT.has(codePoint);
}

function hex(codePoint: number): string {
  return codePoint.toString(16).toUpperCase().padStart(4, '0');
}

/** `\u202E`, `\r`, `\u{E0041}`. */
export function escapeOf(codePoint: number): string {
  return (
    SHORT_ESCAPES.get(codePoint) ?? (codePoint > 0xffff ? `\\u{${hex(codePoint)}}` : `\\u${hex(codePoint)}`)
  );
}

/** `U+202E RIGHT-TO-LEFT OVERRIDE`. */
export function nameOf(codePoint: number): string {
  const control = CONTROL_NAMES.get(codePoint);
  return control ? `U+${hex(codePoint)} ${control}` : codeName(codePoint);
}

/** Every hidden character of `text`, in order. */
export function findHiddenCharacters(text: string): HiddenCharacter[] {
  if (ONLY_PLAIN.test(text)) return [];
  const codePoints: { codePoint: number; index: number }[] = [];
  for (let index = 0; index < text.length; ) {
    const codePoint = text.codePointAt(index)!;
    codePoints.push({ codePoint, index });
    index += codePoint > 0xffff ? 2 : 1;
  }
  const found: HiddenCharacter[] = [];
  codePoints.forEach(({ codePoint, index }, at) => {
    if (hiddenHere(codePoint, codePoints[at - 1]?.codePoint, codePoints[at + 1]?.codePoint))
      found.push({ index, codePoint, escape: escapeOf(codePoint), name: nameOf(codePoint) });
  });
  return found;
}

/** `text` as plain runs and hidden characters, for a rendering that shows each one as its escape. */
export function segmentsOf(text: string): Segment[] {
  const segments: Segment[] = [];
  let from = 0;
  for (const hidden of findHiddenCharacters(text)) {
    if (hidden.index > from) segments.push({ text: text.slice(from, hidden.index) });
    segments.push({ hidden });
    from = hidden.index + (hidden.codePoint > 0xffff ? 2 : 1);
  }
  if (from < text.length) segments.push({ text: text.slice(from) });
  return segments;
}

/** `text` with every hidden character replaced by its escape (for one-line summaries). */
export function escapeHidden(text: string): string {
  return segmentsOf(text)
    .map((segment) => ('text' in segment ? segment.text : segment.hidden.escape))
    .join('');
}

/**
 * `U+202E RIGHT-TO-LEFT OVERRIDE, U+200B ZERO WIDTH SPACE ×2`: which kinds were found (in order of
 * first appearance, at most `limit` kinds named).
 */
export function summarizeHidden(found: readonly HiddenCharacter[], limit = 6): string {
  const counts = new Map<number, number>();
  for (const { codePoint } of found) counts.set(codePoint, (counts.get(codePoint) ?? 0) + 1);
  const named = [...counts].slice(0, limit).map(([codePoint, count]) => {
    return `${nameOf(codePoint)}${count > 1 ? ` ×${count}` : ''}`;
  });
  const more = counts.size - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more kinds` : named.join(', ');
}

/**
 * JSON text with every hidden character written as a JSON escape (`\u202E`, astral ones as their
 * surrogate pair), so a JSON view shows them and parses back to exactly the same value. Hidden
 * characters can only stand inside strings in JSON text, where `\uXXXX` means the same character.
 */
export function escapeHiddenInJson(json: string): string {
  return segmentsOf(json)
    .map((segment) => {
      if ('text' in segment) return segment.text;
      const { codePoint } = segment.hidden;
      const units = String.fromCodePoint(codePoint);
      let out = '';
      for (let i = 0; i < units.length; i++) out += `\\u${hex(units.charCodeAt(i))}`;
      return out;
    })
    .join('');
}

/** Every string in a JSON value (keys included) that holds hidden characters, with what it holds. */
export function hiddenInValue(value: unknown, limit = 1000): HiddenCharacter[] {
  const found: HiddenCharacter[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (found.length >= limit || depth > 200) return;
    if (typeof node === 'string') found.push(...findHiddenCharacters(node));
    else if (Array.isArray(node)) for (const item of node) visit(item, depth + 1);
    else if (typeof node === 'object' && node !== null)
      for (const [key, item] of Object.entries(node)) {
        found.push(...findHiddenCharacters(key));
        visit(item, depth + 1);
      }
  };
  visit(value, 0);
  return found.slice(0, limit);
}

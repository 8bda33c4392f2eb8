/**
 * The names a person is shown for invisible and control characters (`U+200B ZERO WIDTH SPACE`).
 * A module of its own, apart from the poisoning rule (poisoning.ts): the hidden-character marks
 * of a first screen (the side panel's consent dialog) need only the names, not the rule.
 */

const NAMES = new Map<number, string>([
  [0x00ad, 'SOFT HYPHEN'],
  [0x034f, 'COMBINING GRAPHEME JOINER'],
  [0x061c, 'ARABIC LETTER MARK'],
  [0x115f, 'HANGUL CHOSEONG FILLER'],
  [0x1160, 'HANGUL JUNGSEONG FILLER'],
  [0x180e, 'MONGOLIAN VOWEL SEPARATOR'],
  [0x200b, 'ZERO WIDTH SPACE'],
  [0x200c, 'ZERO WIDTH NON-JOINER'],
  [0x200d, 'ZERO WIDTH JOINER'],
  [0x200e, 'LEFT-TO-RIGHT MARK'],
  [0x200f, 'RIGHT-TO-LEFT MARK'],
  [0x2028, 'LINE SEPARATOR'],
  [0x2029, 'PARAGRAPH SEPARATOR'],
  [0x202a, 'LEFT-TO-RIGHT EMBEDDING'],
  [0x202b, 'RIGHT-TO-LEFT EMBEDDING'],
  [0x202c, 'POP DIRECTIONAL FORMATTING'],
  [0x202d, 'LEFT-TO-RIGHT OVERRIDE'],
  [0x202e, 'RIGHT-TO-LEFT OVERRIDE'],
  [0x2060, 'WORD JOINER'],
  [0x2061, 'FUNCTION APPLICATION'],
  [0x2062, 'INVISIBLE TIMES'],
  [0x2063, 'INVISIBLE SEPARATOR'],
  [0x2064, 'INVISIBLE PLUS'],
  [0x2066, 'LEFT-TO-RIGHT ISOLATE'],
  [0x2067, 'RIGHT-TO-LEFT ISOLATE'],
  [0x2068, 'FIRST STRONG ISOLATE'],
  [0x2069, 'POP DIRECTIONAL ISOLATE'],
  [0x3164, 'HANGUL FILLER'],
  [0xfeff, 'ZERO WIDTH NO-BREAK SPACE'],
  [0xffa0, 'HALFWIDTH HANGUL FILLER'],
  [0xfff9, 'INTERLINEAR ANNOTATION ANCHOR'],
  [0xfffa, 'INTERLINEAR ANNOTATION SEPARATOR'],
  [0xfffb, 'INTERLINEAR ANNOTATION TERMINATOR'],
  [0xe0001, 'LANGUAGE TAG'],
  [0xe007f, 'CANCEL TAG'],
]);

/** `U+200B`. */
export function codeLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `U+200B ZERO WIDTH SPACE`: the name a person is shown for an invisible or control character. */
export function codeName(codePoint: number): string {
  const name = NAMES.get(codePoint);
  if (name) return `${codeLabel(codePoint)} ${name}`;
  if (isVariationSelector(codePoint))
    return `${codeLabel(codePoint)} VARIATION SELECTOR-${selectorNumber(codePoint)}`;
  if (codePoint >= 0xe0020 && codePoint <= 0xe007e)
    return `${codeLabel(codePoint)} TAG ${String.fromCharCode(codePoint - 0xe0000)}`;
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f))
    return `${codeLabel(codePoint)} control character`;
  return `${codeLabel(codePoint)} invisible format character`;
}

export function isVariationSelector(codePoint: number): boolean {
  return (codePoint >= 0xfe00 && codePoint <= 0xfe0f) || (codePoint >= 0xe0100 && codePoint <= 0xe01ef);
}

function selectorNumber(codePoint: number): number {
  return codePoint <= 0xfe0f ? codePoint - 0xfe00 + 1 : codePoint - 0xe0100 + 17;
}

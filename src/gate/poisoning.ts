/**
 * Tool poisoning: text in a tool's definition that a model reads but a person would not see, or
 * that speaks to the model as if it were its operator. Everything found is reported and made
 * visible (`revealInvisible`); nothing is removed or hidden, and nothing here blocks a call.
 *
 * Which invisible characters count as hidden (the rule, precisely):
 * - Bidirectional controls are always reported (U+202A-U+202E embeddings/overrides, U+2066-U+2069
 *   isolates, U+200E/U+200F marks, U+061C ARABIC LETTER MARK). Right-to-left text needs none of
 *   them: Hebrew and Arabic letters carry their own direction.
 * - Every other Default_Ignorable_Code_Point, every other format character (Cf) and every C0/C1
 *   control except tab, line feed and carriage return is hidden, unless it is doing its ordinary job
 *   in the place it stands:
 *   - U+200D ZERO WIDTH JOINER between emoji: after an Extended_Pictographic character, a skin-tone
 *     modifier or U+FE0F, and before an Extended_Pictographic character (woman technologist = U+1F469 U+200D U+1F4BB).
 *   - U+200C/U+200D after a letter or mark of a script that shapes with joiners (Arabic and Persian
 *     ZWNJ, Indic conjunct control after or before a virama, Sinhala, Myanmar, Khmer, ...), when
 *     not next to another joiner. Between Latin, Greek, Cyrillic or CJK letters a joiner does
 *     nothing visible, so there it is reported.
 *   - A single variation selector after a visible base (U+2764 U+FE0F, U+845B U+E0100): U+FE00-U+FE0F after any
 *     non-space character; U+E0100-U+E01EF only after an ideograph (the only bases the
 *     Ideographic Variation Database defines). Two selectors in a row never occur in real text;
 *     runs of them are how bytes are smuggled (one selector per byte), so a run is reported and
 *     decoded.
 *   - Tag characters inside an emoji subdivision flag (U+1F3F4, 2-6 tag letters or digits,
 *     U+E007F, e.g. the flag of Scotland). Anywhere else tag characters spell invisible ASCII and
 *     are reported with the text they spell.
 *   - U+034F COMBINING GRAPHEME JOINER between a letter or mark and a following mark; Mongolian
 *     free variation selectors and U+180E after a Mongolian letter; Hangul choseong/jungseong
 *     fillers inside a conjoining jamo sequence; prepended concatenation marks (U+0600-U+0605,
 *     U+06DD, U+070F, U+0890-U+0891, U+08E2, U+110BD, U+110CD), which are visible signs.
 *   U+200B, U+2060-U+2064, U+FEFF, U+00AD soft hyphen, Hangul fillers standing alone (U+3164,
 *   U+FFA0) and everything else in the set are reported wherever they occur.
 *
 * Offsets in details are UTF-16 indexes, as `String.prototype.slice` counts.
 */

import { isJsonObject, type Tool } from '../protocol/index.js';
import { codeLabel, codeName, isVariationSelector } from './code-names.js';
import type { PoisoningFlag } from './types.js';

type HiddenClass = 'bidi' | 'tag' | 'selector' | 'other';

interface HiddenRun {
  start: number;
  end: number;
  hiddenClass: HiddenClass;
  codePoints: number[];
}

const BIDI_CONTROLS = new Set([
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
]);
const PREPENDED_CONCATENATION_MARKS = new Set([
  0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06dd, 0x070f, 0x0890, 0x0891, 0x08e2, 0x110bd, 0x110cd,
]);
const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const VS16 = 0xfe0f;
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;

const CANDIDATE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}]/u;
const NOT_PLAIN_ASCII = /[^\x20-\x7e\t\n\r]/;
const EXTENDED_PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const EMOJI_MODIFIER = /\p{Emoji_Modifier}/u;
const IDEOGRAPHIC = /\p{Ideographic}/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const MARK = /\p{M}/u;
const MONGOLIAN = /\p{scx=Mongolian}/u;
const SPACE_OR_CONTROL = /[\p{White_Space}\p{Cc}\p{Cf}]/u;
// Scripts whose shaping uses ZWJ/ZWNJ (Unicode 16, chapter 23.2 and the script chapters).
const JOINING_SCRIPT =
  /[\p{scx=Arabic}\p{scx=Syriac}\p{scx=Nko}\p{scx=Mongolian}\p{scx=Phags_Pa}\p{scx=Mandaic}\p{scx=Manichaean}\p{scx=Psalter_Pahlavi}\p{scx=Adlam}\p{scx=Hanifi_Rohingya}\p{scx=Sogdian}\p{scx=Devanagari}\p{scx=Bengali}\p{scx=Gurmukhi}\p{scx=Gujarati}\p{scx=Oriya}\p{scx=Tamil}\p{scx=Telugu}\p{scx=Kannada}\p{scx=Malayalam}\p{scx=Sinhala}\p{scx=Tibetan}\p{scx=Myanmar}\p{scx=Khmer}\p{scx=Tai_Tham}\p{scx=Balinese}\p{scx=Javanese}\p{scx=Sundanese}\p{scx=Limbu}\p{scx=Tirhuta}\p{scx=Grantha}\p{scx=Sharada}\p{scx=Kaithi}\p{scx=Newa}\p{scx=Chakma}\p{scx=Brahmi}]/u;

function isTag(codePoint: number): boolean {
  return codePoint >= 0xe0000 && codePoint <= 0xe007f;
}

/** Tag letters and digits, the only ones a subdivision flag uses. */
function isFlagTag(codePoint: number): boolean {
  return (codePoint >= 0xe0030 && codePoint <= 0xe0039) || (codePoint >= 0xe0061 && codePoint <= 0xe007a);
}

function test(pattern: RegExp, codePoint: number | undefined): boolean {
  return codePoint !== undefined && pattern.test(String.fromCodePoint(codePoint));
}

/** Length of an emoji subdivision flag starting at `index` (a black flag), or 0. */
function subdivisionFlagLength(codePoints: number[], index: number): number {
  let end = index + 1;
  while (end < codePoints.length && end - index <= 6 && isFlagTag(codePoints[end]!)) end++;
  const letters = end - index - 1;
  return letters >= 2 && letters <= 6 && codePoints[end] === CANCEL_TAG ? end - index + 1 : 0;
}

/** Whether the character at `index` is hidden here, and how; `undefined` when it is ordinary text. */
function classify(codePoints: number[], index: number): HiddenClass | undefined {
  const codePoint = codePoints[index]!;
  if (BIDI_CONTROLS.has(codePoint)) return 'bidi';
  if (codePoint === 0x09 || codePoint === 0x0a || codePoint === 0x0d) return undefined;
  if (!test(CANDIDATE, codePoint)) return undefined;
  const before = codePoints[index - 1];
  const after = codePoints[index + 1];
  if (isTag(codePoint)) return 'tag';
  if (isVariationSelector(codePoint)) {
    if (
      (before !== undefined && isVariationSelector(before)) ||
      (after !== undefined && isVariationSelector(after))
    ) {
      return 'selector';
    }
    if (before === undefined || test(SPACE_OR_CONTROL, before)) return 'selector';
    if (codePoint >= 0xe0100 && !test(IDEOGRAPHIC, before)) return 'selector';
    return undefined;
  }
  if (codePoint === ZWJ || codePoint === ZWNJ) {
    const nextToJoiner = before === ZWJ || before === ZWNJ || after === ZWJ || after === ZWNJ;
    if (nextToJoiner) return 'other';
    const emoji =
      codePoint === ZWJ &&
      (test(EXTENDED_PICTOGRAPHIC, before) || test(EMOJI_MODIFIER, before) || before === VS16) &&
      test(EXTENDED_PICTOGRAPHIC, after);
    if (emoji) return undefined;
    if (test(LETTER_OR_MARK, before) && test(JOINING_SCRIPT, before)) return undefined;
    return 'other';
  }
  if (codePoint === 0x034f) return test(LETTER_OR_MARK, before) && test(MARK, after) ? undefined : 'other';
  if (codePoint >= 0x180b && codePoint <= 0x180f) {
    return test(MONGOLIAN, before) && test(LETTER_OR_MARK, before) ? undefined : 'other';
  }
  if (codePoint === 0x115f) return after !== undefined && isJungseong(after) ? undefined : 'other';
  if (codePoint === 0x1160) return before !== undefined && isChoseong(before) ? undefined : 'other';
  if (PREPENDED_CONCATENATION_MARKS.has(codePoint)) return undefined;
  return 'other';
}

function isChoseong(codePoint: number): boolean {
  return (codePoint >= 0x1100 && codePoint <= 0x115f) || (codePoint >= 0xa960 && codePoint <= 0xa97c);
}

function isJungseong(codePoint: number): boolean {
  return (codePoint >= 0x1160 && codePoint <= 0x11a7) || (codePoint >= 0xd7b0 && codePoint <= 0xd7c6);
}

/** The hidden characters of `text`, grouped into runs of one class. */
function findHidden(text: string): HiddenRun[] {
  if (!NOT_PLAIN_ASCII.test(text)) return [];
  const codePoints: number[] = [];
  const offsets: number[] = [];
  for (let offset = 0; offset < text.length; ) {
    const codePoint = text.codePointAt(offset)!;
    codePoints.push(codePoint);
    offsets.push(offset);
    offset += codePoint > 0xffff ? 2 : 1;
  }
  offsets.push(text.length);
  const runs: HiddenRun[] = [];
  for (let index = 0; index < codePoints.length; index++) {
    if (codePoints[index] === BLACK_FLAG) {
      index += Math.max(0, subdivisionFlagLength(codePoints, index) - 1);
      continue;
    }
    const hiddenClass = classify(codePoints, index);
    if (!hiddenClass) continue;
    const last = runs.at(-1);
    if (last && last.hiddenClass === hiddenClass && last.end === offsets[index]) {
      last.end = offsets[index + 1]!;
      last.codePoints.push(codePoints[index]!);
    } else {
      runs.push({
        start: offsets[index]!,
        end: offsets[index + 1]!,
        hiddenClass,
        codePoints: [codePoints[index]!],
      });
    }
  }
  return runs;
}

/** The ASCII text a run of tag characters spells (language and cancel tags spell nothing). */
function decodeTags(codePoints: number[]): string {
  let text = '';
  for (const codePoint of codePoints) {
    if (codePoint >= 0xe0020 && codePoint <= 0xe007e) text += String.fromCharCode(codePoint - 0xe0000);
  }
  return text;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes smuggled in a run of variation selectors (one selector per byte), as text when they are UTF-8. */
function decodeSelectors(codePoints: number[]): { text?: string; bytes: number[] } {
  const bytes = codePoints.map((codePoint) =>
    codePoint <= 0xfe0f ? codePoint - 0xfe00 : codePoint - 0xe0100 + 16,
  );
  try {
    const text = strictUtf8.decode(new Uint8Array(bytes));
    return /^[^\p{Cc}\p{Cf}]*$/u.test(text.replace(/[\t\n\r]/g, ' ')) ? { text, bytes } : { bytes };
  } catch {
    // Not UTF-8: only the bytes are shown, never a lossy decoding.
    return { bytes };
  }
}

/** The visible stand-in for one hidden run. */
function marker(run: HiddenRun): string {
  if (run.hiddenClass === 'tag') {
    const spelled = decodeTags(run.codePoints);
    if (spelled) return `⟦hidden tag text: ${JSON.stringify(spelled)}⟧`;
  }
  if (run.hiddenClass === 'selector' && run.codePoints.length > 1) {
    const { text } = decodeSelectors(run.codePoints);
    const count = `${run.codePoints.length} variation selectors`;
    return text ? `⟦${count}: ${JSON.stringify(text)}⟧` : `⟦${count}⟧`;
  }
  let out = '';
  for (let i = 0; i < run.codePoints.length; ) {
    let repeat = 1;
    while (run.codePoints[i + repeat] === run.codePoints[i]) repeat++;
    out += `⟦${codeLabel(run.codePoints[i]!)}${repeat > 1 ? `×${repeat}` : ''}⟧`;
    i += repeat;
  }
  return out;
}

/**
 * Replaces every hidden or bidirectional control character with a visible marker (`⟦U+200B⟧`,
 * `⟦U+200B×3⟧`, `⟦hidden tag text: "..."⟧`, `⟦12 variation selectors: "..."⟧`), so a UI can show
 * server text without hiding anything. Characters doing their ordinary job (a joiner inside an emoji
 * or a Persian word, a variation selector after its base) are left as they are.
 */
export function revealInvisible(text: string): string {
  const runs = findHidden(text);
  if (runs.length === 0) return text;
  let out = '';
  let from = 0;
  for (const run of runs) {
    out += text.slice(from, run.start) + marker(run);
    from = run.end;
  }
  return out + text.slice(from);
}

/** `text` without its hidden characters: what a person sees, and what markup patterns run on. */
function visibleText(text: string, runs: HiddenRun[]): string {
  let out = '';
  let from = 0;
  for (const run of runs) {
    out += text.slice(from, run.start);
    from = run.end;
  }
  return out + text.slice(from);
}

const SNIPPET_LIMIT = 160;

/** A one-line, visible, bounded excerpt of server text. */
function snippet(text: string, limit = SNIPPET_LIMIT): string {
  const shown = revealInvisible(text).replace(/\s+/g, ' ').trim();
  return shown.length > limit ? `${shown.slice(0, limit - 1)}…` : shown;
}

const CONTEXT_CHARS = 16;

/** Where a run sits: the visible text around it (other hidden runs left out), and the run's marker. */
interface RunContext {
  visible: string;
  /** The run's position in `visible`. */
  at: number;
}

/** A slice boundary moved off the middle of a surrogate pair. */
function safeBoundary(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff ? index - 1 : index;
}

/** The run with a few visible characters either side: `…Adds two⟦U+200B⟧ numbers…`. */
function inContext(run: HiddenRun, context: RunContext): string {
  const { visible, at } = context;
  const from = safeBoundary(visible, Math.max(0, at - CONTEXT_CHARS));
  const to = safeBoundary(visible, Math.min(visible.length, at + CONTEXT_CHARS));
  const left = visible.slice(from, at).replace(/\s+/g, ' ');
  const right = visible.slice(at, to).replace(/\s+/g, ' ');
  return `${from > 0 ? '…' : ''}${left}${marker(run)}${right}${to < visible.length ? '…' : ''}`;
}

function describeRun(run: HiddenRun, context: RunContext): string {
  const where = `at ${run.start}`;
  if (run.hiddenClass === 'tag') {
    const spelled = decodeTags(run.codePoints);
    if (spelled) return `hidden text in Unicode tag characters ${where}: '${snippet(spelled)}'`;
  }
  if (run.hiddenClass === 'selector' && run.codePoints.length > 1) {
    const { text: decoded, bytes } = decodeSelectors(run.codePoints);
    const head = `${run.codePoints.length} variation selectors in a row ${where} (one per hidden byte)`;
    if (decoded) return `${head}: hidden text '${snippet(decoded)}'`;
    const hex = bytes
      .slice(0, 16)
      .map((byte) => byte.toString(16).padStart(2, '0'))
      .join(' ');
    return `${head}: bytes ${hex}${bytes.length > 16 ? ' …' : ''}`;
  }
  const names: string[] = [];
  for (let i = 0; i < run.codePoints.length && names.length < 6; ) {
    let repeat = 1;
    while (run.codePoints[i + repeat] === run.codePoints[i]) repeat++;
    names.push(`${codeName(run.codePoints[i]!)}${repeat > 1 ? ` ×${repeat}` : ''}`);
    i += repeat;
  }
  return `${names.join(', ')} ${where}: '${inContext(run, context)}'`;
}

interface MarkupRule {
  kind: 'instruction-markup' | 'hidden-html';
  label: string;
  pattern: RegExp;
  /** The pattern cannot match text without `<` or `[` (a cheap skip: most text has neither). */
  needsMarkup?: boolean;
}

// Tags that address a model as its operator. Placeholders like <path> or <user> are not on the list.
const PROMPT_TAG =
  /<\s*(\/?)\s*(important|system|system[-_ ]?(?:prompt|message|instructions?)|instructions?|tool[-_ ]?instructions?|sys|critical|override|(?:secret|hidden|admin)[-_ ]?instructions?)(?:\s[^<>]{0,80})?>/gi;

const MARKUP_RULES: MarkupRule[] = [
  {
    kind: 'instruction-markup',
    label: 'chat-template control token',
    needsMarkup: true,
    pattern: /<\|[a-z_]{2,24}\|>|\[\/?INST\]|<<\/?SYS>>/gi,
  },
  {
    kind: 'instruction-markup',
    label: 'tells the model to ignore its instructions',
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|of|my)\s+){0,3}(?:previous|prior|above|earlier|preceding|former|other|system|original)\s+(?:instructions?|prompts?|rules|directions|guidelines|messages|context)\b|\bforget\s+everything\b/gi,
  },
  {
    kind: 'instruction-markup',
    label: 'tells the model to keep something from the user',
    pattern:
      /\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|shouldn'?t)\s+(?:tell|inform|mention|reveal|notify|alert|show|disclose|explain)\b[^.\n]{0,30}?\bthe\s+user\b|\bwithout\s+(?:telling|informing|notifying|alerting|asking|letting)\s+(?:the\s+)?user\b|\b(?:hide|conceal|keep)\s+(?:this|it|that)\s+(?:(?:secret|hidden)\s+)?from\s+the\s+user\b|\bthe\s+user\s+(?:must|should|need|needs\s+to)\s+(?:not|never)\s+(?:know|see|be\s+told)\b/gi,
  },
  {
    kind: 'instruction-markup',
    label: 'precondition that asks the model to read or send something',
    pattern:
      /\b(?:before|prior\s+to)\s+(?:using|calling|invoking|running|executing|you\s+(?:use|call|invoke|run))\s+(?:this|the|any)\s+tool\b[^.\n]{0,40}?\b(?:read|open|cat|send|upload|attach|forward|copy|email|post|fetch|include)\b/gi,
  },
  {
    kind: 'hidden-html',
    label: 'HTML comment (not rendered)',
    needsMarkup: true,
    pattern: /<!--[\s\S]*?(?:-->|$)/g,
  },
  {
    kind: 'hidden-html',
    label: 'Markdown comment (not rendered)',
    needsMarkup: true,
    pattern: /^[ \t]*\[[^\]\n]*\]:[ \t]*(?:#|<>)[ \t]*(?:\([^)\n]*\)|"[^"\n]*")/gm,
  },
];

/**
 * Every rule without `needsMarkup` needs one of these words: a cheap skip for the many short
 * strings of a big schema (20,000 enum values took ~70 ms through the three patterns).
 */
const PLAIN_RULE_KEYWORDS = /ignore|disregard|forget|override|bypass|user|before|prior/i;

// Credential files a tool has no reason to tell a model to read, with an imperative verb nearby.
const CREDENTIAL_PATH =
  /(?:~|\$HOME|%USERPROFILE%)?[\\/]?\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws[\\/]credentials|\/etc\/(?:passwd|shadow)|\.netrc\b|\.git-credentials\b|\.kube[\\/]config\b|\.docker[\\/]config\.json|\bmcp\.json\b|(?:^|[\s~/'"`(])\.env\b/i;
const IMPERATIVE_READ =
  /\b(?:read|cat|open|send|include|pass|upload|attach|forward|leak|exfiltrate|copy|paste|print)\b|\bcontents?\s+of\b/i;
// A sentence ends at . ! ? followed by space or the end, or at a line break (paths keep their dots).
const SENTENCE = /[^\n]*?(?:[.!?](?=\s|$)|\n|$)/g;

const HIDING_STYLE =
  /display\s*:\s*none|visibility\s*:\s*hidden|opacity\s*:\s*0*(?:\.0+)?\s*(?:[;"'}]|$)|font-size\s*:\s*0+(?:\.0+)?(?:px|em|rem|pt|%)?\s*(?:[;"'}]|$)|(?:^|[;\s"'])color\s*:\s*transparent/i;
const OPEN_TAG = /<([a-z][\w-]*)(\s[^<>]*)?>/gi;
const NEVER_RENDERED = new Set(['script', 'style', 'template', 'noscript']);

type Finding = Omit<PoisoningFlag, 'field'>;

function hiddenFindings(text: string, runs: HiddenRun[]): Finding[] {
  const visible = visibleText(text, runs);
  let removed = 0;
  return runs.map((run) => {
    const finding: Finding = {
      kind: run.hiddenClass === 'bidi' ? 'bidi-controls' : 'invisible-characters',
      detail: describeRun(run, { visible, at: run.start - removed }),
    };
    removed += run.end - run.start;
    return finding;
  });
}

function findings(text: string): Finding[] {
  const runs = findHidden(text);
  const found = hiddenFindings(text, runs);
  // Patterns run on what remains once hidden characters are removed (so `<IMP\u200BORTANT>` still
  // matches), normalized so full-width look-alikes (＜ＩＭＰＯＲＴＡＮＴ＞) match too.
  const visible =
    runs.length > 0 || NOT_PLAIN_ASCII.test(text) ? visibleText(text, runs).normalize('NFKC') : text;
  const hasMarkup = visible.includes('<') || visible.includes('[');
  for (const match of hasMarkup ? visible.matchAll(PROMPT_TAG) : []) {
    const [tag, closing, name] = match;
    const start = match.index;
    if (closing) {
      // A closing tag whose opening tag was reported already adds nothing.
      const opener = new RegExp(`<\\s*${escapeRegExp(name!)}(?:\\s[^<>]{0,80})?>`, 'i');
      if (opener.test(visible.slice(0, start))) continue;
    }
    const closer = closing
      ? -1
      : visible.slice(start).search(new RegExp(`<\\s*/\\s*${escapeRegExp(name!)}\\s*>`, 'i'));
    const excerpt =
      closer > 0
        ? visible.slice(start, start + closer).concat(`</${name}>`)
        : visible.slice(start, start + 120);
    found.push({
      kind: 'instruction-markup',
      detail: `instruction-like tag ${snippet(tag, 60)}: '${snippet(excerpt)}'`,
    });
  }
  const hasKeyword = PLAIN_RULE_KEYWORDS.test(visible);
  for (const rule of MARKUP_RULES) {
    if (rule.needsMarkup ? !hasMarkup : !hasKeyword) continue;
    for (const match of visible.matchAll(rule.pattern)) {
      // Hidden HTML is shown as found; instructions with a little context around them.
      const shown = rule.kind === 'hidden-html' ? match[0] : aroundMatch(visible, match.index, match[0]);
      found.push({ kind: rule.kind, detail: `${rule.label}: '${snippet(shown)}'` });
    }
  }
  for (const [sentence] of CREDENTIAL_PATH.test(visible) ? visible.matchAll(SENTENCE) : []) {
    if (sentence && CREDENTIAL_PATH.test(sentence) && IMPERATIVE_READ.test(sentence)) {
      found.push({
        kind: 'instruction-markup',
        detail: `asks to read or send a credential file: '${snippet(sentence)}'`,
      });
    }
  }
  for (const match of hasMarkup ? visible.matchAll(OPEN_TAG) : []) {
    const name = match[1]!.toLowerCase();
    const attributes = match[2] ?? '';
    const hidden = NEVER_RENDERED.has(name)
      ? `<${name}> element (never rendered)`
      : /\bstyle\s*=/i.test(attributes) && HIDING_STYLE.test(attributes)
        ? `<${name}> element hidden by its style`
        : /(?:^|\s)hidden(?=[\s=/]|$)/i.test(attributes)
          ? `<${name} hidden> element`
          : undefined;
    if (!hidden) continue;
    const from = match.index + match[0].length;
    const close = visible.slice(from).search(new RegExp(`<\\s*/\\s*${escapeRegExp(name)}\\s*>`, 'i'));
    const inner = visible.slice(from, close >= 0 ? from + close : from + 200);
    found.push({ kind: 'hidden-html', detail: `${hidden}: '${snippet(inner)}'` });
  }
  return found;
}

function aroundMatch(text: string, index: number, matched: string): string {
  const from = Math.max(0, index - 20);
  const to = Math.min(text.length, index + matched.length + 60);
  return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `inputSchema.properties.path.description`; keys that are not plain names are quoted and revealed. */
export function formatFieldPath(root: string, segments: readonly (string | number)[]): string {
  let path = root;
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) path += `.${segment}`;
    else path += `[${revealInvisible(JSON.stringify(segment))}]`;
  }
  return path;
}

// Schema keywords whose string values are machine syntax, not prose a model reads.
const SYNTAX_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$ref',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  'pattern',
  'format',
  'type',
]);
const MAX_SCHEMA_DEPTH = 64;
const MAX_SCHEMA_STRINGS = 20_000;
const MAX_FLAGS_PER_FIELD = 20;
const MAX_FLAGS = 200;

/**
 * Finds tool poisoning in a tool's definition: in its name, title, description, annotations.title,
 * and in every string of its input and output schemas a model reads (descriptions, titles, property
 * names, enum/const/default/example values). Each flag shows what was found, made visible.
 */
export function detectPoisoning(tool: Tool): PoisoningFlag[] {
  const flags: PoisoningFlag[] = [];
  let omitted = 0;
  const report = (field: string, found: Finding[]): void => {
    const listed = found.length > MAX_FLAGS_PER_FIELD ? found.slice(0, MAX_FLAGS_PER_FIELD - 1) : found;
    for (const finding of listed) {
      if (flags.length < MAX_FLAGS) flags.push({ field, ...finding });
      else omitted++;
    }
    const rest = found.length - listed.length;
    if (rest > 0 && flags.length < MAX_FLAGS) {
      flags.push({
        field,
        kind: found[listed.length]!.kind,
        detail: `… and ${rest} more findings in this field`,
      });
    } else omitted += rest;
  };
  const checkText = (field: string | (() => string), value: unknown): void => {
    if (typeof value !== 'string') return;
    const found = findings(value);
    // Most strings are clean: their field path is only spelled out when there is something to show.
    if (found.length > 0) report(typeof field === 'string' ? field : field(), found);
  };
  checkText('name', tool.name);
  checkText('title', tool.title);
  checkText('description', tool.description);
  if (isJsonObject(tool.annotations)) checkText('annotations.title', tool.annotations.title);
  let budget = MAX_SCHEMA_STRINGS;
  const walk = (root: string, value: unknown, path: (string | number)[], depth: number): void => {
    if (budget <= 0 || depth > MAX_SCHEMA_DEPTH) return;
    if (typeof value === 'string') {
      budget--;
      const key = path.at(-1);
      if (typeof key !== 'string' || !SYNTAX_KEYWORDS.has(key))
        checkText(() => formatFieldPath(root, path), value);
    } else if (Array.isArray(value)) {
      // Stops with the budget: a 100,000-value enum is not walked past it (that alone took ~90 ms).
      for (let index = 0; index < value.length && budget > 0; index++)
        walk(root, value[index], [...path, index], depth + 1);
    } else if (isJsonObject(value)) {
      for (const key of Object.keys(value).sort()) {
        if (budget <= 0) break;
        budget--;
        // A key is text too (a property name the model reads); only hidden characters matter there.
        const runs = findHidden(key);
        if (runs.length > 0)
          report(
            `${formatFieldPath(root, path)} key ${revealInvisible(JSON.stringify(key))}`,
            hiddenFindings(key, runs),
          );
        walk(root, value[key], [...path, key], depth + 1);
      }
    }
  };
  walk('inputSchema', tool.inputSchema, [], 0);
  walk('outputSchema', tool.outputSchema, [], 0);
  // What was not read is said, never passed over in silence: a flag cannot be hidden past the budget.
  if (budget <= 0)
    flags.push({
      field: 'inputSchema',
      kind: 'instruction-markup',
      detail: `the schemas hold more than ${MAX_SCHEMA_STRINGS.toLocaleString('en')} strings and keys; only the first ${MAX_SCHEMA_STRINGS.toLocaleString('en')} were scanned for hidden text`,
    });
  if (omitted > 0) {
    const last = flags.at(-1)!;
    flags.push({ field: last.field, kind: last.kind, detail: `… and ${omitted} more findings not listed` });
  }
  return flags;
}

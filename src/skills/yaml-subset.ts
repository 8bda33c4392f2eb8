/**
 * A reader for the YAML that SKILL.md frontmatter is written in, and nothing more: block mappings
 * and sequences (compact `- key: value` items too), plain, quoted, literal (`|`) and folded (`>`)
 * scalars, one-line flow collections, comments, typed by the YAML 1.2 core schema.
 *
 * Why not a YAML library: the frontmatter is compared field by field with the entry the person
 * approved, and a full YAML parser is most of the widget's weight again. Why a strict subset: what
 * this reader does not understand (anchors, aliases, tags, complex keys, multi-line flow or quoted
 * scalars, indentation indicators) it refuses with a FrontmatterError naming the line, so the skill
 * fails verification instead of being read differently from what its author meant. Never a guess.
 */

import type { JsonObject } from '../protocol/index.js';

/** The frontmatter is outside the subset or not valid YAML: the skill is not loaded. */
export class FrontmatterError extends Error {
  constructor(
    message: string,
    /** 1-based line in the text given to the parser (or the SKILL.md, when split from one). */
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = 'FrontmatterError';
  }
}

interface Line {
  no: number;
  /** Leading spaces. */
  indent: number;
  /** The line without its leading spaces. */
  text: string;
  /** The whole line, for block scalars (where `#` is content). */
  raw: string;
}

/** Deeper than this is refused (a stack-safe bound; real frontmatter nests two or three levels). */
const MAX_DEPTH = 32;
const TABS_IN_INDENT = 'tabs are not allowed in indentation';

/** Parses frontmatter YAML into a JSON object; `firstLine` numbers its first line in errors. */
export function parseYamlSubset(yaml: string, firstLine = 1): JsonObject {
  if (yaml.includes('\r'))
    throw new FrontmatterError('carriage returns inside the frontmatter are not supported');
  // A final line break ends the last line; it does not start an empty one.
  const lines = (yaml.endsWith('\n') ? yaml.slice(0, -1) : yaml).split('\n').map((raw, index): Line => {
    const text = raw.replace(/^ +/, '');
    if (/^(?:---|\.\.\.)(?:[ \t]|$)/.test(raw))
      throw new FrontmatterError('document markers ("---", "...") inside the frontmatter', firstLine + index);
    // YAML readers disagree on tabs in otherwise blank lines; none is worth guessing about.
    if (raw.includes('\t') && isBlank(raw)) throw new FrontmatterError(TABS_IN_INDENT, firstLine + index);
    return { no: firstLine + index, indent: raw.length - text.length, text, raw };
  });
  return new Reader(lines).document();
}

class Reader {
  private at = 0;

  constructor(private readonly lines: Line[]) {}

  document(): JsonObject {
    const first = this.peek();
    if (!first) return {};
    if (isSequenceItem(first.text) || matchKey(first.text, first.no) === undefined)
      throw new FrontmatterError('the frontmatter must be a mapping of keys to values', first.no);
    const value = this.mapping(first.indent, 0);
    const extra = this.peek();
    if (extra) throw new FrontmatterError('unexpected content', extra.no);
    return value;
  }

  /** The next line with content (blank and comment-only lines skipped), not consumed. */
  private peek(): Line | undefined {
    while (this.at < this.lines.length) {
      const line = this.lines[this.at]!;
      if (!isBlank(line.text) && !line.text.startsWith('#')) {
        if (line.text.startsWith('\t')) throw new FrontmatterError(TABS_IN_INDENT, line.no);
        return line;
      }
      this.at++;
    }
    return undefined;
  }

  private mapping(indent: number, depth: number): JsonObject {
    if (depth > MAX_DEPTH) throw new FrontmatterError(`nesting deeper than ${MAX_DEPTH} levels`);
    const map: JsonObject = {};
    for (let line = this.peek(); line && line.indent >= indent; line = this.peek()) {
      if (line.indent > indent) throw new FrontmatterError('unexpected indentation', line.no);
      if (isSequenceItem(line.text)) break;
      const match = matchKey(line.text, line.no);
      if (!match) throw new FrontmatterError('expected "key: value"', line.no);
      if (Object.hasOwn(map, match.key)) throw new FrontmatterError(`duplicate key "${match.key}"`, line.no);
      this.at++;
      // defineProperty: a key such as "__proto__" is data here, never the object's prototype.
      Object.defineProperty(map, match.key, {
        value: this.value(match.rest, line, indent, depth, true),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return map;
  }

  private sequence(indent: number, depth: number): unknown[] {
    if (depth > MAX_DEPTH) throw new FrontmatterError(`nesting deeper than ${MAX_DEPTH} levels`);
    const items: unknown[] = [];
    for (let line = this.peek(); line && line.indent >= indent; line = this.peek()) {
      if (line.indent > indent) throw new FrontmatterError('unexpected indentation', line.no);
      if (!isSequenceItem(line.text)) break;
      const rest = line.text.slice(1).replace(/^ +/, '');
      if (rest.startsWith('\t')) throw new FrontmatterError(TABS_IN_INDENT, line.no);
      const nestedSequence = isSequenceItem(rest);
      if (nestedSequence || (rest !== '' && !rest.startsWith('#') && matchKey(rest, line.no))) {
        // `- key: value` or `- - item`: a collection whose first line sits after the dash; its
        // other lines line up with it.
        const column = line.indent + (line.text.length - rest.length);
        this.lines[this.at] = { ...line, indent: column, text: rest };
        items.push(nestedSequence ? this.sequence(column, depth + 1) : this.mapping(column, depth + 1));
        continue;
      }
      this.at++;
      items.push(this.value(rest, line, indent, depth, false));
    }
    return items;
  }

  /**
   * The value after `key:` or `- ` (its line already consumed). `inMapping`: a block sequence may
   * then sit at the key's own indentation (`key:` followed by `- item` lines).
   */
  private value(rest: string, line: Line, indent: number, depth: number, inMapping: boolean): unknown {
    if (rest === '' || rest.startsWith('#')) {
      const next = this.peek();
      if (next && next.indent > indent)
        return isSequenceItem(next.text)
          ? this.sequence(next.indent, depth + 1)
          : this.mapping(next.indent, depth + 1);
      if (next && inMapping && next.indent === indent && isSequenceItem(next.text))
        return this.sequence(indent, depth + 1);
      return null;
    }
    const first = rest[0]!;
    if (first === '|' || first === '>') return this.blockScalar(rest, line, indent);
    if (first === '[' || first === '{') {
      const flow = new FlowReader(rest, line.no);
      const value = flow.value(0);
      flow.end();
      return value;
    }
    if (first === '"' || first === "'") {
      const { value, end } = readQuoted(rest, 0, line.no);
      if (!isEndOfValue(rest.slice(end)))
        throw new FrontmatterError('unexpected text after a quoted value', line.no);
      return value;
    }
    return resolvePlain(this.plain(rest, line, indent));
  }

  /** A plain scalar, with its continuation lines (more indented than its key) folded in. */
  private plain(rest: string, line: Line, indent: number): string {
    checkPlainStart(rest, line.no);
    const comment = rest.search(/[ \t]#/);
    const firstText = trimEnd(comment === -1 ? rest : rest.slice(0, comment));
    checkPlainText(firstText, line.no);
    let text = firstText;
    let breaks = 0;
    for (let at = this.at; at < this.lines.length; at++) {
      const next = this.lines[at]!;
      if (isBlank(next.text)) {
        breaks++;
        continue;
      }
      if (next.indent <= indent || next.text.startsWith('#')) break;
      if (comment !== -1)
        throw new FrontmatterError('a comment ends a plain value; quote a longer one', next.no);
      if (next.text.startsWith('\t')) throw new FrontmatterError(TABS_IN_INDENT, next.no);
      const more = trimEnd(next.text);
      if (/[ \t]#/.test(more))
        throw new FrontmatterError('a comment inside a multi-line plain value', next.no);
      checkPlainText(more, next.no);
      // Folding: one line break is a space; each blank line in between is a line break of its own.
      text += `${breaks === 0 ? ' ' : '\n'.repeat(breaks)}${more}`;
      breaks = 0;
      this.at = at + 1;
    }
    return text;
  }

  /** `|` (literal) or `>` (folded) with optional chomping (`-` strip, `+` keep). */
  private blockScalar(header: string, line: Line, indent: number): string {
    const match = /^([|>])([+-]?)(?:[ \t]+#.*)?[ \t]*$/.exec(header);
    if (!match)
      throw new FrontmatterError(
        /^[|>][+-]?[0-9]/.test(header)
          ? 'block scalar indentation indicators are not supported'
          : 'invalid block scalar header',
        line.no,
      );
    const folded = match[1] === '>';
    const chomping = match[2];
    const content: string[] = [];
    let contentIndent: number | undefined;
    let leadingBlankWidth = 0;
    for (; this.at < this.lines.length; this.at++) {
      const next = this.lines[this.at]!;
      if (isBlank(next.raw)) {
        if (contentIndent === undefined) leadingBlankWidth = Math.max(leadingBlankWidth, next.raw.length);
        else if (next.raw.length > contentIndent)
          throw new FrontmatterError('a whitespace-only line indented past a block scalar', next.no);
        content.push('');
        continue;
      }
      if (contentIndent === undefined) {
        if (next.indent <= indent) break;
        if (next.text.startsWith('\t')) throw new FrontmatterError(TABS_IN_INDENT, next.no);
        if (leadingBlankWidth > next.indent)
          throw new FrontmatterError('a leading blank line is indented past the block scalar', next.no);
        contentIndent = next.indent;
      }
      if (next.indent < contentIndent) break;
      content.push(next.raw.slice(contentIndent));
    }
    // Whether the document's last line break counts for `+` is a corner YAML readers disagree on.
    if (chomping === '+' && this.at === this.lines.length)
      throw new FrontmatterError(
        '"|+" or ">+" on the last value of the frontmatter is not supported',
        line.no,
      );
    // Trailing blank lines belong to the scalar only for chomping; the mapping goes on after them.
    let trailing = 0;
    while (content.length > 0 && content.at(-1) === '') {
      content.pop();
      trailing++;
    }
    if (content.length === 0) return chomping === '+' ? '\n'.repeat(trailing) : '';
    const body = folded ? fold(content) : content.join('\n');
    if (chomping === '-') return body;
    if (chomping === '+') return `${body}\n${'\n'.repeat(trailing)}`;
    return `${body}\n`;
  }
}

/** Folds `>` content: a break between two ordinary lines is a space, blank lines are breaks. */
function fold(lines: readonly string[]): string {
  let out = '';
  let index = 0;
  while (lines[index] === '') {
    out += '\n';
    index++;
  }
  let previousMore = false;
  let blanks = 0;
  let started = false;
  for (; index < lines.length; index++) {
    const line = lines[index]!;
    if (line === '') {
      blanks++;
      continue;
    }
    const more = line.startsWith(' ') || line.startsWith('\t');
    if (started)
      out += !more && !previousMore ? (blanks === 0 ? ' ' : '\n'.repeat(blanks)) : '\n'.repeat(blanks + 1);
    out += line;
    started = true;
    previousMore = more;
    blanks = 0;
  }
  return out;
}

/** YAML's white space is the space and the tab only (a no-break space is content). */
function isBlank(text: string): boolean {
  return /^[ \t]*$/.test(text);
}

function trimEnd(text: string): string {
  return text.replace(/[ \t]+$/, '');
}

function isSequenceItem(text: string): boolean {
  return text === '-' || text.startsWith('- ') || text.startsWith('-\t');
}

/** `key: rest` or `key:` at the start of `text` (key plain or quoted); undefined when not a key. */
function matchKey(text: string, no: number): { key: string; rest: string } | undefined {
  if (text.startsWith('? ') || text === '?')
    throw new FrontmatterError('complex keys ("?") are not supported', no);
  let key: string;
  let after: number;
  if (text.startsWith('"') || text.startsWith("'")) {
    let quoted: { value: string; end: number };
    try {
      quoted = readQuoted(text, 0, no);
    } catch {
      // An unterminated or malformed quoted value is not a value this subset reads.
      return undefined;
    }
    after = quoted.end;
    while (text[after] === ' ') after++;
    if (text[after] !== ':' || !(after + 1 === text.length || text[after + 1] === ' ')) return undefined;
    key = quoted.value;
  } else {
    const colon = /:(?: |\t|$)/.exec(text);
    if (!colon) return undefined;
    const candidate = text.slice(0, colon.index);
    if (/[ \t]#/.test(candidate)) return undefined;
    key = trimEnd(candidate);
    if (key === '') throw new FrontmatterError('an empty key', no);
    if (key[0] === '[' || key[0] === '{')
      throw new FrontmatterError('flow collections as keys are not supported', no);
    checkPlainStart(key, no);
    // A key YAML types as a number, boolean or null would reach JSON spelled differently: refuse it.
    if (typeof resolvePlain(key) !== 'string') throw new FrontmatterError(`quote the key "${key}"`, no);
    after = colon.index;
  }
  return { key, rest: text.slice(after + 1).replace(/^[ \t]+/, '') };
}

/** Refuses plain scalars that start with an indicator YAML gives another meaning. */
function checkPlainStart(text: string, no: number): void {
  const first = text[0];
  if (first === undefined) return;
  if ('&*!'.includes(first)) throw new FrontmatterError('anchors, aliases and tags are not supported', no);
  if ('%@`|>#'.includes(first) || ',]}'.includes(first))
    throw new FrontmatterError(`"${first}" cannot start a plain value; quote it`, no);
  if ('-?:'.includes(first) && (text.length === 1 || text[1] === ' ' || text[1] === '\t'))
    throw new FrontmatterError(`"${first} " cannot start a plain value; quote it`, no);
}

/** A plain scalar in block context may not hold `: ` (YAML would read a key) or end in `:`. */
function checkPlainText(text: string, no: number): void {
  if (/:(?: |\t|$)/.test(text)) throw new FrontmatterError('": " inside a plain value; quote the value', no);
}

function isEndOfValue(rest: string): boolean {
  return /^[ \t]*(?:#.*)?$/.test(rest) && !/^#/.test(rest);
}

/** Types a plain scalar by the YAML 1.2 core schema. */
export function resolvePlain(text: string): unknown {
  if (text === '' || /^(?:~|null|Null|NULL)$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return Number.parseInt(text, 10);
  if (/^0o[0-7]+$/.test(text)) return Number.parseInt(text.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return Number.parseInt(text.slice(2), 16);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) {
    const value = Number(text);
    if (!Number.isFinite(value)) throw new FrontmatterError(`"${text}" is a number JSON cannot hold`);
    return value;
  }
  if (/^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/.test(text))
    throw new FrontmatterError(`"${text}" is a number JSON cannot hold`);
  return text;
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_ESCAPES: Record<string, number> = { x: 2, u: 4, U: 8 };

/** A quoted scalar starting at `start`, on one line; `end` is the index after its closing quote. */
function readQuoted(text: string, start: number, no: number): { value: string; end: number } {
  const quote = text[start];
  let value = '';
  for (let at = start + 1; at < text.length; at++) {
    const char = text[at]!;
    if (quote === "'") {
      if (char !== "'") value += char;
      else if (text[at + 1] === "'") {
        value += "'";
        at++;
      } else return { value, end: at + 1 };
      continue;
    }
    if (char === '"') return { value, end: at + 1 };
    if (char !== '\\') {
      value += char;
      continue;
    }
    const escaped = text[at + 1];
    if (escaped === undefined) break;
    const width = HEX_ESCAPES[escaped];
    if (width !== undefined) {
      const hex = text.slice(at + 2, at + 2 + width);
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex))
        throw new FrontmatterError(`invalid escaped "\\${escaped}${hex}"`, no);
      const code = Number.parseInt(hex, 16);
      if (code > 0x10ffff) throw new FrontmatterError(`invalid escaped "\\${escaped}${hex}"`, no);
      // \u stays one UTF-16 unit (surrogate pairs come as two escapeds, as YAML writers emit them).
      value += escaped === 'U' ? String.fromCodePoint(code) : String.fromCharCode(code);
      at += 1 + width;
      continue;
    }
    const replacement = ESCAPES[escaped];
    if (replacement === undefined) throw new FrontmatterError(`unknown escaped "\\${escaped}"`, no);
    value += replacement;
    at++;
  }
  throw new FrontmatterError('a quoted value must close on its own line', no);
}

/** One-line flow collections: `[a, "b", {c: 1}]`. */
class FlowReader {
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly no: number,
  ) {}

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new FrontmatterError(`nesting deeper than ${MAX_DEPTH} levels`, this.no);
    this.spaces();
    const char = this.text[this.at];
    if (char === '[') return this.list(depth);
    if (char === '{') return this.map(depth);
    if (char === '"' || char === "'") {
      const { value, end } = readQuoted(this.text, this.at, this.no);
      this.at = end;
      return value;
    }
    return resolvePlain(this.plain());
  }

  /** Only spaces or a comment may follow the collection. */
  end(): void {
    if (!isEndOfValue(this.text.slice(this.at)))
      throw new FrontmatterError(
        'unexpected text after a flow collection (it must fit on one line)',
        this.no,
      );
  }

  private list(depth: number): unknown[] {
    this.at++;
    const items: unknown[] = [];
    this.spaces();
    if (this.text[this.at] === ']') {
      this.at++;
      return items;
    }
    for (;;) {
      items.push(this.value(depth + 1));
      this.spaces();
      const char = this.text[this.at++];
      if (char === ']') return items;
      if (char !== ',') throw this.unclosed(']');
      this.spaces();
      if (this.text[this.at] === ']')
        throw new FrontmatterError('a trailing "," in a flow sequence', this.no);
    }
  }

  private map(depth: number): JsonObject {
    this.at++;
    const map: JsonObject = {};
    this.spaces();
    if (this.text[this.at] === '}') {
      this.at++;
      return map;
    }
    for (;;) {
      this.spaces();
      const keyValue = this.value(depth + 1);
      if (typeof keyValue !== 'string')
        throw new FrontmatterError('flow mapping keys must be strings (quote them)', this.no);
      const key = keyValue;
      this.spaces();
      if (this.text[this.at] !== ':') throw new FrontmatterError('expected ":" in a flow mapping', this.no);
      this.at++;
      if (Object.hasOwn(map, key)) throw new FrontmatterError(`duplicate key "${key}"`, this.no);
      Object.defineProperty(map, key, {
        value: this.value(depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.spaces();
      const char = this.text[this.at++];
      if (char === '}') return map;
      if (char !== ',') throw this.unclosed('}');
    }
  }

  /** A plain scalar inside a flow collection: up to `,`, a closing bracket or `: `. */
  private plain(): string {
    const start = this.at;
    const first = this.text[start];
    if (first === undefined) throw this.unclosed('a value');
    checkPlainStart(this.text.slice(start), this.no);
    if ('[{'.includes(first)) throw new FrontmatterError('unexpected flow collection', this.no);
    while (this.at < this.text.length) {
      const char = this.text[this.at]!;
      if (',[]{}'.includes(char)) break;
      if (char === ':' && /^:(?:[ \t,\]}]|$)/.test(this.text.slice(this.at))) break;
      if (char === '#' && /[ \t]/.test(this.text[this.at - 1] ?? '')) break;
      this.at++;
    }
    return trimEnd(this.text.slice(start, this.at));
  }

  private spaces(): void {
    while (this.text[this.at] === ' ' || this.text[this.at] === '\t') this.at++;
  }

  private unclosed(what: string): FrontmatterError {
    return new FrontmatterError(`expected ${what} (flow collections must fit on one line)`, this.no);
  }
}

/**
 * Heuristics for regular expressions that backtrack catastrophically. JavaScript cannot interrupt a
 * running regex, so a schema `pattern` like `(a+)+$` plus a crafted argument would freeze the page:
 * such patterns are refused before any engine sees them. A heuristic: it flags the classic shapes
 * (a repeated group whose body is itself one repeatable atom, a repeated wildcard inside a repeated
 * group, repeated alternatives that overlap) and lets idioms like `([a-z0-9]+-)*` through.
 */

interface Term {
  min: number;
  max: number;
  atom: Atom;
}

type Atom = { kind: 'char'; source: string } | { kind: 'dot' } | { kind: 'group'; alternatives: Sequence[] };

interface Sequence {
  source: string;
  terms: Term[];
}

/** Why `source` is refused, or undefined when it looks safe. `source` must already be a valid regex. */
export function catastrophicShape(source: string): string | undefined {
  const parser = new Parser(source);
  const alternatives = parser.alternatives();
  for (const sequence of alternatives) {
    const found = inspectSequence(sequence);
    if (found) return found;
  }
  return undefined;
}

function inspectSequence(sequence: Sequence): string | undefined {
  for (const term of sequence.terms) {
    if (term.atom.kind !== 'group') continue;
    const { alternatives } = term.atom;
    if (term.max > 1) {
      if (alternatives.some(loose))
        return 'repeats a group whose body is itself repeatable (like (a+)+), which can take exponential time';
      if (alternatives.some(hasRepeatedWildcard))
        return 'repeats a group containing a repeated wildcard (like (.*a)+), which can take exponential time';
      if (overlapping(alternatives))
        return 'repeats overlapping alternatives (like (a|ab)*), which can take exponential time';
    }
    for (const inner of alternatives) {
      const found = inspectSequence(inner);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * A body whose required part is one variable-length run (`a+`, `\w+\s?`), or several runs of the
 * same atom (`x+x+`): consecutive iterations can split the same input in exponentially many ways.
 */
function loose(sequence: Sequence): boolean {
  const mandatory = sequence.terms.filter((term) => term.min > 0);
  if (mandatory.length === 0) return sequence.terms.some(repeatable);
  if (!mandatory.every(repeatable)) return false;
  const first = atomSource(mandatory[0] as Term);
  return (
    mandatory.length === 1 || (first !== undefined && mandatory.every((term) => atomSource(term) === first))
  );
}

/** Matches a variable number of times (`a+`, `a{2,5}`; not `a{4}` or `a?`), or is a loose group. */
function repeatable(term: Term): boolean {
  return (
    (term.max > 1 && term.max > term.min) ||
    (term.atom.kind === 'group' && term.atom.alternatives.some(loose))
  );
}

function atomSource(term: Term): string | undefined {
  return term.atom.kind === 'char' ? term.atom.source : term.atom.kind === 'dot' ? '.' : undefined;
}

function hasRepeatedWildcard(sequence: Sequence): boolean {
  return sequence.terms.some(
    (term) =>
      (term.atom.kind === 'dot' && term.max > 1) ||
      (term.atom.kind === 'group' && term.atom.alternatives.some(hasRepeatedWildcard)),
  );
}

function overlapping(alternatives: Sequence[]): boolean {
  const sources = alternatives.map((alternative) => alternative.source).filter((source) => source !== '');
  for (let i = 0; i < sources.length; i++)
    for (let j = 0; j < sources.length; j++)
      if (i !== j && (sources[j] as string).startsWith(sources[i] as string)) return true;
  return false;
}

/** A small recursive-descent reader of regex source, just enough to see groups and quantifiers. */
class Parser {
  private index = 0;

  constructor(private readonly source: string) {}

  alternatives(): Sequence[] {
    const result: Sequence[] = [this.sequence()];
    while (this.source[this.index] === '|') {
      this.index++;
      result.push(this.sequence());
    }
    return result;
  }

  private sequence(): Sequence {
    const start = this.index;
    const terms: Term[] = [];
    while (this.index < this.source.length) {
      const char = this.source[this.index];
      if (char === '|' || char === ')') break;
      const atom = this.atom();
      const [min, max] = this.quantifier();
      terms.push({ atom, min, max });
    }
    return { source: this.source.slice(start, this.index), terms };
  }

  private atom(): Atom {
    const start = this.index;
    const char = this.source[this.index];
    if (char === '(') {
      this.index++;
      this.skipGroupPrefix();
      const alternatives = this.alternatives();
      this.index++; // ')'
      return { kind: 'group', alternatives };
    }
    if (char === '.') {
      this.index++;
      return { kind: 'dot' };
    }
    if (char === '[') {
      this.index++;
      if (this.source[this.index] === '^') this.index++;
      while (this.index < this.source.length && this.source[this.index] !== ']') {
        this.index += this.source[this.index] === '\\' ? 2 : 1;
      }
      this.index++; // ']'
    } else if (char === '\\') {
      const letter = this.source[this.index + 1] ?? '';
      this.index += 2;
      // \u{...}, \p{...}, \P{...}, \k<name>: the braces or brackets belong to the escape.
      const close = 'upP'.includes(letter) ? '}' : letter === 'k' ? '>' : '';
      const open = close === '}' ? '{' : '<';
      if (close && this.source[this.index] === open) {
        const end = this.source.indexOf(close, this.index);
        if (end >= 0) this.index = end + 1;
      }
    } else {
      this.index++;
    }
    return { kind: 'char', source: this.source.slice(start, this.index) };
  }

  private skipGroupPrefix(): void {
    if (this.source[this.index] !== '?') return;
    const rest = this.source.slice(this.index, this.index + 3);
    if (rest.startsWith('?:') || rest.startsWith('?=') || rest.startsWith('?!')) this.index += 2;
    else if (rest === '?<=' || rest === '?<!') this.index += 3;
    else if (rest.startsWith('?<')) {
      const end = this.source.indexOf('>', this.index);
      this.index = end >= 0 ? end + 1 : this.index + 2;
    }
  }

  /** [min, max] of the quantifier at the cursor ([1, 1] when there is none); consumes a lazy `?`. */
  private quantifier(): [number, number] {
    const char = this.source[this.index];
    let bounds: [number, number] | undefined;
    if (char === '*') bounds = [0, Number.POSITIVE_INFINITY];
    else if (char === '+') bounds = [1, Number.POSITIVE_INFINITY];
    else if (char === '?') bounds = [0, 1];
    if (bounds) this.index++;
    else if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.index));
      if (!match) return [1, 1];
      this.index += match[0].length;
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] ? Number(match[3]) : Number.POSITIVE_INFINITY;
      bounds = [min, max];
    } else return [1, 1];
    if (this.source[this.index] === '?') this.index++;
    return bounds;
  }
}

/**
 * Reads `WWW-Authenticate` (RFC 9110 §11.6.1): one header may carry several challenges, each a
 * scheme followed by a token68 or comma-separated auth-params, and the commas between challenges
 * are the same commas as between params. Servers are lenient in what they send (unquoted URLs,
 * stray spaces), so the reader is lenient too and never throws: what it cannot read it skips.
 */

/** One challenge: the scheme as sent, params by lower-cased name (the first of duplicates wins). */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
  token68?: string;
}

/** What a Bearer challenge tells an OAuth client (RFC 6750 §3, RFC 9728 §5.1). */
export interface BearerChallenge {
  /** The Protected Resource Metadata URL (RFC 9728), if the server named one. */
  resourceMetadata?: string;
  /** The scopes the server wants for this request, in its order, without duplicates. */
  scopes?: string[];
  /** `invalid_token`, `insufficient_scope`, `invalid_request`, or another code. */
  error?: string;
  errorDescription?: string;
}

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68_CHAR = /[A-Za-z0-9\-._~+/]/;

export function parseChallenges(header: string | null | undefined): Challenge[] {
  if (!header) return [];
  const reader = new Reader(header);
  const challenges: Challenge[] = [];
  while (reader.skipSeparators()) {
    const scheme = reader.token();
    if (!scheme) {
      // Not a challenge start: skip to the next comma and try again.
      reader.skipPast(',');
      continue;
    }
    const challenge: Challenge = { scheme, params: {} };
    challenges.push(challenge);
    if (!reader.skipSpaces()) continue;
    const token68 = reader.token68();
    if (token68 !== undefined) {
      challenge.token68 = token68;
      continue;
    }
    readParams(reader, challenge);
  }
  return challenges;
}

/** The first Bearer challenge of a header, read for OAuth; undefined when there is none. */
export function bearerChallenge(header: string | null | undefined): BearerChallenge | undefined {
  const challenge = parseChallenges(header).find((candidate) => candidate.scheme.toLowerCase() === 'bearer');
  return challenge ? oauthParams(challenge) : undefined;
}

/**
 * What an OAuth challenge's params say (RFC 6750 §3, RFC 9728 §5.1): the same for the Bearer and
 * the DPoP scheme (RFC 9449 §7.1).
 */
export function oauthParams({ params }: Challenge): BearerChallenge {
  const result: BearerChallenge = {};
  if (params.resource_metadata) result.resourceMetadata = params.resource_metadata;
  if (params.scope !== undefined) {
    const scopes = splitScopes(params.scope);
    if (scopes.length > 0) result.scopes = scopes;
  }
  if (params.error) result.error = params.error;
  if (params.error_description) result.errorDescription = params.error_description;
  return result;
}

/** A space-separated scope string (RFC 6749 §3.3) as a list without empty or repeated entries. */
export function splitScopes(scope: string): string[] {
  return [...new Set(scope.split(/[ \t]+/).filter((part) => part.length > 0))];
}

function readParams(reader: Reader, challenge: Challenge): void {
  for (;;) {
    const name = reader.token();
    if (!name) return;
    reader.skipSpaces();
    if (!reader.take('=')) return;
    reader.skipSpaces();
    const value = reader.peek() === '"' ? reader.quotedString() : reader.looseValue();
    const key = name.toLowerCase();
    if (!(key in challenge.params)) challenge.params[key] = value;
    reader.skipSpaces();
    if (!reader.at(',')) return;
    // After a comma comes either the next param (`name =`) or the next challenge (`Scheme ...`).
    if (!reader.paramFollows()) return;
    reader.skipSeparators();
  }
}

class Reader {
  private index = 0;
  constructor(private readonly text: string) {}

  peek(): string | undefined {
    return this.text[this.index];
  }

  at(char: string): boolean {
    return this.text[this.index] === char;
  }

  take(char: string): boolean {
    if (!this.at(char)) return false;
    this.index++;
    return true;
  }

  /** Skips spaces, tabs and commas; false at the end of the text. */
  skipSeparators(): boolean {
    while (this.index < this.text.length && /[ \t,]/.test(this.text[this.index] ?? '')) this.index++;
    return this.index < this.text.length;
  }

  /** Skips spaces and tabs; false when none were there or the text ended. */
  skipSpaces(): boolean {
    const start = this.index;
    while (this.at(' ') || this.at('\t')) this.index++;
    return this.index > start && this.index < this.text.length;
  }

  skipPast(char: string): void {
    const next = this.text.indexOf(char, this.index);
    this.index = next === -1 ? this.text.length : next + 1;
  }

  token(): string {
    const start = this.index;
    while (this.index < this.text.length && TCHAR.test(this.text[this.index] ?? '')) this.index++;
    return this.text.slice(start, this.index);
  }

  /** A token68 when one stands alone here (followed by the end or a comma), else nothing consumed. */
  token68(): string | undefined {
    let end = this.index;
    while (end < this.text.length && TOKEN68_CHAR.test(this.text[end] ?? '')) end++;
    if (end === this.index) return undefined;
    while (this.text[end] === '=') end++;
    let after = end;
    while (this.text[after] === ' ' || this.text[after] === '\t') after++;
    // `realm=x` is a param; a token68 (RFC 9110: `abc`, `abc==`) stands alone before a comma or the end.
    if (after < this.text.length && this.text[after] !== ',') return undefined;
    const value = this.text.slice(this.index, end);
    this.index = end;
    return value;
  }

  quotedString(): string {
    this.index++; // the opening quote
    let value = '';
    while (this.index < this.text.length) {
      const char = this.text[this.index++];
      if (char === '"') return value;
      if (char === '\\' && this.index < this.text.length) value += this.text[this.index++];
      else value += char;
    }
    return value; // unterminated: what was there
  }

  /** An unquoted value: a token in the grammar, read up to a space or comma to accept bare URLs. */
  looseValue(): string {
    const start = this.index;
    while (this.index < this.text.length && !/[ \t,"]/.test(this.text[this.index] ?? '')) this.index++;
    return this.text.slice(start, this.index);
  }

  /** At a comma: true when what follows is `token =` (another param of the same challenge). */
  paramFollows(): boolean {
    let probe = this.index + 1;
    while (/[ \t,]/.test(this.text[probe] ?? '')) probe++;
    const start = probe;
    while (probe < this.text.length && TCHAR.test(this.text[probe] ?? '')) probe++;
    if (probe === start) return false;
    while (this.text[probe] === ' ' || this.text[probe] === '\t') probe++;
    return this.text[probe] === '=';
  }
}

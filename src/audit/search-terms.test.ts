import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addWords, hasPrefix, matchesWords, searchWords, wordsOfEntry } from './search-terms.js';

/** The definition the scanner must agree with, as regular expressions. */
function reference(text: string): Set<string> {
  const words = new Set<string>();
  const lower = text.toLowerCase();
  for (const [word] of lower.matchAll(/[\p{L}\p{N}]+(?:[._-][\p{L}\p{N}]+)*/gu)) {
    words.add(word.slice(0, 40));
    if (/[._-]/.test(word))
      for (const [part] of word.matchAll(/[\p{L}\p{N}]+/gu)) words.add(part.slice(0, 40));
  }
  return words;
}

const entry = (toolName: string, serverId: string, argumentsPreview: string) => ({
  toolName,
  serverId,
  argumentsPreview,
});

describe('search words', () => {
  it('splits on punctuation, keeps joined words whole and in parts, lower-cases', () => {
    const words = new Set<string>();
    addWords('{"path":"/srv/Example.com/a_b-c","n":4242} tool_42 x.', words);
    expect([...words].sort()).toEqual(
      [
        '4242',
        '42',
        'a',
        'a_b-c',
        'b',
        'c',
        'com',
        'example',
        'example.com',
        'n',
        'path',
        'srv',
        'tool',
        'tool_42',
        'x',
      ].sort(),
    );
  });

  it('agrees with the regular-expression definition on any text, Unicode included', () => {
    const alphabet = fc.constantFrom(...'aZ09._- "{}:/éÅ漢字😀İß\u0301'.split(''), '😀');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 80 }),
        fc.string({ maxLength: 60, unit: 'binary' }),
        (chars, noise) => {
          for (const text of [chars.join(''), noise]) {
            const words = new Set<string>();
            addWords(text, words);
            expect(words).toEqual(reference(text));
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('cuts long words at 40 characters, in the entry and in the search alike', () => {
    const long = 'x'.repeat(60);
    expect(searchWords(long)).toEqual(['x'.repeat(40)]);
    expect(matchesWords(entry('t', 's', long), searchWords(long))).toBe(true);
  });

  it('matches when every search word begins a word of the tool, server or arguments', () => {
    const e = entry('write_file', 'files.example.com', '{"path":"/tmp/report.txt","mode":"overwrite"}');
    expect(matchesWords(e, searchWords('write'))).toBe(true);
    expect(matchesWords(e, searchWords('FILE'))).toBe(true);
    expect(matchesWords(e, searchWords('exam report'))).toBe(true);
    expect(matchesWords(e, searchWords('"mode":"over'))).toBe(true);
    expect(matchesWords(e, searchWords('port'))).toBe(false);
    expect(matchesWords(e, searchWords('report missing'))).toBe(false);
    expect(matchesWords(e, searchWords(''))).toBe(true);
    expect(wordsOfEntry(e)).toContain('files.example.com');
    expect(hasPrefix(['a', 'bc', 'bd'], 'b')).toBe(true);
    expect(hasPrefix(['a', 'bc', 'bd'], 'be')).toBe(false);
  });

  it('matches the caller: its kind, its label, and who it is in plain words', () => {
    const site = {
      ...entry('echo', 'sdk', '{}'),
      caller: { kind: 'site' as const, label: 'https://shop.example' },
    };
    const own = { ...entry('echo', 'sdk', '{}'), caller: { kind: 'person' as const } };
    expect(matchesWords(site, searchWords('shop.example'))).toBe(true);
    expect(matchesWords(site, searchWords('web site'))).toBe(true);
    expect(matchesWords(own, searchWords('you'))).toBe(true);
    expect(matchesWords(own, searchWords('person'))).toBe(true);
    expect(matchesWords(own, searchWords('site'))).toBe(false);
    expect(matchesWords(site, searchWords('you'))).toBe(false);
  });
});

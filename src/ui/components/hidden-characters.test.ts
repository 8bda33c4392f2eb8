import { describe, expect, it } from 'vitest';
import {
  escapeHidden,
  escapeHiddenInJson,
  findHiddenCharacters,
  hiddenInValue,
  segmentsOf,
  summarizeHidden,
} from './hidden-characters.js';

describe('findHiddenCharacters', () => {
  it('finds controls, zero-width and bidi characters, the BOM and the soft hyphen, not tab or line feed', () => {
    const text = 'a\tb\nc\rd\u0000e\u0085f\u200Bg\u200Ch\u200Di\u202Aj\u202Ek\u2066l\u2069m\uFEFFn\u00ADo';
    expect(findHiddenCharacters(text).map((found) => found.escape)).toEqual([
      '\\r',
      '\\u0000',
      '\\u0085',
      '\\u200B',
      '\\u200C',
      '\\u200D',
      '\\u202A',
      '\\u202E',
      '\\u2066',
      '\\u2069',
      '\\uFEFF',
      '\\u00AD',
    ]);
  });

  it('finds tag characters and runs of variation selectors, not one selector after its base', () => {
    expect(findHiddenCharacters('I \u2764\uFE0F it')).toEqual([]);
    const smuggled = findHiddenCharacters('x\uFE01\uFE02\u{E0041}');
    expect(smuggled.map((found) => found.escape)).toEqual(['\\uFE01', '\\uFE02', '\\u{E0041}']);
    expect(smuggled[2]!.name).toBe('U+E0041 TAG A');
  });

  it('finds nothing in ordinary text', () => {
    expect(findHiddenCharacters('line one\nline two\trm -rf / — café 日本')).toEqual([]);
  });
});

describe('rendering', () => {
  it('splits text into plain runs and escapes, so the escapes can be marked', () => {
    expect(segmentsOf('ab\u202Ecd\r\n')).toEqual([
      { text: 'ab' },
      { hidden: { index: 2, codePoint: 0x202e, escape: '\\u202E', name: 'U+202E RIGHT-TO-LEFT OVERRIDE' } },
      { text: 'cd' },
      { hidden: { index: 5, codePoint: 0x0d, escape: '\\r', name: 'U+000D CARRIAGE RETURN' } },
      { text: '\n' },
    ]);
    expect(escapeHidden('exe.\u202Efdp')).toBe('exe.\\u202Efdp');
  });

  it('summarizes kinds with counts', () => {
    expect(summarizeHidden(findHiddenCharacters('\u200Ba\u200B\u202E'))).toBe(
      'U+200B ZERO WIDTH SPACE ×2, U+202E RIGHT-TO-LEFT OVERRIDE',
    );
  });

  it('writes hidden characters in JSON as escapes that parse back to the same value', () => {
    const value = { 'k\u200B': 'a\u202Eb\u{E0041}\r\n\u0085', plain: 'x' };
    const json = escapeHiddenInJson(JSON.stringify(value, null, 2));
    expect(json).toContain('"k\\u200B"');
    expect(json).toContain('"a\\u202Eb\\uDB40\\uDC41\\r\\n\\u0085"');
    expect(findHiddenCharacters(json)).toEqual([]);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('finds hidden characters in nested strings and keys', () => {
    expect(hiddenInValue({ a: ['x\u200B'], '\u202E': 1 }).map((found) => found.escape)).toEqual([
      '\\u200B',
      '\\u202E',
    ]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The oracle: the full YAML 1.2 parser already installed with the build tools (Vite, the
// conformance suite). Toolgate does not ship it; these tests hold the subset reader to it.
import { parse, stringify } from 'yaml';
import { FrontmatterError, parseYamlSubset, resolvePlain } from './yaml-subset.js';

describe('parseYamlSubset: the YAML skills are written in', () => {
  it('reads a typical frontmatter', () => {
    const yaml = [
      'name: pdf-processing',
      'description: Extract text and tables from PDF files, fill forms,',
      '  and merge documents. # not a comment inside? no: it is one',
      'license: "Apache-2.0"',
      "compatibility: 'Requires poppler ''22'' or later'",
      'allowed-tools: Bash(pdftotext:*) Read',
      'metadata:',
      '  author: example-org',
      '  version: "1.0"',
      '  tags: [pdf, documents, "forms: fill"]',
      'steps:',
      '- extract',
      '- name: merge',
      '  order: 2',
      'notes: |',
      '  Line one',
      '    indented',
      '',
      '  after a blank line',
      'summary: >-',
      '  folded',
      '  text',
    ].join('\n');
    expect(() => parseYamlSubset(yaml)).toThrow(FrontmatterError);
    const fixed = yaml.replace(' # not a comment inside? no: it is one', '');
    const value = parseYamlSubset(fixed);
    expect(value).toEqual(parse(fixed));
    expect(value).toMatchObject({
      description: 'Extract text and tables from PDF files, fill forms, and merge documents.',
      metadata: { version: '1.0', tags: ['pdf', 'documents', 'forms: fill'] },
      steps: ['extract', { name: 'merge', order: 2 }],
      notes: 'Line one\n  indented\n\nafter a blank line\n',
      summary: 'folded text',
    });
  });

  it('types plain values by the YAML 1.2 core schema', () => {
    expect(
      ['~', 'null', 'true', 'False', '12', '-0x1F', '0x1F', '0o17', '1.5e3', '.5', 'yes', 'on', '1_000'].map(
        resolvePlain,
      ),
    ).toEqual([null, null, true, false, 12, '-0x1F', 31, 15, 1500, 0.5, 'yes', 'on', '1_000']);
  });

  it('keeps "__proto__" as data', () => {
    const value = parseYamlSubset('__proto__: {polluted: true}\nname: x');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'name']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['anchor: &a 1', 'anchors'],
    ['alias: *a', 'anchors'],
    ['tagged: !!str 1', 'anchors'],
    ['? complex\n: key', 'complex keys'],
    ['a: 1\na: 2', 'duplicate key'],
    ['list: [a,\n  b]', 'one line'],
    ['quoted: "open\n  close"', 'close on its own line'],
    ['block: |2\n   x', 'indentation indicators'],
    ['a:\n\tb: 1', 'tabs'],
    ['- item', 'mapping'],
    ['a: b: c', '": "'],
    ['1: numeric key', 'quote the key'],
    ['inf: .inf', 'JSON cannot hold'],
    ['a: 1\n--- \nb: 2', 'document markers'],
  ])('refuses %j (%s)', (yaml, reason) => {
    expect(() => parseYamlSubset(yaml)).toThrow(reason);
  });

  it('names the line of a problem', () => {
    expect(() => parseYamlSubset('a: 1\nb: &x 2', 5)).toThrow('line 6:');
  });
});

describe('parseYamlSubset never reads YAML differently from a full parser', () => {
  const token = fc.constantFrom(
    'a',
    'b',
    'c d',
    'k: ',
    'x:',
    '- ',
    '- - ',
    '  ',
    ' ',
    "'q'",
    '"w\\n"',
    ' #c',
    '|',
    '>',
    '|-',
    '>+',
    '[',
    ']',
    '{',
    '}',
    ', ',
    ':',
    '1',
    '0x1F',
    '1.5e3',
    'true',
    'null',
    '~',
    '\n',
    '\n',
    '\n',
    '\n  ',
    '\n    ',
    '&a',
    '*a',
    '!t',
    '? ',
    '"',
    "'",
    '#',
    '-',
    '.inf',
    '012',
    '+3',
    '\u00a0',
    '\t',
    '---',
  );

  it('token soup: what it accepts, the yaml package reads the same; the rest is refused', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), (tokens) => {
        const text = tokens.join('');
        let mine: unknown;
        try {
          mine = parseYamlSubset(text);
        } catch (error) {
          if (error instanceof FrontmatterError) return;
          throw error;
        }
        // Accepting what a full parser rejects would be reading something else too.
        const theirs = parse(text, { schema: 'core', uniqueKeys: true }) ?? {};
        expect(mine, JSON.stringify(text)).toEqual(theirs);
      }),
      { numRuns: 4000 },
    );
  });

  const key = fc.string({ minLength: 1, maxLength: 12 });
  const leaf = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 10 }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  );
  const { tree } = fc.letrec((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('tree'), { maxLength: 4 }),
      fc.dictionary(key, tie('tree'), { maxKeys: 4 }),
    ),
  }));
  const frontmatter = fc.dictionary(key, tree, { minKeys: 1, maxKeys: 6 });

  it('any JSON object written by a YAML writer reads back equal, or is refused', () => {
    fc.assert(
      fc.property(frontmatter, fc.constantFrom(0, 40, 80), (value, lineWidth) => {
        const json = JSON.parse(JSON.stringify(value)) as unknown;
        const text = stringify(json, { lineWidth });
        let mine: unknown;
        try {
          mine = parseYamlSubset(text);
        } catch (error) {
          if (error instanceof FrontmatterError) return;
          throw error;
        }
        expect(mine, text).toEqual(json);
      }),
      { numRuns: 1500 },
    );
  });

  const word = fc.stringMatching(/^[A-Za-z0-9 .,:;#'"!?()/@&*_-]{0,60}$/);
  const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
  const ordinary = fc.letrec((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small' },
      word,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('tree'), { maxLength: 4 }),
      fc.dictionary(name, tie('tree'), { maxKeys: 4 }),
    ),
  })).tree;

  it('frontmatter made of ordinary text is always read, never refused', () => {
    fc.assert(
      fc.property(
        fc.dictionary(name, ordinary, { minKeys: 1, maxKeys: 6 }),
        fc.constantFrom(0, 40, 80),
        (value, lineWidth) => {
          const text = stringify(value, { lineWidth });
          expect(parseYamlSubset(text), text).toEqual(JSON.parse(JSON.stringify(value)));
        },
      ),
      { numRuns: 1500 },
    );
  });
});

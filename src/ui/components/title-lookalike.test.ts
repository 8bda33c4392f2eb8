import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { looksLikeName, type NamedTool, titleLookalike } from './title-lookalike.js';

const on = (serverLabel: string, ...names: string[]): NamedTool[] =>
  names.map((name) => ({ name, serverLabel }));

describe('titleLookalike', () => {
  const tools = [...on('files', 'delete_everything', 'lookup', 'list_files'), ...on('mail', 'send_message')];

  it("flags a title that is another tool's name, and names that tool and its server", () => {
    expect(titleLookalike('lookup', 'delete_everything', tools)).toEqual({
      tool: { name: 'lookup', serverLabel: 'files' },
      exact: true,
    });
    expect(titleLookalike('send_message', 'delete_everything', tools)).toEqual({
      tool: { name: 'send_message', serverLabel: 'mail' },
      exact: true,
    });
  });

  it('flags a title that only looks like another tool name', () => {
    const looks = (title: string) => titleLookalike(title, 'delete_everything', tools);
    for (const title of [
      'Lookup',
      'LOOK UP',
      'look-up',
      'look.up',
      ' lookup ',
      'look\u200Bup',
      'l\u00ADookup',
      'ｌｏｏｋｕｐ',
      'l\u043E\u043Ekup',
      'l\u03BF\u03BFkup',
      'Iookup',
      '1ookup',
      'l00kup',
      'Send Message',
      'send\u2014message',
    ])
      expect(looks(title), title).toMatchObject({ exact: false });
  });

  it('leaves alone a title that describes the tool, or is its own name in other words', () => {
    expect(titleLookalike('Delete everything', 'delete_everything', tools)).toBeUndefined();
    expect(titleLookalike('DELETE-EVERYTHING', 'delete_everything', tools)).toBeUndefined();
    expect(titleLookalike('Remove all files', 'delete_everything', tools)).toBeUndefined();
    expect(titleLookalike('Look up a word', 'lookup', tools)).toBeUndefined();
    expect(titleLookalike(undefined, 'lookup', tools)).toBeUndefined();
    expect(titleLookalike('  ', 'lookup', tools)).toBeUndefined();
  });

  it('compares with every tool but the titled one itself', () => {
    expect(titleLookalike('lookup', 'lookup', on('files', 'lookup'))).toBeUndefined();
    expect(titleLookalike('list files', 'delete_everything', tools)?.tool.name).toBe('list_files');
    expect(titleLookalike('list files', 'delete_everything', [])).toBeUndefined();
  });
});

describe('looksLikeName', () => {
  it('tells different names apart', () => {
    expect(looksLikeName('lookup', 'lockup')).toBe(false);
    expect(looksLikeName('list_files', 'list_file')).toBe(false);
    expect(looksLikeName('read', 'reader')).toBe(false);
  });

  it('maps rn to m, as they read', () => {
    expect(looksLikeName('rnove_files', 'move_files')).toBe(true);
  });

  const name = fc.stringMatching(/^[a-z][a-z0-9]{0,7}(?:_[a-z0-9]{1,8}){0,3}$/);

  it('is reflexive and symmetric for any text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ maxLength: 40 }), (a, b) => {
        expect(looksLikeName(a, a)).toBe(true);
        expect(looksLikeName(a, b)).toBe(looksLikeName(b, a));
      }),
    );
  });

  it('holds through any change of case, separators, spaces and invisible characters (property)', () => {
    const disguise = fc.tuple(
      name,
      fc.array(fc.constantFrom(' ', '-', '.', '\u200B', '\u2060', '\uFEFF', '_'), { maxLength: 6 }),
      fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
    );
    fc.assert(
      fc.property(disguise, ([real, inserts, upper]) => {
        let title = [...real].map((char, i) => (upper[i] ? char.toUpperCase() : char)).join('');
        for (const [i, insert] of inserts.entries()) {
          const at = (i * 7) % (title.length + 1);
          title = title.slice(0, at) + insert + title.slice(at);
        }
        expect(titleLookalike(title, 'some_other_tool_name_x', on('s', real))?.tool.name).toBe(real);
      }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_TOOL_NAMES,
  createToolNameMap,
  GEMINI_TOOL_NAMES,
  OPENAI_TOOL_NAMES,
  type ToolNameRules,
  type ToolRef,
} from './names.js';

const ALL_RULES: ToolNameRules[] = [OPENAI_TOOL_NAMES, ANTHROPIC_TOOL_NAMES, GEMINI_TOOL_NAMES];

const awkward: ToolRef[] = [
  { serverId: 'github', toolName: 'search_issues' },
  { serverId: 'files', toolName: 'read/file' },
  { serverId: 'my server', toolName: 'list items' },
  { serverId: 'docs.v2', toolName: 'page.get' },
  { serverId: 'wetter', toolName: 'température-actuelle' },
  { serverId: '日本語', toolName: '検索' },
  { serverId: 'emoji', toolName: '🔧fix' },
  { serverId: '9lives', toolName: 'run' },
  { serverId: 'long', toolName: 'x'.repeat(100) },
  { serverId: 's'.repeat(100), toolName: 'y'.repeat(100) },
  { serverId: '', toolName: '' },
];

describe('createToolNameMap', () => {
  for (const rules of ALL_RULES)
    it(`keeps ${rules.api} names within the documented rule and resolves every one back`, () => {
      const map = createToolNameMap(rules, awkward);
      const names = awkward.map((ref) => map.nameFor(ref.serverId, ref.toolName));
      expect(new Set(names).size).toBe(awkward.length);
      for (const [i, name] of names.entries()) {
        expect(name).toMatch(rules.pattern);
        expect(name!.length).toBeLessThanOrEqual(rules.maxLength);
        expect(map.resolve(name!)).toEqual(awkward[i]);
      }
    });

  it('reads as server__tool when the parts are already allowed', () => {
    const map = createToolNameMap(OPENAI_TOOL_NAMES, awkward);
    expect(map.nameFor('github', 'search_issues')).toBe('github__search_issues');
    expect(map.nameFor('files', 'read/file')).toBe('files__read_file');
    expect(map.nameFor('my server', 'list items')).toBe('my_server__list_items');
    expect(map.nameFor('日本語', '検索')).toBe('_______'); // one `_` per code point, and the separator
  });

  it('keeps dots for Gemini, which allows them, and starts Gemini names with a letter or underscore', () => {
    const gemini = createToolNameMap(GEMINI_TOOL_NAMES, awkward);
    expect(gemini.nameFor('docs.v2', 'page.get')).toBe('docs.v2__page.get');
    expect(gemini.nameFor('9lives', 'run')).toBe('_9lives__run');
    const openai = createToolNameMap(OPENAI_TOOL_NAMES, awkward);
    expect(openai.nameFor('docs.v2', 'page.get')).toBe('docs_v2__page_get');
    expect(openai.nameFor('9lives', 'run')).toBe('9lives__run');
  });

  it('shortens a long name with a hash suffix of the qualified name', () => {
    const map = createToolNameMap(OPENAI_TOOL_NAMES, [{ serverId: 'long', toolName: 'x'.repeat(100) }]);
    const name = map.nameFor('long', 'x'.repeat(100))!;
    expect(name).toHaveLength(64);
    expect(name).toMatch(/^long__x+_[0-9a-f]{8}$/);
  });

  it('gives every member of a collision its own hashed name, and each resolves to its tool', () => {
    const clashing: ToolRef[] = [
      { serverId: 'a', toolName: 'do it' },
      { serverId: 'a', toolName: 'do/it' },
      { serverId: 'a', toolName: 'do_it' },
      { serverId: 'a', toolName: 'do.it' },
    ];
    const map = createToolNameMap(OPENAI_TOOL_NAMES, clashing);
    const names = clashing.map((ref) => map.nameFor(ref.serverId, ref.toolName)!);
    expect(new Set(names).size).toBe(4);
    for (const [i, name] of names.entries()) {
      expect(name).toMatch(/^a__do_it_[0-9a-f]{8}$/);
      expect(map.resolve(name)).toEqual(clashing[i]);
    }
  });

  it('tells apart pairs whose qualified names are the same string', () => {
    const refs: ToolRef[] = [
      { serverId: 'a/b', toolName: 'c' },
      { serverId: 'a', toolName: 'b/c' },
    ];
    const map = createToolNameMap(OPENAI_TOOL_NAMES, refs);
    const [first, second] = refs.map((ref) => map.nameFor(ref.serverId, ref.toolName)!);
    expect(first).not.toBe(second);
    expect(map.resolve(first!)).toEqual(refs[0]);
    expect(map.resolve(second!)).toEqual(refs[1]);
  });

  it('does not let a tool literally named like a hashed name take another tool’s name', () => {
    const base = createToolNameMap(OPENAI_TOOL_NAMES, [
      { serverId: 'a', toolName: 'x y' },
      { serverId: 'a', toolName: 'x/y' },
    ]);
    const hashed = base.nameFor('a', 'x y')!;
    const impostor = { serverId: 'a', toolName: hashed.slice('a__'.length) };
    const map = createToolNameMap(OPENAI_TOOL_NAMES, [
      { serverId: 'a', toolName: 'x y' },
      { serverId: 'a', toolName: 'x/y' },
      impostor,
    ]);
    const names = [map.nameFor('a', 'x y'), map.nameFor('a', 'x/y'), map.nameFor('a', impostor.toolName)];
    expect(new Set(names).size).toBe(3);
    expect(map.resolve(names[2]!)).toEqual(impostor);
    expect(map.resolve(names[0]!)).toEqual({ serverId: 'a', toolName: 'x y' });
  });

  it('is deterministic and independent of order', () => {
    const one = createToolNameMap(OPENAI_TOOL_NAMES, awkward).entries();
    const again = createToolNameMap(OPENAI_TOOL_NAMES, [...awkward]).entries();
    const reversed = createToolNameMap(OPENAI_TOOL_NAMES, [...awkward].reverse()).entries();
    expect(again).toEqual(one);
    expect(reversed).toEqual(one);
  });

  it('lists a tool given twice once, and knows nothing of tools it was not given', () => {
    const map = createToolNameMap(ANTHROPIC_TOOL_NAMES, [
      { serverId: 's', toolName: 't' },
      { serverId: 's', toolName: 't' },
    ]);
    expect(map.entries()).toEqual([{ name: 's__t', serverId: 's', toolName: 't' }]);
    expect(map.nameFor('s', 'other')).toBeUndefined();
    expect(map.resolve('s__other')).toBeUndefined();
    expect(map.resolve('s/t')).toBeUndefined();
  });
});

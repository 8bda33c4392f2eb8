import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../client/index.js';
import type { ListToolsResult } from '../protocol/index.js';
import { catalogWarnings, NAMED_TOOLS } from './catalog-warnings.js';

const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

/** A real catalog listing over the given pages, so the sentences are checked against what it reports. */
async function listing(pages: Record<string, ListToolsResult>, maxPages?: number) {
  const catalog = new ToolCatalog({
    serverId: 'files',
    fetchPage: async (cursor) => {
      const page = pages[cursor ?? ''];
      if (!page) throw new Error(`no page ${cursor}`);
      return page;
    },
    enforceHeaderRules: () => true,
    usesTtl: () => false,
    ...(maxPages ? { maxPages } : {}),
  });
  return catalog.list();
}

describe('catalogWarnings', () => {
  it('says nothing about a whole, clean list', async () => {
    expect(catalogWarnings('files', await listing({ '': { tools: [tool('a'), tool('b')] } }))).toEqual([]);
  });

  it('says why the list is incomplete, without repeating the server id', async () => {
    const snapshot = await listing({
      '': { tools: [tool('a')], nextCursor: 'x' },
      x: { tools: [tool('b')], nextCursor: 'x' },
    });
    const [warning, ...rest] = catalogWarnings('files', snapshot);
    expect(rest).toEqual([]);
    expect(warning).toMatch(/^The tool list is incomplete: tools\/list returned cursor "x" twice/);
    expect(warning).not.toContain('files:');
  });

  it('names tools left out with the reason, and bad names with theirs', async () => {
    const badHeader = {
      name: 'h',
      inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } },
    };
    const snapshot = await listing({
      '': {
        tools: [tool('ok'), tool('get user'), badHeader, { name: 'noschema' }] as ListToolsResult['tools'],
      },
    });
    const warnings = catalogWarnings('files', snapshot);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('2 tools were left out because their definitions are invalid');
    expect(warnings[0]).toContain('"h" (invalid x-mcp-header');
    expect(warnings[0]).toContain(
      '"noschema" (it has no inputSchema (an object is required): the server must fix its tool definition',
    );
    expect(warnings[1]).toBe(
      '1 tool name breaks the MCP naming rules: "get user" (the name has characters other than A-Z a-z 0-9 _ - .).',
    );
  });

  it('names a duplicated name once', async () => {
    const snapshot = await listing({ '': { tools: [tool('dup'), tool('dup'), tool('dup')] } });
    expect(catalogWarnings('files', snapshot)).toEqual([
      'More than one tool is listed as "dup": Toolgate refuses calls to that name while the definitions differ.',
    ]);
  });

  it('stays short for a hostile catalog: a few names, then a count', async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => tool(`bad name ${i}`));
    const [warning, twins] = catalogWarnings('files', await listing({ '': { tools: [...many, ...many] } }));
    expect(warning).toContain('40,000 tool names break');
    expect(warning).toContain(`and ${(40_000 - NAMED_TOOLS).toLocaleString('en')} more`);
    expect(warning!.match(/"bad name/g)).toHaveLength(NAMED_TOOLS);
    expect(twins).toContain(`and ${(20_000 - NAMED_TOOLS).toLocaleString('en')} more`);
  });

  it('groups tools by reason, names a few reasons, and cuts long reasons', async () => {
    const header = (name: string, property: string) => ({
      name,
      inputSchema: {
        type: 'object',
        properties: { [property]: { type: 'number', 'x-mcp-header': 'N' } },
      },
    });
    const tools = [
      { name: 'a' },
      { name: 'b' },
      ...Array.from({ length: 10 }, (_, i) => header(`h${i}`, `p${i}${'x'.repeat(400)}`)),
    ] as ListToolsResult['tools'];
    const [warning] = catalogWarnings('files', await listing({ '': { tools } }));
    expect(warning).toMatch(
      /^12 tools were left out because their definitions are invalid: "a", "b" \(it has no inputSchema/,
    );
    // Two groups of reasons shown in full-ish, then the remaining tools counted.
    expect(warning).toContain('; and 6 more for other reasons.');
    expect(warning).toContain('…)');
    expect(warning!.length).toBeLessThan(2_500);
  });

  it('shows hidden characters in names as escapes and cuts long names', async () => {
    const snapshot = await listing({
      '': { tools: [tool('safe\u202Eexe.txt'), tool('x'.repeat(500))] },
    });
    const [warning] = catalogWarnings('files', snapshot);
    expect(warning).toContain('"safe\\u{202E}exe.txt"');
    expect(warning).not.toContain('\u202E');
    expect(warning).toContain(`"${'x'.repeat(60)}…"`);
  });
});

import { describe, expect, it } from 'vitest';
import { GuardError, type ListToolsResult } from '../protocol/index.js';
import { DEFAULT_MAX_PAGES, DEFAULT_MAX_TOOLS, ToolCatalog } from './catalog.js';
import type { ClientWarning } from './options.js';

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: 'object' },
  ...extra,
});

function catalogOver(
  pages: Record<string, ListToolsResult>,
  opts: { ttl?: boolean; headers?: boolean; maxPages?: number } = {},
) {
  const requested: (string | undefined)[] = [];
  const warnings: ClientWarning[] = [];
  let now = 1_000;
  const catalog = new ToolCatalog({
    serverId: 'srv',
    fetchPage: async (cursor) => {
      requested.push(cursor);
      const page = pages[cursor ?? ''];
      if (!page) throw new Error(`no page ${cursor}`);
      return page;
    },
    enforceHeaderRules: () => opts.headers ?? false,
    usesTtl: () => opts.ttl ?? false,
    onWarning: (w) => warnings.push(w),
    now: () => now,
    ...(opts.maxPages ? { maxPages: opts.maxPages } : {}),
  });
  return { catalog, requested, warnings, advance: (ms: number) => (now += ms) };
}

/** A catalog over a server that computes its pages (endless ones included). */
function catalogComputing(
  pageFor: (cursor: string | undefined) => ListToolsResult,
  opts: { maxPages?: number; maxTools?: number } = {},
) {
  const requested: (string | undefined)[] = [];
  const warnings: ClientWarning[] = [];
  const catalog = new ToolCatalog({
    serverId: 'srv',
    fetchPage: async (cursor) => {
      requested.push(cursor);
      return pageFor(cursor);
    },
    enforceHeaderRules: () => false,
    usesTtl: () => false,
    onWarning: (w) => warnings.push(w),
    ...opts,
  });
  return { catalog, requested, warnings };
}

describe('ToolCatalog', () => {
  it('follows cursors and keeps every field of every tool', async () => {
    const rich = tool('b', {
      title: 'B',
      icons: [{ src: 'https://x/i.png' }],
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
      execution: { taskSupport: 'optional' },
      _meta: { vendor: 1 },
      futureField: 'kept',
    });
    const { catalog, requested } = catalogOver({
      '': { tools: [tool('a')], nextCursor: 'p2' },
      p2: { tools: [rich] },
    });
    const snapshot = await catalog.list();
    expect(requested).toEqual([undefined, 'p2']);
    expect(snapshot.entries.map((e) => e.tool)).toEqual([tool('a'), rich]);
    expect(snapshot.entries[1]!.qualifiedName).toBe('srv/b');
    expect(snapshot.incomplete).toBeUndefined();
  });

  it('stops a cursor loop with a clear error and keeps what it fetched', async () => {
    const { catalog, requested } = catalogOver({
      '': { tools: [tool('a')], nextCursor: 'x' },
      x: { tools: [tool('b')], nextCursor: 'y' },
      y: { tools: [tool('c')], nextCursor: 'x' },
    });
    const snapshot = await catalog.list();
    expect(requested).toEqual([undefined, 'x', 'y']);
    expect(snapshot.entries.map((e) => e.tool.name)).toEqual(['a', 'b', 'c']);
    expect(snapshot.incomplete).toBeInstanceOf(GuardError);
    expect(snapshot.incomplete!.message).toContain('cursor "x" twice');
  });

  it('stops a runaway page count', async () => {
    const pages: Record<string, ListToolsResult> = {};
    for (let i = 0; i < 20; i++)
      pages[i === 0 ? '' : `c${i}`] = { tools: [tool(`t${i}`)], nextCursor: `c${i + 1}` };
    const { catalog, requested } = catalogOver(pages, { maxPages: 5 });
    const snapshot = await catalog.list();
    expect(requested).toHaveLength(5);
    expect(snapshot.entries).toHaveLength(5);
    expect(snapshot.incomplete!.message).toContain('after 5');
  });

  it('keeps the first pages when a later page fails', async () => {
    const { catalog } = catalogOver({ '': { tools: [tool('a')], nextCursor: 'gone' } });
    const snapshot = await catalog.list();
    expect(snapshot.entries.map((e) => e.tool.name)).toEqual(['a']);
    expect(snapshot.incomplete!.message).toContain('page 2');
  });

  it('throws when the first page fails: there is nothing to show', async () => {
    const { catalog } = catalogOver({});
    await expect(catalog.list()).rejects.toThrow('no page');
  });

  it('warns on bad and duplicate names without dropping them', async () => {
    const { catalog, warnings } = catalogOver({ '': { tools: [tool('ok'), tool('bad name'), tool('ok')] } });
    const snapshot = await catalog.list();
    expect(snapshot.entries).toHaveLength(3);
    expect(snapshot.entries[1]!.warnings[0]).toContain('naming rules');
    expect(snapshot.entries[0]!.warnings[0]).toContain('same name');
    expect(warnings.map((w) => w.code).sort()).toEqual(['duplicate-tool-name', 'invalid-tool-name']);
  });

  it('rejects non-tools and, on modern HTTP, tools with invalid x-mcp-header', async () => {
    const badHeader = tool('h', {
      inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } },
    });
    const pages = { '': { tools: [tool('a'), badHeader, { name: 'noschema' }] as ListToolsResult['tools'] } };
    const modern = await catalogOver(pages, { headers: true }).catalog.list();
    expect(modern.entries.map((e) => e.tool.name)).toEqual(['a']);
    expect(modern.rejected.map((r) => r.name)).toEqual(['h', 'noschema']);
    const legacy = await catalogOver(pages, { headers: false }).catalog.list();
    expect(legacy.entries.map((e) => e.tool.name)).toEqual(['a', 'h']);
  });

  it('honours ttlMs (smallest page ttl) in the modern era', async () => {
    const { catalog, requested, advance } = catalogOver(
      {
        '': { tools: [tool('a')], nextCursor: 'p', ttlMs: 60_000 },
        p: { tools: [tool('b')], ttlMs: 10_000 },
      },
      { ttl: true },
    );
    await catalog.list();
    advance(9_000);
    await catalog.list();
    expect(requested).toHaveLength(2);
    advance(2_000);
    await catalog.list();
    expect(requested).toHaveLength(4);
  });

  it('treats a missing ttlMs as immediately stale in the modern era', async () => {
    const { catalog, requested } = catalogOver({ '': { tools: [tool('a')] } }, { ttl: true });
    await catalog.list();
    await catalog.list();
    expect(requested).toHaveLength(2);
  });

  it('in the legacy era stays fresh until a list change invalidates it', async () => {
    const { catalog, requested, advance } = catalogOver({ '': { tools: [tool('a')] } });
    await catalog.list();
    advance(10 ** 9);
    await catalog.list();
    expect(requested).toHaveLength(1);
    catalog.invalidate();
    await catalog.list();
    expect(requested).toHaveLength(2);
  });

  it('shares one fetch between concurrent callers', async () => {
    const { catalog, requested } = catalogOver({ '': { tools: [tool('a')] } });
    const [a, b] = await Promise.all([catalog.list(), catalog.list()]);
    expect(a).toBe(b);
    expect(requested).toHaveLength(1);
  });

  describe('bounds (a server that never stops paging, or offers too much)', () => {
    it('stops an endless pagination at the default page bound, keeps every page and warns', async () => {
      const { catalog, requested, warnings } = catalogComputing((cursor) => {
        const index = cursor === undefined ? 0 : Number(cursor.slice(1));
        return { tools: [tool(`t${index}`)], nextCursor: `p${index + 1}` };
      });
      const snapshot = await catalog.list();
      expect(requested).toHaveLength(DEFAULT_MAX_PAGES);
      expect(snapshot.entries).toHaveLength(DEFAULT_MAX_PAGES);
      expect(snapshot.entries.at(-1)!.tool.name).toBe(`t${DEFAULT_MAX_PAGES - 1}`);
      expect(snapshot.incomplete!.message).toContain(`still had more pages after ${DEFAULT_MAX_PAGES}`);
      expect(warnings).toEqual([
        { serverId: 'srv', code: 'catalog-incomplete', message: snapshot.incomplete!.message },
      ]);
    });

    it('keeps the first maxTools tools of an oversized page and says so', async () => {
      const { catalog, requested } = catalogComputing(
        () => ({ tools: Array.from({ length: 12 }, (_, i) => tool(`t${i}`)), nextCursor: 'more' }),
        { maxTools: 5 },
      );
      const snapshot = await catalog.list();
      expect(requested).toEqual([undefined]);
      expect(snapshot.entries.map((e) => e.tool.name)).toEqual(['t0', 't1', 't2', 't3', 't4']);
      expect(snapshot.incomplete!.message).toContain('more than 5 tools; kept the first 5');
    });

    it('stops before another page once the tool bound is reached exactly', async () => {
      const { catalog, requested } = catalogComputing(
        (cursor) => ({
          tools: [tool(`t${cursor ?? 0}`), tool(`u${cursor ?? 0}`)],
          nextCursor: `${Number(cursor ?? 0) + 1}`,
        }),
        { maxTools: 4 },
      );
      const snapshot = await catalog.list();
      expect(requested).toEqual([undefined, '1']);
      expect(snapshot.entries).toHaveLength(4);
      expect(snapshot.incomplete!.message).toContain('more than 4 tools');
    });

    it('a catalog exactly at the bound, with no further page, is complete', async () => {
      const { catalog } = catalogComputing(() => ({ tools: [tool('a'), tool('b')] }), { maxTools: 2 });
      const snapshot = await catalog.list();
      expect(snapshot.entries).toHaveLength(2);
      expect(snapshot.incomplete).toBeUndefined();
    });

    it('takes a page bigger than the engine’s argument limit without overflowing, up to the default bound', async () => {
      const huge = Array.from({ length: DEFAULT_MAX_TOOLS + 150_000 }, (_, i) => tool(`t${i}`));
      const { catalog } = catalogComputing(() => ({ tools: huge }));
      const snapshot = await catalog.list();
      expect(snapshot.entries).toHaveLength(DEFAULT_MAX_TOOLS);
      expect(snapshot.incomplete!.message).toContain(`kept the first ${DEFAULT_MAX_TOOLS}`);
    });

    it('a page without a tools array ends the listing, keeping the pages before it', async () => {
      const { catalog, requested } = catalogComputing((cursor) =>
        cursor === undefined
          ? { tools: [tool('a')], nextCursor: 'x' }
          : ({ tools: 'none', nextCursor: 'y' } as unknown as ListToolsResult),
      );
      const snapshot = await catalog.list();
      expect(requested).toEqual([undefined, 'x']);
      expect(snapshot.entries.map((e) => e.tool.name)).toEqual(['a']);
      expect(snapshot.incomplete!.message).toContain('page 2 has no "tools" array');
    });
  });
});

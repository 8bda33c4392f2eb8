/**
 * What the package exports (package.json "exports"), entry by entry: the runtime names, read by
 * importing each source entry, and the type-only names, read from the entries' export lists (they
 * export named lists only, so the lists are the whole surface). Both are compared with
 * test/api-surface.txt: a change there is a change to the package's API, made on purpose with
 * `npx vitest run test/api-surface.test.ts -u` and reviewed in the diff.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** The package's entry points (package.json "exports", the library's source files). */
const ENTRIES = {
  toolgate: 'src/index.ts',
  'toolgate/widget': 'src/widget.ts',
  'toolgate/host': 'src/host/index.ts',
  'toolgate/auth': 'src/auth/index.ts',
} as const;

/** The names an entry's export statements list, split into values and type-only names. */
function listedExports(text: string) {
  const values = new Set<string>();
  const types = new Set<string>();
  for (const [, allTypes, list] of text.matchAll(/^export\s+(type\s+)?\{([^}]*)\}/gm))
    for (const item of (list ?? '').split(',').map((part) => part.trim())) {
      if (!item) continue;
      const name =
        item
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)
          .pop() ?? item;
      (allTypes || item.startsWith('type ') ? types : values).add(name);
    }
  for (const [, kind, name] of text.matchAll(
    /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(function|class|const|let|enum|type|interface)\s+([\w$]+)/gm,
  ))
    (kind === 'type' || kind === 'interface' ? types : values).add(name as string);
  return { values: [...values].sort(), types: [...types].sort() };
}

const sources = Object.fromEntries(
  Object.entries(ENTRIES).map(([name, file]) => [name, readFileSync(join(root, file), 'utf8')]),
);
const runtime: Record<string, string[]> = {};

beforeAll(async () => {
  // Test double: the widget entry defines a custom element class, which needs a base class to be
  // declared (no DOM runs here; nothing is constructed). Chromium runs the real one in e2e/.
  globalThis.HTMLElement ??= class {} as unknown as typeof HTMLElement;
  for (const [name, file] of Object.entries(ENTRIES))
    runtime[name] = Object.keys(await import(/* @vite-ignore */ join(root, file))).sort();
});

describe("the package's API surface", () => {
  it('is stated in named lists: no entry re-exports with export *', () => {
    for (const [name, text] of Object.entries(sources))
      expect(
        text.match(/^export\s+(type\s+)?\*/gm),
        `${name} (${ENTRIES[name as keyof typeof ENTRIES]})`,
      ).toBe(null);
  });

  it("lists every runtime export in the entries' export lists, as a value", () => {
    for (const [name, text] of Object.entries(sources))
      expect(listedExports(text).values, name).toEqual(runtime[name]);
  });

  it('matches test/api-surface.txt', async () => {
    const lines: string[] = [];
    for (const [name, file] of Object.entries(ENTRIES)) {
      const { types } = listedExports(sources[name] as string);
      lines.push(`${name} (${file})`);
      for (const value of runtime[name] ?? []) lines.push(`  value ${value}`);
      for (const type of types) lines.push(`  type  ${type}`);
    }
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot('./api-surface.txt');
  });
});

/**
 * The code examples of the README and the manual (docs/*.md), read from the Markdown itself so a
 * test compiles and runs exactly what a reader sees. A block's info string names it:
 *
 *   ```ts example=gate-call      compiled against the package's types and run by a test
 *   ```ts fragment               only part of an example (an option list): not compiled alone
 *   ```sh                        every `npm run <script>` in it must be a script of package.json
 *
 * A ts, js, html or json block without `example=` or `fragment` fails the tests, so an example
 * cannot be added that nothing runs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** The languages whose blocks are code a reader copies, so a test must compile and run them. */
export const CODE_LANGUAGES = ['ts', 'js', 'html', 'json'] as const;

export interface DocBlock {
  /** The page, relative to the repository root (README.md, docs/gate.md). */
  page: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  /** The first word of the info string ('' for a plain fence). */
  language: string;
  /** The `example=` name, when the block is one. */
  example?: string;
  fragment: boolean;
  /** The block's text, its common indentation removed (blocks inside list items are indented). */
  code: string;
}

export function docPages(): string[] {
  return [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];
}

const FENCE = /^(\s*)```(.*)$/;

/** Every fenced block of one page, in order. */
export function blocksOf(page: string, text = readFileSync(join(ROOT, page), 'utf8')): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index] as string);
    if (!open) continue;
    const indent = (open[1] as string).length;
    const [language = '', ...words] = (open[2] as string).trim().split(/\s+/);
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end] as string)) body.push(lines[end++] as string);
    if (end === lines.length) throw new Error(`${page}:${index + 1}: a code block is never closed`);
    const example = words.find((word) => word.startsWith('example='))?.slice('example='.length);
    blocks.push({
      page,
      line: index + 1,
      language,
      ...(example ? { example } : {}),
      fragment: words.includes('fragment'),
      code: body
        .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
        .join('\n'),
    });
    index = end;
  }
  return blocks;
}

/** Every block of the README and the manual. */
export function allBlocks(): DocBlock[] {
  return docPages().flatMap((page) => blocksOf(page));
}

/** The named examples, by name; a name used twice is an error (a test could not tell them apart). */
export function examplesByName(blocks = allBlocks()): Map<string, DocBlock> {
  const byName = new Map<string, DocBlock>();
  for (const block of blocks) {
    if (!block.example) continue;
    const twin = byName.get(block.example);
    if (twin)
      throw new Error(
        `example=${block.example} names ${twin.page}:${twin.line} and ${block.page}:${block.line}`,
      );
    byName.set(block.example, block);
  }
  return byName;
}

/** The named example's code; throws when the manual no longer has it. */
export function exampleCode(name: string): string {
  const block = examplesByName().get(name);
  if (!block) throw new Error(`no block in README.md or docs/ is named example=${name}`);
  return block.code;
}

/** The module scripts of an html example, in order (what a test compiles). */
export function inlineModuleScripts(html: string): string[] {
  return [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((match) => match[1] as string);
}

/**
 * The package's entry points (`toolgate`, `toolgate/host`, ...) and the source file each is built
 * from, read from package.json's exports and the build configs, so examples compile and run
 * against what `npm run build` would publish. `toolgate/widget.js` is the drop-in script.
 */
export async function packageEntries(): Promise<Record<string, string>> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { import: string }>;
  };
  const library = (await import('../../vite.lib.config.js')).default as LibConfig;
  const dropIn = (await import('../../vite.widget.config.js')).default as LibConfig;
  const libEntries = library.build.lib.entry as Record<string, string>;
  const entries: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const file = typeof target === 'string' ? target : target.import;
    const specifier = `${manifest.name}${subpath.slice(1)}`;
    const libName = /^\.\/dist\/lib\/(.+)\.js$/.exec(file)?.[1];
    const source =
      libName !== undefined
        ? libEntries[libName]
        : file === './dist/widget/toolgate-widget.js'
          ? (dropIn.build.lib.entry as string)
          : undefined;
    if (!source) throw new Error(`package.json exports ${subpath} (${file}): no build entry makes it`);
    entries[specifier] = join(ROOT, source);
  }
  return entries;
}

interface LibConfig {
  build: { lib: { entry: string | Record<string, string> } };
}

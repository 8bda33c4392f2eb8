/**
 * The manual's examples compile: every ts/js block of README.md and docs/ (and the module scripts
 * of html blocks) is written out as a module and type-checked by tsc against the package's real
 * entry points, with the few free names examples use (`panel`, `openai`, ...) declared in
 * example-globals.d.ts. e2e/doc-examples.spec.ts runs them. Also: every code block is named (or
 * marked a fragment), and every `npm run` a shell block shows is a script of package.json.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseAuditCollector } from '../../extension/audit-export.js';
import {
  allBlocks,
  CODE_LANGUAGES,
  type DocBlock,
  exampleCode,
  examplesByName,
  inlineModuleScripts,
  packageEntries,
  ROOT,
} from './doc-examples.js';

const OUT = join(ROOT, '.doc-examples');
const blocks = allBlocks();

/** Where each compiled file came from, to point tsc's messages at the Markdown line. */
interface Written {
  file: string;
  block: DocBlock;
  /** The Markdown line of the file's first line. */
  firstLine: number;
}

function writeExamples(): Written[] {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const written: Written[] = [];
  for (const [name, block] of examplesByName(blocks)) {
    // `export {}` only makes a file without imports a module (top-level await, its own scope).
    if (block.language === 'ts' || block.language === 'js') {
      const file = join(OUT, `${name}.${block.language}`);
      writeFileSync(file, `${block.code}\nexport {};\n`);
      written.push({ file, block, firstLine: block.line + 1 });
    } else if (block.language === 'html') {
      inlineModuleScripts(block.code).forEach((script, index) => {
        const file = join(OUT, `${name}.${index}.js`);
        writeFileSync(file, `${script}\nexport {};\n`);
        const offset = block.code.slice(0, block.code.indexOf(script)).split('\n').length - 1;
        written.push({ file, block, firstLine: block.line + 1 + offset });
      });
    }
  }
  return written;
}

/**
 * Two programs: TypeScript examples under the repository's own strict settings, JavaScript ones
 * (js blocks, html module scripts) as JavaScript: names, imports, option shapes and types, but no
 * null checks, which a JavaScript reader's code does not have either. Neither checks for unused
 * names: an example names what a call gives back (`const result = ...`) for the reader to use.
 */
async function writeTsconfigs(): Promise<string[]> {
  const entries = await packageEntries();
  const paths = Object.fromEntries(
    Object.entries(entries).map(([specifier, source]) => [specifier, [relative(OUT, source)]]),
  );
  // An html example loads the drop-in script from beside the page: `npm run build` makes it from this.
  const dropIn = relative(OUT, entries['toolgate/widget.js'] as string).replace(/\.ts$/, '.js');
  writeFileSync(join(OUT, 'toolgate-widget.ts'), `export * from '${dropIn}';\n`);
  const shared = ['../test/docs/example-globals.d.ts', '../src/**/*.d.ts'];
  const readerNames = { noUnusedLocals: false, noUnusedParameters: false };
  // exactOptionalPropertyTypes is a null check too: TypeScript takes it only with strictNullChecks.
  const noNullChecks = { strictNullChecks: false, exactOptionalPropertyTypes: false };
  const programs = {
    'tsconfig.ts.json': { compilerOptions: { paths, ...readerNames }, include: ['*.ts', ...shared] },
    'tsconfig.js.json': {
      compilerOptions: { paths, ...readerNames, allowJs: true, checkJs: true, ...noNullChecks },
      include: ['*.js', ...shared],
    },
  };
  for (const [name, program] of Object.entries(programs))
    writeFileSync(join(OUT, name), JSON.stringify({ extends: '../tsconfig.json', ...program }));
  return Object.keys(programs).map((name) => join(OUT, name));
}

function examplesOnly(output: string): string {
  const kept: string[] = [];
  let keeping = false;
  for (const line of output.split('\n')) {
    if (!line.startsWith(' ')) keeping = line.startsWith('.doc-examples/');
    if (keeping) kept.push(line);
  }
  return kept.length ? `${kept.join('\n')}\n` : '';
}

describe('the examples of the README and the manual', () => {
  it('are each named, so a test runs them, or marked a fragment', () => {
    const unnamed = blocks.filter(
      (block) =>
        (CODE_LANGUAGES as readonly string[]).includes(block.language) && !block.example && !block.fragment,
    );
    expect(unnamed.map((block) => `${block.page}:${block.line} (${block.language})`)).toEqual([]);
    expect(examplesByName(blocks).size).toBeGreaterThan(0);
  });

  it('are each run: by e2e/doc-examples.spec.ts, or here', () => {
    const spec = readFileSync(join(ROOT, 'e2e/doc-examples.spec.ts'), 'utf8');
    const runHere = ['otlp-policy'];
    // Open: the page bridge needs the built extension and a site turned on (e2e/extension.spec.ts
    // runs the same calls); only compiled here.
    const compiledOnly = ['page-bridge'];
    const notRun = [...examplesByName(blocks).keys()].filter(
      (name) => !runHere.includes(name) && !compiledOnly.includes(name) && !spec.includes(`'${name}'`),
    );
    expect(notRun).toEqual([]);
  });

  it('example=otlp-policy: the extension takes the enterprise policy as written', () => {
    const policy = JSON.parse(exampleCode('otlp-policy')) as { auditCollector: unknown };
    const parsed = parseAuditCollector(policy.auditCollector);
    expect(parsed.problem).toBeUndefined();
    expect(parsed).toMatchObject({
      policy: { url: 'https://otel.example.com:4318', serviceName: 'toolgate-acme' },
    });
  });

  it('show only npm scripts that package.json has', () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
        .scripts,
    );
    const shown = blocks
      .filter((block) => block.language === 'sh')
      .flatMap((block) =>
        [...block.code.matchAll(/\bnpm (?:run(?:-script)?|run -s) +(?:-s +)?([\w:.-]+)/g)].map((match) => ({
          where: `${block.page}:${block.line}`,
          script: match[1] as string,
        })),
      );
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter(({ script }) => !scripts.includes(script))).toEqual([]);
  });

  it('compile against the package types', async () => {
    const written = writeExamples();
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    let result = '';
    for (const tsconfig of await writeTsconfigs()) {
      const output = await promisify(execFile)(process.execPath, [tsc, '-p', tsconfig], { cwd: ROOT }).then(
        () => '',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      // The JavaScript program reads the library's sources without null checks, which they are
      // written for (`npm run typecheck` checks them); only what it says of the examples counts.
      result += tsconfig.endsWith('.js.json') ? examplesOnly(output) : output;
    }
    // tsc names .doc-examples/<name>.ts(line,column); say the Markdown page and line instead.
    const messages = result.replace(/\.doc-examples\/([\w.-]+\.[jt]s)\((\d+),(\d+)\)/g, (all, file, line) => {
      const source = written.find((w) => w.file === join(OUT, file));
      return source ? `${source.block.page}:${source.firstLine + Number(line) - 1}` : all;
    });
    expect(messages).toBe('');
  }, 120_000);
});

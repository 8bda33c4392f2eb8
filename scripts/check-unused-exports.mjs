#!/usr/bin/env node
// `npm run check:exports`: every export of src/ and extension/ is imported by some other file, or is
// part of the package (what an entry point exports, wildcards included). Prints the exports that
// nothing else imports, in two lists: used nowhere (dead code) and used only in their own file (drop
// the `export`); exits 1 on the first list, and on the second unless scripts/own-file-exports.txt
// lists the export (types the public API names, and rooms other work is rewriting). Uses the TypeScript compiler, so a name imported through
// a room's index.ts counts for the file that declares it; an index.ts re-exporting a name is not a use
// by itself. Tests count as users: an export a test imports stays. `--root <dir>` checks another tree;
// `--own-file` prints the whole second list, allowed ones included.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SyntaxKind } from 'typescript/unstable/ast';
import { API, SymbolFlags } from 'typescript/unstable/sync';

/** The package's entry points (package.json "exports"): everything they export is public. */
const ENTRY_POINTS = ['src/index.ts', 'src/widget.ts', 'src/host/index.ts', 'src/auth/index.ts'];
/** Files the build puts in another's place (scripts/build-extension.mjs aliases ajv-engine to it). */
const STAND_INS = ['extension/no-ajv.ts'];
/** Folders whose files declare the exports checked here. */
const DEFINING_FOLDERS = ['src', 'extension'];

const isTestFile = (path) => /(\.test|\.test-util)\.tsx?$|(^|\/)test-[^/]*\.tsx?$/.test(path);
/** A room's front door only passes names on: it is checked through the files behind it. */
const isFrontDoor = (path) => /(^|\/)index\.tsx?$/.test(path);

/** JavaScript and pages outside the program (scripts, e2e peers) that load TypeScript by path. */
function scriptFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return scriptFiles(path);
    return /\.(mjs|js|html)$/.test(name) ? [path] : [];
  });
}

const keyOf = (handle) => `${handle.path}#${handle.index}`;

/**
 * @param {string} root the repository (its tsconfig.json says which files exist)
 * @returns {{ nowhere: string[], ownFileOnly: string[] }} as `path: name`, sorted
 */
export function findUnusedExports(root) {
  const api = new API({ cwd: root });
  try {
    const project = api.updateSnapshot({ openProjects: [join(root, 'tsconfig.json')] }).getProjects()[0];
    return unusedIn(root, project);
  } finally {
    api.close();
  }
}

function unusedIn(root, { program, checker }) {
  const rel = (fileName) => relative(root, fileName).split(sep).join('/');
  const sources = program
    .getSourceFileNames()
    .filter((name) => !rel(name).startsWith('..') && !rel(name).includes('node_modules/'))
    .map((name) => program.getSourceFile(name));

  /** Declarations something outside their file reaches by name. */
  const used = new Set();
  const original = (symbol) => (symbol.flags & SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const markSymbol = (symbol) => {
    if (symbol) for (const declaration of original(symbol)?.declarations ?? []) used.add(keyOf(declaration));
  };
  /** Every export of a module: for what is reached in ways too loose to follow name by name. */
  const markModule = (fileName) => {
    const file = fileName && program.getSourceFile(fileName);
    const moduleSymbol = file && checker.getSymbolAtLocation(file);
    if (moduleSymbol) for (const symbol of checker.getExportsOfModule(moduleSymbol)) markSymbol(symbol);
  };
  /** The TypeScript file a relative specifier names, if any. */
  const moduleOf = (specifier, fromFile) => {
    if (!specifier.startsWith('.') && !specifier.startsWith('/')) return undefined;
    const target = specifier.startsWith('/') ? join(root, specifier) : resolve(dirname(fromFile), specifier);
    const candidates = [target, target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx')];
    return candidates.find((candidate) => program.getSourceFile(candidate));
  };

  for (const entry of ENTRY_POINTS) markModule(join(root, entry));
  for (const file of sources) {
    const names = [];
    const visit = (node) => {
      if (node.kind === SyntaxKind.ImportDeclaration && node.importClause) {
        const { name, namedBindings } = node.importClause;
        if (name) names.push(name);
        if (namedBindings?.kind === SyntaxKind.NamedImports)
          for (const element of namedBindings.elements) names.push(element.name);
        // `import * as x`: which of its names x reaches is not followed here, so all of them count.
        if (namedBindings?.kind === SyntaxKind.NamespaceImport)
          markModule(moduleOf(node.moduleSpecifier.text, file.fileName));
      }
      // A lazy import('./x.js') or a type written as import('./x.js').Name: all of its names count.
      if (node.kind === SyntaxKind.CallExpression && node.expression.kind === SyntaxKind.ImportKeyword) {
        const [specifier] = node.arguments;
        if (specifier?.kind === SyntaxKind.StringLiteral) markModule(moduleOf(specifier.text, file.fileName));
      }
      if (node.kind === SyntaxKind.ImportType && node.argument?.literal?.kind === SyntaxKind.StringLiteral)
        markModule(moduleOf(node.argument.literal.text, file.fileName));
      node.forEachChild(visit);
    };
    visit(file);
    if (names.length) for (const symbol of checker.getSymbolAtLocation(names)) markSymbol(symbol);
  }
  // JavaScript and pages are outside the TypeScript program: a module they load counts as wholly used.
  const SPECIFIER = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]|<script[^>]*\ssrc=["'](\/[^"']+)["']/g;
  for (const script of scriptFiles(root))
    for (const match of readFileSync(script, 'utf8').matchAll(SPECIFIER))
      markModule(moduleOf(match[1] ?? match[2], script));

  const nowhere = [];
  const ownFileOnly = [];
  for (const file of sources) {
    const path = rel(file.fileName);
    if (!DEFINING_FOLDERS.some((folder) => path.startsWith(`${folder}/`))) continue;
    if (/\.d\.[mc]?ts$/.test(path) || isTestFile(path) || isFrontDoor(path)) continue;
    if (ENTRY_POINTS.includes(path) || STAND_INS.includes(path)) continue;
    const moduleSymbol = checker.getSymbolAtLocation(file);
    if (!moduleSymbol) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const target = original(exported);
      const declarations = target?.declarations ?? [];
      // A name passed on from another file is that file's export, checked there.
      if (!declarations.some((declaration) => declaration.path === file.path)) continue;
      if (declarations.some((declaration) => used.has(keyOf(declaration)))) continue;
      const entry = `${path}: ${exported.name}`;
      (usedInOwnFile(checker, file, target) ? ownFileOnly : nowhere).push(entry);
    }
  }
  return { nowhere: nowhere.sort(), ownFileOnly: ownFileOnly.sort() };
}

/** Whether `file` names `symbol` anywhere but where it declares or exports it. */
function usedInOwnFile(checker, file, symbol) {
  const declared = new Set(symbol.declarations.map((declaration) => declaration.index));
  return checker.getReferencesToSymbolInFile(file.fileName, symbol).some((reference) => {
    const parent = reference.resolve()?.parent;
    return parent && !declared.has(parent.index) && parent.kind !== SyntaxKind.ExportSpecifier;
  });
}

/** The `path: name` lines of an allow-list file (blank lines and `#` comments skipped). */
export function readAllowList(text) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * Splits the exports used only in their own file by the allow-list: `unlisted` fail the check;
 * `stale` are listed but no longer such exports (reported, not a failure: the work that removes
 * one need not touch this list).
 */
export function checkOwnFileExports(ownFileOnly, allowed) {
  const allowedSet = new Set(allowed);
  const found = new Set(ownFileOnly);
  return {
    unlisted: ownFileOnly.filter((entry) => !allowedSet.has(entry)),
    stale: allowed.filter((entry) => !found.has(entry)),
  };
}

const ALLOW_LIST = 'scripts/own-file-exports.txt';

function main() {
  const at = process.argv.indexOf('--root');
  const root = at > 0 ? resolve(process.argv[at + 1]) : join(dirname(fileURLToPath(import.meta.url)), '..');
  const { nowhere, ownFileOnly } = findUnusedExports(root);
  if (nowhere.length)
    console.error(`${nowhere.length} export(s) used nowhere (delete them):\n  ${nowhere.join('\n  ')}`);
  if (process.argv.includes('--own-file') && ownFileOnly.length)
    console.error(
      `${ownFileOnly.length} export(s) used only in their own file:\n  ${ownFileOnly.join('\n  ')}`,
    );
  const allowPath = join(root, ALLOW_LIST);
  const allowed = existsSync(allowPath) ? readAllowList(readFileSync(allowPath, 'utf8')) : [];
  const { unlisted, stale } = checkOwnFileExports(ownFileOnly, allowed);
  if (unlisted.length)
    console.error(
      `${unlisted.length} export(s) used only in their own file (drop the \`export\`, or add the line to ` +
        `${ALLOW_LIST} with the reason it must stay):\n  ${unlisted.join('\n  ')}`,
    );
  if (stale.length)
    console.log(
      `${ALLOW_LIST}: ${stale.length} line(s) no longer needed (delete them):\n  ${stale.join('\n  ')}`,
    );
  if (nowhere.length || unlisted.length) process.exit(1);
  console.log(
    `exports: each one is imported by another file or is part of the package (${ownFileOnly.length} used only in their own file, each listed in ${ALLOW_LIST})`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

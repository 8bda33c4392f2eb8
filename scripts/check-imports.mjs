#!/usr/bin/env node
// `npm run check:imports`: every import in src/ points down the rooms (DESIGN.md, "Rooms"): a module
// may import its own room and the rooms below it, never one above. Type-only imports count too: a
// type shared by two rooms belongs in the lower one. Prints each upward arrow; exits 1 if any.
// Also: nothing that ships (src/ and extension/, tests aside) imports a test helper (test/, e2e/,
// or a *.test file): helpers live in test/support and e2e/support, out of every bundle.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

/** Lower numbers are lower rooms. Rooms on one level may not import each other unless listed. */
export const RANK = {
  protocol: 0,
  schema: 1,
  transport: 1,
  auth: 2,
  client: 3,
  gate: 4,
  // The log implements the gate's AuditSink (the gate never imports it).
  audit: 5,
  skills: 6,
  session: 7,
  // The app host sits on the session (it calls through the controller); the views embed its frame.
  apps: 8,
  ui: 9,
  embed: 10,
  host: 10,
  '(entry)': 11,
  // The demo is an app built on the public entry points.
  demo: 12,
};

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|tsx|mts|mjs)$/.test(name) ? [path] : [];
  });
}

const roomOf = (path) => {
  const parts = relative(src, path).split(sep);
  return parts.length === 1 ? '(entry)' : parts[0];
};

/** The rooms that render: nothing beneath them, tests included, imports from them. */
const UI_ROOMS = new Set(['ui', 'embed']);

const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;
const arrows = [];
for (const file of files(src)) {
  const from = roomOf(file);
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const target = normalize(join(dirname(file), match[1]));
    if (!target.startsWith(src)) continue;
    const to = roomOf(target);
    if (to === from || RANK[to] === undefined || RANK[from] === undefined) continue;
    // Tests may drive their subject through the public entry or a room above (integration tests),
    // but never need the UI: a test beneath ui/ importing from it means its subject lives too high.
    const upward = /\.test\.tsx?$/.test(file)
      ? UI_ROOMS.has(to) && !UI_ROOMS.has(from)
      : RANK[to] >= RANK[from];
    if (upward) arrows.push(`${relative(root, file)} (${from}) -> ${match[1]} (${to})`);
  }
}
/** Test files (beside their subject) may use helpers; everything else in these folders ships. */
const isTestFile = (file) => /\.test\.tsx?$/.test(file);
const helperFolders = ['test', 'e2e'].map((name) => join(root, name) + sep);
/** Imports of test code from shipped files, as `file -> specifier`. */
function testImportsOfShippedFiles(shippedFiles) {
  const found = [];
  for (const file of shippedFiles) {
    if (isTestFile(file)) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = normalize(join(dirname(file), match[1]));
      if (
        helperFolders.some((folder) => target.startsWith(folder)) ||
        /\.test(-util)?(\.[jt]sx?)?$/.test(target)
      )
        found.push(`${relative(root, file)} -> ${match[1]}`);
    }
  }
  return found;
}
const shippedTestImports = testImportsOfShippedFiles([...files(src), ...files(join(root, 'extension'))]);
if (shippedTestImports.length) {
  console.error(
    `${shippedTestImports.length} shipped file(s) import test code (move the helper to test/support and import it from tests only):\n  ${shippedTestImports.join('\n  ')}`,
  );
  process.exitCode = 1;
}

if (arrows.length) {
  console.error(`${arrows.length} import(s) point up or sideways between rooms:\n  ${arrows.join('\n  ')}`);
  process.exit(1);
}
if (!process.exitCode)
  console.log('imports: every arrow points down the rooms; no shipped file imports test code');

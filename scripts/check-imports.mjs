#!/usr/bin/env node
// `npm run check:imports`: every import in src/ points down the rooms (DESIGN.md, "Rooms"): a module
// may import its own room and the rooms below it, never one above. Type-only imports count too: a
// type shared by two rooms belongs in the lower one. Prints each upward arrow; exits 1 if any.
// Also: nothing that ships (src/ and extension/, tests aside) imports a test helper (test/, e2e/,
// or a *.test file): helpers live in test/support and e2e/support, out of every bundle.
// And front doors: each room's index.ts is its interface. An import from another room (from src/ or
// extension/, tests included, type-only included) names that room's index.ts, or is an `import()`
// of a module in LAZY_MODULES, kept out of the eager bundle on purpose.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

/**
 * Modules other rooms load with `import()` of the file itself: importing them through the room's
 * index.ts would pull the whole room into the chunk that loads them. Each needs a reason.
 */
export const LAZY_MODULES = {
  'src/auth/connect-auth.ts': 'only servers configured with `auth` load the sign-in layer',
  'src/auth/errors.ts': 'connect() tells sign-in failures apart only when the caller gave `auth` or a fetch',
  'src/transport/http-sse.ts': 'only 2024-11-05 servers need the legacy transport',
  'src/client/connect.ts': "the connection code loads after the panel's first paint",
  'src/transport/frame-peer.ts': 'only servers running in a frame on the page need it',
  'src/transport/worker-peer.ts': 'only servers running in a worker on the page need it',
  'src/skills/hub.ts': 'the skills hub loads when a skill is first asked for',
  'src/gate/settings-store.ts': 'idb-keyval stays out of the first load (fetched with the skills hub)',
  'src/audit/otlp/exporter.ts': 'the OpenTelemetry export loads only when a collector is configured',
  'src/session/audit-export.ts': 'the OpenTelemetry export loads only when a collector is configured',
  'src/client/doctor/diagnose.ts': 'the connection doctor loads only when someone presses Diagnose',
  'src/auth/doctor-discovery.ts':
    "the doctor reads authorization with sign-in's own discovery, only for a server that answers 401",
};

/**
 * Test files that reach into another room for what its front door does not offer, each with why.
 * (Only tests: nothing that ships may.)
 */
export const TEST_SEAMS = {
  'src/auth/dpop-keys.ts':
    "the extension's key-pair vault test drives auth's DPoP key lookup, which is not toolgate/auth's API",
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

/** Imports from another room that do not go through its front door, as `file -> specifier`. */
function sideDoorImports(importers) {
  const found = [];
  const extension = join(root, 'extension');
  for (const file of importers) {
    const from = file.startsWith(extension + sep) ? 'extension' : roomOf(file);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = normalize(join(dirname(file), match[1]));
      if (!target.startsWith(src + sep)) continue;
      const to = roomOf(target);
      if (to === from || to === '(entry)') continue;
      const path = relative(root, target)
        .split(sep)
        .join('/')
        .replace(/\.m?js$/, '');
      if (path === `src/${to}/index`) continue;
      const lazy = /^import\s*\(/.test(match[0]);
      const named = (list) => Object.keys(list).some((name) => name.replace(/\.tsx?$/, '') === path);
      if (lazy && named(LAZY_MODULES)) continue;
      if (isTestFile(file) && named(TEST_SEAMS)) continue;
      found.push(`${relative(root, file)} -> ${match[1]}`);
    }
  }
  return found;
}
const allFiles = [...files(src), ...files(join(root, 'extension'))];
const sideDoors = sideDoorImports(allFiles);
if (sideDoors.length) {
  console.error(
    `${sideDoors.length} import(s) from another room skip its index.ts (import from the index, or list a lazy module in LAZY_MODULES):\n  ${sideDoors.join('\n  ')}`,
  );
  process.exitCode = 1;
}
const doorless = Object.keys(RANK)
  .filter((room) => room !== '(entry)')
  .filter((room) => !existsSync(join(src, room, 'index.ts')));
if (doorless.length) {
  console.error(`room(s) without an index.ts: ${doorless.join(', ')}`);
  process.exitCode = 1;
}
for (const name of [...Object.keys(LAZY_MODULES), ...Object.keys(TEST_SEAMS)])
  if (!allFiles.includes(join(root, name))) {
    console.error(`${name} is allow-listed in check-imports.mjs but does not exist`);
    process.exitCode = 1;
  }

if (arrows.length) {
  console.error(`${arrows.length} import(s) point up or sideways between rooms:\n  ${arrows.join('\n  ')}`);
  process.exit(1);
}
if (!process.exitCode)
  console.log(
    'imports: every arrow points down the rooms and through front doors; no shipped file imports test code',
  );

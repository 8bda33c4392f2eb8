// `npm run build:extension`: the MV3 extension from extension/ into dist/extension/, and a zip
// beside it (dist/toolgate-extension.zip). Four Vite passes, because Chrome wants different shapes:
//   - the side panel and popup pages (ES modules, code-split like the widget);
//   - the service worker: one ES file, since import() is not allowed in service workers;
//   - the two content scripts: classic scripts (IIFE), since content scripts cannot be modules.
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { build } from 'vite';
import { EXTENSION_TARGET, extensionPagesBuild } from './extension-pages.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'extension');
const outDir = join(root, 'dist', 'extension');
const common = { configFile: false, logLevel: 'warn', root: source, base: '/' };
const target = EXTENSION_TARGET;

await build(extensionPagesBuild(root, { outDir }));
/**
 * The page bridge reaches only sites the person turns on (optional host permissions, scripts
 * registered per origin at run time). A manifest that asked for sites up front would bring back
 * Chrome's install warning ("read and change all your data") and put the bridge on every page.
 */
function assertNoStandingSiteAccess(manifest) {
  const standing = [
    ...(manifest.host_permissions ?? []),
    ...(manifest.content_scripts ?? []).flatMap((script) => script.matches ?? []),
  ];
  if (standing.length > 0)
    throw new Error(
      `extension/manifest.json asks for site access at install (${standing.join(', ')}); sites are turned on one by one through optional_host_permissions.`,
    );
}

/**
 * The worker never runs Ajv (MV3 forbids eval there; its validator interprets schemas), so Ajv's
 * engine module is swapped for a stand-in that keeps Ajv's code out of the worker file.
 */
const WITHOUT_AJV = {
  alias: [{ find: /^\.\/ajv-engine\.js$/, replacement: join(source, 'no-ajv.ts') }],
};

/** One script file: the worker (ES, no chunks) or a content script (IIFE under `name`). */
function buildScript(entry, format, name, resolve = {}) {
  return build({
    ...common,
    resolve,
    build: {
      outDir,
      emptyOutDir: false,
      target,
      minify: true,
      lib: {
        entry: join(source, entry),
        formats: [format],
        name,
        fileName: () => entry.replace(/\.ts$/, '.js'),
      },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
}
await buildScript('background.ts', 'es', undefined, WITHOUT_AJV);
await buildScript('bridge.ts', 'iife', 'toolgateBridge');
await buildScript('page-api.ts', 'iife', 'toolgatePageApi');

const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const manifest = JSON.parse(await readFile(join(source, 'manifest.json'), 'utf8'));
manifest.version = pkg.version;
assertNoStandingSiteAccess(manifest);
await writeFile(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
// The MCP App sandbox proxy, served by Chrome at an opaque origin (manifest "sandbox" pages).
for (const page of manifest.sandbox?.pages ?? [])
  await writeFile(join(outDir, page), await readFile(join(root, 'public', page)));
// The policy schema for deployers' pre-registered OAuth client ids (extension/sign-in/managed-clients.ts).
await copyFile(join(source, manifest.storage.managed_schema), join(outDir, manifest.storage.managed_schema));

// The zip a person uploads to the Chrome Web Store (or keeps): the folder's files at its root.
const files = {};
async function collect(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await collect(path);
    else files[relative(outDir, path).split('\\').join('/')] = new Uint8Array(await readFile(path));
  }
}
await collect(outDir);
const zipPath = join(root, 'dist', 'toolgate-extension.zip');
await writeFile(zipPath, zipSync(files, { level: 9, mtime: new Date('2026-01-01T00:00:00Z') }));
console.log(
  `Toolgate extension: ${relative(root, outDir)}/ (${Object.keys(files).length} files) and ${relative(root, zipPath)}`,
);

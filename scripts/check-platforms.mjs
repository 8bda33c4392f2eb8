#!/usr/bin/env node
// `npm run test:platforms`: would `npm ci` succeed on the systems web developers use? Runs npm's own
// installer (npm ci --dry-run, on copies of package.json and the lockfile) once per platform, with
// Node's process.platform and process.arch set to that platform, so npm's platform checks judge
// every locked package as they would there. A platform-locked dependency (EBADPLATFORM) fails the
// check, and so does any package npm would add that declares another os or cpu. Last, what a project
// that depends on toolgate would install must not include this repository's own Node.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PLATFORMS = [
  { os: 'darwin', cpu: 'arm64' },
  { os: 'darwin', cpu: 'x64' },
  { os: 'win32', cpu: 'x64' },
  { os: 'linux', cpu: 'arm64' },
  { os: 'linux', cpu: 'x64' },
];

/** npm's command-line entry (a JavaScript file), to run under a node whose platform we set. */
function npmCli() {
  const candidates = [
    process.env.npm_execpath,
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    join(dirname(process.execPath), 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    '/usr/lib/node_modules/npm/bin/npm-cli.js',
  ];
  const found = candidates.find((path) => path?.endsWith('.js') && existsSync(path));
  if (!found) throw new Error(`npm's CLI not found (looked at ${candidates.filter(Boolean).join(', ')})`);
  return found;
}

/** Whether a package's os/cpu list (npm's `["darwin"]` or `["!win32"]` form) admits a value. */
function admits(list, value) {
  if (!list) return true;
  const values = Array.isArray(list) ? list : [list];
  if (values.includes(`!${value}`)) return false;
  const positive = values.filter((entry) => !entry.startsWith('!'));
  return positive.length === 0 || positive.includes(value);
}

const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'toolgate-platforms-'));
const preload = join(work, 'platform.mjs');
writeFileSync(
  preload,
  "Object.defineProperty(process, 'platform', { value: process.env.CHECK_OS });\n" +
    "Object.defineProperty(process, 'arch', { value: process.env.CHECK_CPU });\n",
);
copyFileSync(join(root, 'package.json'), join(work, 'package.json'));
copyFileSync(join(root, 'package-lock.json'), join(work, 'package-lock.json'));
// The workspaces (scripts/node22: the Node for the conformance CLI) are part of what npm ci installs.
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
for (const workspace of manifest.workspaces ?? []) {
  mkdirSync(join(work, workspace), { recursive: true });
  copyFileSync(join(root, workspace, 'package.json'), join(work, workspace, 'package.json'));
}

const cli = npmCli();
// The real cache (npm would derive another one for a pretended Windows) and logs in the scratch dir.
const cache =
  process.env.npm_config_cache ??
  (process.platform === 'win32'
    ? join(process.env.LOCALAPPDATA ?? homedir(), 'npm-cache')
    : join(homedir(), '.npm'));
let failures = 0;
try {
  for (const { os, cpu } of PLATFORMS) {
    /** npm ci --dry-run for os-cpu; `pretend`: under a Node whose process.platform and arch say so. */
    const dryRun = (pretend) => {
      const args = [...(pretend ? ['--import', preload] : []), cli, 'ci', '--dry-run', '--ignore-scripts'];
      args.push('--no-audit', '--no-fund', `--os=${os}`, `--cpu=${cpu}`, `--cache=${cache}`);
      args.push(`--logs-dir=${work}`, '--loglevel=error');
      const run = spawnSync(process.execPath, args, {
        cwd: work,
        encoding: 'utf8',
        env: { ...process.env, CHECK_OS: os, CHECK_CPU: cpu, npm_config_engine_strict: 'false' },
      });
      return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
    };
    // Two runs, because neither alone is the whole truth. Under the pretended platform npm's
    // platform checks are the real ones (EBADPLATFORM, which npm's --os flag alone never raises),
    // but its file globbing then takes Linux paths for Windows ones and finds no workspace. With
    // the --os and --cpu flags alone, npm reads the workspaces and lists what each would add.
    const { status, output } = dryRun(true);
    const listing = dryRun(false);
    const added = [...listing.output.matchAll(/^add (\S+) (\S+)$/gm)].map(([, name, version]) => ({
      name,
      version,
    }));
    const foreign = added.filter(({ name }) => {
      const entry = lock.packages[`node_modules/${name}`];
      return entry && !(admits(entry.os, os) && admits(entry.cpu, cpu));
    });
    const problems = [];
    if (status !== 0)
      problems.push(`npm ci exited ${status}:\n${output.trim().split('\n').slice(-8).join('\n')}`);
    else if (listing.status !== 0 || added.length === 0)
      problems.push(`npm listed nothing to install; output:\n${listing.output.slice(0, 500)}`);
    for (const { name } of foreign) problems.push(`would install ${name}, which is not for ${os}-${cpu}`);
    const nodeForCli = added.find(({ name }) => /^node-(darwin|linux|win)-/.test(name));
    const note = nodeForCli
      ? `Node ${nodeForCli.version} for the conformance CLI from ${nodeForCli.name}`
      : 'no Node package for the conformance CLI (uses the system Node if >= 22.18)';
    if (problems.length) {
      failures++;
      console.error(`✘ ${os}-${cpu}: ${problems.join('\n  ')}`);
    } else {
      console.log(`✓ ${os}-${cpu}: npm ci would install ${added.length} packages; ${note}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
// A project that depends on toolgate installs its dependencies, never this repository's own Node.
const shipped = ['dependencies', 'optionalDependencies', 'peerDependencies'].flatMap((field) =>
  Object.keys(manifest[field] ?? {}),
);
const shippedNode = shipped.filter((name) => /^node(-|$)/.test(name));
if (shippedNode.length) {
  failures++;
  console.error(
    `✘ a project that depends on toolgate would install ${shippedNode.join(', ')}: keep them in the scripts/node22 workspace`,
  );
} else {
  console.log(`✓ a project that depends on toolgate installs no Node (${shipped.length} dependencies)`);
}
if (failures) {
  console.error(`${failures} check(s) failed: see above.`);
  process.exit(1);
}

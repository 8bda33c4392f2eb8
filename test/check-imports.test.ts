/**
 * scripts/check-imports.mjs, run as `npm run check:imports` runs it, on small trees of its own: a
 * copy of the script beside a src/ and extension/ holding only the files each case needs.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LAZY_MODULES, RANK, TEST_SEAMS } from '../scripts/check-imports.mjs';

const script = join(import.meta.dirname, '..', 'scripts', 'check-imports.mjs');
const trees: string[] = [];

/** Runs the check on a tree with every room's index.ts plus `extra` (path -> text). */
function check(extra: Record<string, string>, { doors = true } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'check-imports-'));
  trees.push(root);
  cpSync(script, join(root, 'scripts', 'check-imports.mjs'));
  const files: Record<string, string> = { 'extension/background.ts': '', ...extra };
  if (doors)
    for (const room of Object.keys(RANK).filter((name) => name !== '(entry)'))
      files[`src/${room}/index.ts`] ??= 'export {};\n';
  // The allow-listed names exist in the real tree; the check refuses names that do not.
  for (const name of [...Object.keys(LAZY_MODULES), ...Object.keys(TEST_SEAMS)]) files[name] ??= '';
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'check-imports.mjs')], { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

afterEach(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('front doors', () => {
  it("passes imports of another room's index.ts, and a room's own files", () => {
    const result = check({
      'src/gate/pipeline.ts': "import { ToolgateError } from '../protocol/index.js';\nimport './steps.js';\n",
      'src/gate/steps.ts': '',
      'extension/panel.ts': "import { createGate } from '../src/gate/index.js';\n",
    });
    expect(result.output).toContain('through front doors');
    expect(result.status).toBe(0);
  });

  it("refuses an import of another room's file, type-only ones and re-exports included", () => {
    const result = check({
      'src/protocol/errors.ts': '',
      'src/gate/pipeline.ts': "import { ToolgateError } from '../protocol/errors.js';\n",
      'src/gate/types.ts': "import type { ToolgateError } from '../protocol/errors.js';\n",
      'src/gate/more.ts': "export type { ToolgateError } from '../protocol/errors.js';\n",
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain('3 import(s) from another room skip its index.ts');
    expect(result.output).toContain('src/gate/pipeline.ts -> ../protocol/errors.js');
    expect(result.output).toContain('src/gate/types.ts -> ../protocol/errors.js');
    expect(result.output).toContain('src/gate/more.ts -> ../protocol/errors.js');
  });

  it("refuses the extension reaching past a room's index.ts", () => {
    const result = check({
      'src/gate/pipeline.ts': '',
      'extension/panel.ts': "import { createGate } from '../src/gate/pipeline.js';\n",
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain('extension/panel.ts -> ../src/gate/pipeline.js');
  });

  it('lets import() name an allow-listed lazy module, and only import()', () => {
    const lazy = check({
      'src/session/connections.ts': "const connect = () => import('../client/connect.js');\n",
    });
    expect(lazy.status).toBe(0);
    const eager = check({
      'src/session/connections.ts': "import { connect } from '../client/connect.js';\n",
    });
    expect(eager.status).toBe(1);
    expect(eager.output).toContain('src/session/connections.ts -> ../client/connect.js');
    const unlisted = check({
      'src/session/audit.ts': "const load = () => import('../audit/log.js');\n",
      'src/audit/log.ts': '',
    });
    expect(unlisted.status).toBe(1);
    expect(unlisted.output).toContain('src/session/audit.ts -> ../audit/log.js');
  });

  it("holds tests to it too, except a listed test seam; a room's tests use its own files", () => {
    const result = check({
      'src/gate/pipeline.ts': '',
      'src/gate/pipeline.test.ts': "import { createGate } from './pipeline.js';\n",
      'src/session/calls.test.ts': "import { createGate } from '../gate/pipeline.js';\n",
      'extension/vault.test.ts': "import { dpopKeyFor } from '../src/auth/dpop-keys.js';\n",
      'extension/vault.ts': "import { dpopKeyFor } from '../src/auth/dpop-keys.js';\n",
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain('2 import(s) from another room skip its index.ts');
    expect(result.output).toContain('src/session/calls.test.ts -> ../gate/pipeline.js');
    expect(result.output).toContain('extension/vault.ts -> ../src/auth/dpop-keys.js');
  });

  it('refuses a room without an index.ts', () => {
    const result = check({ 'src/ui/index.ts': 'export {};\n' }, { doors: false });
    expect(result.status).toBe(1);
    expect(result.output).toMatch(
      /room\(s\) without an index\.ts: protocol, schema, transport, auth, client/,
    );
  });
});

/**
 * scripts/check-unused-exports.mjs, run as `npm run check:exports` runs it, on a small tree of its
 * own (`--root`): an export used only in its own file fails the check unless the tree's
 * scripts/own-file-exports.txt lists it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, '..', 'scripts', 'check-unused-exports.mjs');
const trees: string[] = [];

afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

/** A tree where `src/parts.ts` exports `shared` (imported by main.ts) and `ownOnly` (used only there). */
function tree(allowList?: string): string {
  const root = mkdtempSync(join(tmpdir(), 'toolgate-exports-'));
  trees.push(root);
  const files: Record<string, string> = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { strict: true, module: 'esnext', target: 'es2022' },
      include: ['src'],
    }),
    'src/index.ts': "export { run } from './main.js';\n",
    'src/main.ts':
      "import { shared } from './parts.js';\n\nexport function run(): number {\n  return shared();\n}\n",
    'src/parts.ts':
      'export const ownOnly = 2;\n\nexport function shared(): number {\n  return ownOnly * 2;\n}\n',
  };
  if (allowList !== undefined) files['scripts/own-file-exports.txt'] = allowList;
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function check(root: string) {
  const run = spawnSync(process.execPath, [script, '--root', root], { encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('check:exports', () => {
  it('fails on an export used only in its own file, naming it', () => {
    const { status, output } = check(tree());
    expect(status).toBe(1);
    expect(output).toContain('1 export(s) used only in their own file');
    expect(output).toContain('src/parts.ts: ownOnly');
    expect(output).not.toContain('src/parts.ts: shared');
  });

  it('lets one stand that the allow-list names, and says which lines are no longer needed', () => {
    const allowed = check(tree('# kept on purpose\nsrc/parts.ts: ownOnly\n'));
    expect(allowed.status).toBe(0);
    expect(allowed.output).toContain('1 used only in their own file, each listed');
    const stale = check(tree('src/parts.ts: ownOnly\nsrc/gone.ts: removed\n'));
    expect(stale.status).toBe(0);
    expect(stale.output).toContain('1 line(s) no longer needed');
    expect(stale.output).toContain('src/gone.ts: removed');
  });
});

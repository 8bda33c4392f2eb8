/**
 * The README is the front door and docs/ the manual: every relative link in them must reach a file
 * of this repository, and none may point outside it (a checkout has no `../shared`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const pages = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const LINK = /\]\(([^)\s]+)\)/g;

function relativeLinks(page: string): string[] {
  const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(LINK)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'));
}

describe('the README and the manual', () => {
  it('keeps the README short', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThan(200);
  });

  for (const page of pages) {
    it(`${page}: every relative link reaches a file inside the repository`, () => {
      const links = relativeLinks(page);
      for (const target of links) {
        const path = resolve(dirname(join(root, page)), target.split('#')[0] as string);
        expect(relative(root, path).startsWith('..'), `${page} links outside: ${target}`).toBe(false);
        expect(existsSync(path), `${page} links to a missing file: ${target}`).toBe(true);
      }
    });
  }
});

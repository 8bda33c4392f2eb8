/**
 * The rule editor's conditions and ordering: number ranges, paths under a folder, tool patterns,
 * expiry and the person's list order, with fast-check properties for the matching that guards files.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../protocol/index.js';
import type { PolicyRule } from './policy-types.js';
import { tryRule } from './rule-trial.js';
import { checkRule, chooseRule, compileRule, normalizePath } from './rules.js';
import type { Caller } from './types.js';

const you: Caller = { kind: 'person', label: 'you' };
let serial = 0;
const rule = (fields: Partial<PolicyRule>): PolicyRule => ({
  id: `r${serial++}`,
  verdict: 'allow',
  server: 'files',
  tool: '*',
  createdAt: 1,
  updatedAt: 1,
  ...fields,
});
const decide = (rules: PolicyRule[], tool: string, args: JsonObject, at = 1000) =>
  chooseRule(rules.map(compileRule), you, 'files', tool, args, at)?.rule;

describe('a number range', () => {
  const within = rule({ tool: 'pay', when: [{ path: 'amount', op: 'range', value: { min: 1, max: 50 } }] });
  it('holds inclusively for numbers and never for text', () => {
    expect(decide([within], 'pay', { amount: 50 })).toBe(within);
    expect(decide([within], 'pay', { amount: 1 })).toBe(within);
    expect(decide([within], 'pay', { amount: 50.01 })).toBeUndefined();
    expect(decide([within], 'pay', { amount: '5' })).toBeUndefined();
    expect(decide([within], 'pay', {})).toBeUndefined();
  });
  it('is refused when it cannot match or is not a range', () => {
    for (const value of [{ min: 5, max: 1 }, {}, { min: '1' }, { low: 1 }, 3])
      expect(
        checkRule({
          verdict: 'allow',
          server: '*',
          tool: 'pay',
          when: [{ path: 'amount', op: 'range', value }],
        }),
      ).toMatchObject({ ok: false, issues: [{ field: 'when[0].value' }] });
  });
  it('holds exactly when min <= x <= max (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer(),
        fc.integer(),
        (x, a, b) => {
          const [min, max] = a <= b ? [a, b] : [b, a];
          const r = rule({ tool: 'pay', when: [{ path: 'n', op: 'range', value: { min, max } }] });
          expect(decide([r], 'pay', { n: x }) === r).toBe(x >= min && x <= max);
        },
      ),
    );
  });
});

describe('a path under a folder', () => {
  const notes = rule({ tool: 'write', when: [{ path: 'path', op: 'under', value: '/home/me/notes' }] });
  it('holds inside the folder and for the folder itself', () => {
    expect(decide([notes], 'write', { path: '/home/me/notes' })).toBe(notes);
    expect(decide([notes], 'write', { path: '/home/me/notes/a/b.md' })).toBe(notes);
    expect(decide([notes], 'write', { path: '//home/me/./notes/x' })).toBe(notes);
  });
  it('fails for neighbours, escapes and paths it cannot read (an allow never guesses)', () => {
    for (const path of [
      '/home/me/notes-old/x',
      '/home/me/notes/../secrets',
      '/home/me/notes/%2e%2e/secrets',
      'notes/x',
      '/home/me/notes\\..\\x',
      '/etc/passwd',
    ])
      expect(decide([notes], 'write', { path }), path).toBeUndefined();
  });
  it('a deny rule holds when it cannot tell', () => {
    const deny = rule({
      verdict: 'deny',
      tool: 'write',
      when: [{ path: 'path', op: 'under', value: '/etc' }],
    });
    expect(decide([deny], 'write', { path: 'relative/../x' })).toBe(deny);
    expect(decide([deny], 'write', { path: '/home/x' })).toBeUndefined();
  });
  it('never allows a path that normalizes outside the folder (property)', () => {
    const segment = fc.constantFrom('a', 'b', '..', '.', '', 'notes', 'me');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (parts) => {
        const path = `/home/me/notes/${parts.join('/')}`;
        const normal = normalizePath(path) as string;
        const allowed = decide([notes], 'write', { path }) === notes;
        expect(allowed).toBe(normal === '/home/me/notes' || normal.startsWith('/home/me/notes/'));
      }),
    );
  });
});

describe('a tool pattern', () => {
  it('covers names like it, anchored at both ends, and ranks between an exact tool and "*"', () => {
    const reads = rule({ tool: 'read_*' });
    const everything = rule({ verdict: 'ask', tool: '*' });
    const exact = rule({ verdict: 'ask', tool: 'read_secrets' });
    expect(decide([everything, reads], 'read_file', {})).toBe(reads);
    expect(decide([everything, reads], 'unread_file', {})).toBe(everything);
    expect(decide([everything, reads, exact], 'read_secrets', {})).toBe(exact);
  });
  it('treats every other character literally (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.string({ maxLength: 12 }),
        fc.string({ maxLength: 12 }),
        (prefix, suffix, other) => {
          fc.pre(!prefix.includes('*') && prefix.trim() === prefix);
          const r = rule({ tool: `${prefix}*` });
          // A name with the prefix always matches; any other name exactly when it starts with it.
          expect(decide([r], prefix + suffix, {})).toBe(r);
          expect(decide([r], other, {}) === r).toBe(other.startsWith(prefix));
        },
      ),
    );
  });
  it('is not allowed for servers', () => {
    expect(checkRule({ verdict: 'allow', server: 'file*', tool: 'x' })).toMatchObject({
      ok: false,
      issues: [{ field: 'server' }],
    });
  });
});

describe('expiry and order', () => {
  it('an expired rule applies to nothing', () => {
    const soon = rule({ tool: 'x', expiresAt: 2000 });
    expect(decide([soon], 'x', {}, 1999)).toBe(soon);
    expect(decide([soon], 'x', {}, 2000)).toBeUndefined();
  });
  it('at equal specificity the rule higher in the list wins; deny still wins over everything', () => {
    const allow = rule({ tool: 'x', position: 0 });
    const ask = rule({ verdict: 'ask', tool: 'x', position: 1 });
    expect(decide([ask, allow], 'x', {})).toBe(allow);
    expect(
      decide(
        [
          { ...ask, position: 0 },
          { ...allow, position: 1 },
        ],
        'x',
        {},
      )?.verdict,
    ).toBe('ask');
    const deny = rule({ verdict: 'deny', server: '*', tool: '*', position: 9 });
    expect(decide([allow, ask, deny], 'x', {})).toBe(deny);
  });
  it('keeps name, position and expiry through checking', () => {
    expect(
      checkRule({ verdict: 'ask', server: '*', tool: '*', name: '  Careful ', position: 3, expiresAt: 5 }),
    ).toEqual({
      ok: true,
      rule: { verdict: 'ask', server: '*', tool: '*', name: 'Careful', position: 3, expiresAt: 5 },
    });
  });
});

describe('trying a rule on past calls', () => {
  it('counts the calls it matches and those it would decide among the other rules', () => {
    const calls = [
      { caller: you, serverId: 'files', toolName: 'read_file', arguments: { path: '/a' } },
      { caller: you, serverId: 'files', toolName: 'read_dir', arguments: { path: '/etc' } },
      { caller: you, serverId: 'files', toolName: 'write_file', arguments: { path: '/a' } },
      { caller: you, serverId: 'mail', toolName: 'read_mail', arguments: {} },
    ];
    const candidate = rule({ tool: 'read_*' });
    const denyEtc = rule({ verdict: 'deny', when: [{ path: 'path', op: 'starts-with', value: '/etc' }] });
    expect(tryRule(candidate, [denyEtc], calls, 1000)).toEqual({ total: 4, matched: 2, decided: 1 });
    expect(tryRule({ ...candidate, expiresAt: 10 }, [], calls, 1000)).toEqual({
      total: 4,
      matched: 0,
      decided: 0,
    });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Tool, ToolAnnotations } from '../protocol/index.js';
import { claimsHarmless, grantCovers } from './grant-reach.js';
import { pinTool } from './pins.js';
import { createPolicy } from './policy.js';
import type { GrantReach } from './policy-types.js';
import { memorySettingsStore } from './settings-store.js';
import type { Caller, ValidationReport } from './types.js';

const MODEL: Caller = { kind: 'host', label: 'the assistant' };
const SITE: Caller = { kind: 'site', label: 'https://a.example' };
const valid: ValidationReport = { status: 'valid', engine: 'cfworker' };

const tool = (name: string, annotations?: ToolAnnotations): Tool => ({
  name,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  ...(annotations ? { annotations } : {}),
});
const balance = tool('balance', { readOnlyHint: true });
const note = tool('add_note', { readOnlyHint: false, destructiveHint: false });
const unannotated = tool('export');
const close = tool('close_account', { destructiveHint: true });

function setup() {
  let clock = 1_000_000;
  const store = memorySettingsStore();
  const policy = createPolicy({ store, now: () => clock });
  const verdict = async (t: Tool, caller: Caller = MODEL, server = 'bank') =>
    (
      await policy.decide({
        caller,
        pinned: await pinTool(server, t),
        serverId: server,
        arguments: {},
        validation: valid,
        trust: 'untrusted',
      })
    ).decision;
  const grant = async (
    t: Tool,
    scope: 'session' | 'hour' | 'always',
    reach: GrantReach,
    includeDestructive = false,
  ) =>
    policy.remember(MODEL, await pinTool('bank', t), scope, 'person (panel)', { reach, includeDestructive });
  return { policy, store, verdict, grant, tick: (ms: number) => (clock += ms) };
}

describe('scoped grants', () => {
  it('this server for this session: every tool that does not destroy things, for this caller only', async () => {
    const { verdict, grant } = setup();
    await grant(note, 'session', 'server');
    expect(await verdict(balance)).toMatchObject({
      verdict: 'allow',
      source: { kind: 'remembered', scope: 'session', reach: 'server' },
    });
    expect((await verdict(note)).reason).toContain('every tool of bank');
    // Never a destructive tool, nor one that does not say it is harmless (the spec's default).
    expect((await verdict(close)).verdict).toBe('ask');
    expect((await verdict(unannotated)).verdict).toBe('ask');
    // Never another caller, never another server.
    expect((await verdict(balance, SITE)).verdict).toBe('ask');
    expect((await verdict(balance, MODEL, 'other')).verdict).toBe('ask');
  });

  it('covers destructive tools only when the person ticked that', async () => {
    const { verdict, grant } = setup();
    await grant(note, 'session', 'server', true);
    expect((await verdict(close)).verdict).toBe('allow');
    expect((await verdict(unannotated)).verdict).toBe('allow');
  });

  it("this server's read-only tools: only tools that say they only read", async () => {
    const { verdict, grant } = setup();
    await grant(balance, 'session', 'server-read-only');
    expect((await verdict(balance)).verdict).toBe('allow');
    expect((await verdict(note)).verdict).toBe('ask');
    expect((await verdict(tool('odd', { readOnlyHint: true, destructiveHint: true }))).verdict).toBe('ask');
  });

  it('for an hour: persisted, and ends when the hour is up (then it is dropped from the list)', async () => {
    const { policy, store, verdict, grant, tick } = setup();
    await grant(note, 'hour', 'tool');
    expect((await verdict(note)).verdict).toBe('allow');
    expect((await store.entries('grant:')).length).toBe(1);
    tick(59 * 60_000);
    expect((await verdict(note)).verdict).toBe('allow');
    tick(60_000);
    expect((await verdict(note)).verdict).toBe('ask');
    expect(await policy.listGrants()).toEqual([]);
    expect((await store.entries('grant:')).length).toBe(0);
  });

  it('session grants are never written down: a new policy over the same store (a reload) has none', async () => {
    const { store, grant } = setup();
    await grant(note, 'session', 'server');
    await grant(balance, 'session', 'tool');
    expect(await store.entries('grant:')).toEqual([]);
    const reloaded = createPolicy({ store });
    expect(await reloaded.listGrants()).toEqual([]);
  });

  it('is listed with its reach and revocable', async () => {
    const { policy, verdict, grant } = setup();
    const given = await grant(note, 'always', 'server');
    expect(await policy.listGrants()).toEqual([
      expect.objectContaining({
        id: given!.id,
        toolName: '*',
        reach: 'server',
        scope: 'always',
        caller: MODEL,
      }),
    ]);
    expect(await policy.revokeGrant(given!.id)).toBe(true);
    expect((await verdict(balance)).verdict).toBe('ask');
  });

  it('a server-wide grant weighs a covered tool’s later change like a one-tool grant', async () => {
    const { verdict, grant } = setup();
    await grant(note, 'session', 'server');
    expect((await verdict(balance)).verdict).toBe('allow'); // first covered: its definition is kept
    const narrowed = { ...balance, inputSchema: { ...balance.inputSchema, required: ['q'] } };
    expect((await verdict(narrowed)).verdict).toBe('allow');
    const reworded = { ...balance, description: 'Now with more words.' };
    expect((await verdict(reworded)).verdict).toBe('ask');
  });
});

describe('definition changes by weight, against a one-tool grant', () => {
  const base = tool('send', { readOnlyHint: false, destructiveHint: false, openWorldHint: false });
  const variants: [string, Tool, 'allow' | 'ask', boolean][] = [
    ['narrowing', { ...base, inputSchema: { ...base.inputSchema, required: ['q'] } }, 'allow', false],
    ['wording', { ...base, description: 'Sends, politely.' }, 'ask', false],
    ['widening', { ...base, annotations: { ...base.annotations, destructiveHint: true } }, 'ask', true],
  ];
  for (const [weight, after, expected, flagged] of variants)
    it(`a ${weight} change: ${expected}${flagged ? ', flagged as widening' : ''}`, async () => {
      const { policy, grant } = setup();
      await grant(base, 'always', 'tool');
      const outcome = await policy.decide({
        caller: MODEL,
        pinned: await pinTool('bank', after),
        serverId: 'bank',
        arguments: {},
        validation: valid,
        trust: 'untrusted',
      });
      expect(outcome.decision.verdict).toBe(expected);
      // Always shown: the change comes with the outcome, whatever its weight.
      expect(outcome.definitionChange).toMatchObject({ weight, since: 'approval' });
      expect(outcome.decision.reason.includes('widens')).toBe(flagged);
    });
});

describe('grantCovers (property)', () => {
  const annotations = fc.record(
    {
      readOnlyHint: fc.boolean(),
      destructiveHint: fc.boolean(),
      openWorldHint: fc.boolean(),
    },
    { requiredKeys: [] },
  );
  const reach = fc.constantFrom<GrantReach>('tool', 'server', 'server-read-only');

  it('never covers another server, and a server-wide grant covers a possibly destructive tool only when ticked', () => {
    fc.assert(
      fc.property(
        reach,
        fc.boolean(),
        annotations,
        fc.constantFrom('bank', 'mail'),
        (r, ticked, a, server) => {
          const grant = {
            serverId: 'bank',
            toolName: r === 'tool' ? 'x' : '*',
            reach: r,
            includeDestructive: ticked,
          };
          const covered = grantCovers(grant, server, { name: 'x', annotations: a });
          if (server !== 'bank') expect(covered).toBe(false);
          if (covered && r !== 'tool' && !claimsHarmless(a)) expect(r === 'server' && ticked).toBe(true);
          if (covered && r === 'server-read-only') expect(a.readOnlyHint).toBe(true);
          if (a.destructiveHint === true && r === 'server-read-only') expect(covered).toBe(false);
        },
      ),
    );
  });

  it('a one-tool grant covers exactly its tool, whatever the tool claims', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), annotations, (granted, asked, a) => {
        expect(
          grantCovers({ serverId: 's', toolName: granted, reach: 'tool' }, 's', {
            name: asked,
            annotations: a,
          }),
        ).toBe(granted === asked);
      }),
    );
  });
});

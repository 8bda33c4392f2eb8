/**
 * The calls file: what is exported loads back as the same calls with secrets redacted, and whatever
 * a file holds, loading never throws and either yields well-formed calls or names a problem.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonObject } from '../protocol/index.js';
import { parseReplayFile, REPLAY_MAX_BYTES, REPLAY_MAX_CALLS, replayFileOf } from './replay-file.js';
import { rerunDraft } from './rerun-draft.js';
import type { FinishedCall } from './types.js';

const finished = (toolName: string, args: Record<string, unknown>, at: number): FinishedCall => ({
  invocationId: `id-${at}`,
  serverId: 'https://mcp.example/mcp',
  toolName,
  finishedAt: at + 5,
  startedAt: at,
  arguments: args,
  outcome: { ok: false, error: 'denied', kind: 'denied' },
});

const valid = (calls: unknown[]) =>
  JSON.stringify({ format: 'toolgate-calls', version: 1, exportedAt: '2026-01-01T00:00:00Z', calls });

describe('replay file', () => {
  it('exports oldest first, redacted, and loads back as the same calls', () => {
    const file = replayFileOf(
      [
        finished('search', { q: 'later' }, 20),
        finished('fetch', { url: 'x', api_key: 'sk-live-1234567890' }, 10),
      ],
      () => 'Example',
      new Date('2026-01-02T00:00:00Z'),
    );
    expect(file.calls.map((call) => call.toolName)).toEqual(['fetch', 'search']);
    expect(JSON.stringify(file)).not.toContain('sk-live-1234567890');
    const loaded = parseReplayFile(JSON.stringify(file));
    expect(loaded).toEqual({ ok: true, file });
  });

  it('names the problem of a bad file', () => {
    const problem = (text: string) => {
      const parsed = parseReplayFile(text);
      return parsed.ok ? 'loaded' : parsed.problem;
    };
    expect(problem('{not json')).toMatch(/^The file is not JSON/);
    expect(problem('[]')).toMatch(/no JSON object/);
    expect(problem(JSON.stringify({ format: 'other', version: 1, calls: [] }))).toMatch(
      /"format" is the text "other"/,
    );
    expect(problem(JSON.stringify({ format: 'toolgate-calls', version: 2, calls: [] }))).toMatch(
      /"version" is number 2/,
    );
    expect(problem(JSON.stringify({ format: 'toolgate-calls', version: 1 }))).toMatch(/"calls" is missing/);
    expect(
      problem(
        valid([
          { serverId: 's', toolName: 't', arguments: {} },
          { serverId: 's', arguments: {} },
        ]),
      ),
    ).toBe('calls[1].toolName is missing; it must be a non-empty string.');
    expect(problem(valid([{ serverId: 's', toolName: 't', arguments: [] }]))).toBe(
      'calls[0].arguments is a list; it must be an object.',
    );
    expect(problem(valid([{ serverId: 's', toolName: 't', arguments: {}, serverLabel: 3 }]))).toMatch(
      /calls\[0\]\.serverLabel is number 3/,
    );
    expect(problem(valid(Array.from({ length: REPLAY_MAX_CALLS + 1 }, () => 1)))).toMatch(/at most 1000/);
    expect(problem(' '.repeat(REPLAY_MAX_BYTES + 1))).toMatch(/larger than 5 MB/);
  });

  it('redacts a secret written into a file by hand, and its draft leaves it for the person', () => {
    const parsed = parseReplayFile(
      valid([
        {
          serverId: 's',
          toolName: 't',
          arguments: { token: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', n: 2 },
        },
      ]),
    );
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(JSON.stringify(parsed.file)).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(rerunDraft(parsed.file.calls[0]!.arguments)).toEqual({ draft: { n: 2 }, toFill: ['token'] });
  });

  it('never throws, and what it loads is well formed (property)', () => {
    const call = fc.record(
      {
        serverId: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
        toolName: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
        serverLabel: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
        arguments: fc.oneof(
          // Secret-like names too, so drafts are tried on what the loader redacts.
          fc.dictionary(
            fc.oneof(fc.string(), fc.constantFrom('token', 'password', 'api_key')),
            fc.jsonValue({ maxDepth: 3 }),
          ),
          fc.jsonValue({ maxDepth: 2 }),
        ),
      },
      { requiredKeys: [] },
    );
    const text = fc.oneof(
      fc.string(),
      fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
      fc.array(call, { maxLength: 5 }).map(valid),
    );
    fc.assert(
      fc.property(text, (input) => {
        const parsed = parseReplayFile(input);
        if (!parsed.ok) {
          expect(parsed.problem.length).toBeGreaterThan(0);
          return;
        }
        for (const loaded of parsed.file.calls) {
          expect(typeof loaded.serverId).toBe('string');
          expect(loaded.serverId.trim()).not.toBe('');
          expect(typeof loaded.toolName).toBe('string');
          expect(isJsonObject(loaded.arguments)).toBe(true);
          // A draft from anything loaded holds no marker: what was hidden is for the person to fill.
          expect(JSON.stringify(rerunDraft(loaded.arguments).draft)).not.toMatch(/\[redacted/);
        }
      }),
      { numRuns: 500 },
    );
  });
});

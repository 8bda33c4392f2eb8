import { describe, expect, it } from 'vitest';
import { type ChainEvent, GENESIS, sealEvents } from './chain.js';
import { applyEvent, entriesOf, summarizeResult } from './entry.js';
import { wordsOfEntry } from './search-terms.js';

const caller = { kind: 'host' as const, label: 'test' };
const decision = {
  verdict: 'ask' as const,
  source: { kind: 'default' as const, reason: 'untrusted-server' as const },
  reason: 'asked',
};

function pending(id: string, requested: number, edited = false) {
  return {
    invocationId: id,
    kind: 'pending' as const,
    at: requested + 5,
    body: {
      invocationId: id,
      serverId: 'files',
      toolName: 'Write_File',
      definitionHash: 'sha256:d',
      caller,
      ...(edited ? { proposedArguments: { path: '/a' } } : {}),
      arguments: edited ? { path: '/b' } : { path: '/a' },
      decision,
      approvedBy: 'Ada',
      timestamps: { requested, decided: requested + 1, sent: requested + 5 },
      sessionId: 's1',
      redactedPaths: [],
    },
  };
}

async function chain(drafts: Omit<ChainEvent, 'seq' | 'prevHash' | 'hash'>[]): Promise<ChainEvent[]> {
  return sealEvents(GENESIS, drafts);
}

describe('folding chain events into entries', () => {
  it('a pending call, then its final event: outcome, duration, summary, edit flag, no session left', async () => {
    const events = await chain([
      pending('a', 1000, true),
      {
        invocationId: 'a',
        kind: 'final',
        at: 1100,
        body: {
          invocationId: 'a',
          outcome: 'success',
          finishedAt: 1100,
          durationMs: 95,
          result: { content: [{ type: 'text', text: 'written' }] },
          redactedPaths: ['content[0].token'],
        },
      },
    ]);
    const first = applyEvent(undefined, events[0]!);
    expect(first).toMatchObject({ outcome: 'pending', pendingSession: 's1', edited: true, firstSeq: 1 });
    expect(wordsOfEntry(first)).toEqual(expect.arrayContaining(['write_file', 'write', 'file', 'b']));
    expect(first.argumentsPreview).toBe('{"path":"/b"}');
    const done = applyEvent(first, events[1]!);
    expect(done).toMatchObject({
      outcome: 'success',
      durationMs: 95,
      resultSummary: 'written',
      isError: false,
      seqs: [1, 2],
      firstSeq: 1,
      redactedPaths: ['result.content[0].token'],
    });
    expect(done.pendingSession).toBeUndefined();
  });

  it('an interrupted call keeps its arguments and gains the reason', async () => {
    const events = await chain([
      pending('b', 2000),
      {
        invocationId: 'b',
        kind: 'interrupted',
        at: 9000,
        body: { invocationId: 'b', reason: 'tab closed', detectedAt: 9000 },
      },
    ]);
    const [entry] = entriesOf(events);
    expect(entry).toMatchObject({
      outcome: 'interrupted',
      reason: 'tab closed',
      argumentsPreview: '{"path":"/a"}',
    });
    expect(entry?.edited).toBe(false);
    expect(entry?.timestamps.finished).toBe(9000);
  });

  it('lists newest first, and a final whose pending was pruned still shows', async () => {
    const events = await chain([pending('old', 1000), pending('new', 5000)]);
    const orphan = (
      await sealEvents({ seq: 2, hash: events[1]!.hash }, [
        {
          invocationId: 'gone',
          kind: 'final',
          at: 7000,
          body: {
            invocationId: 'gone',
            outcome: 'cancelled',
            finishedAt: 7000,
            durationMs: 3,
            redactedPaths: [],
          },
        },
      ])
    )[0]!;
    const entries = entriesOf([...events, orphan]);
    expect(entries.map((e) => e.invocationId)).toEqual(['gone', 'new', 'old']);
    expect(entries[0]).toMatchObject({ toolName: '(pruned)', outcome: 'cancelled', firstSeq: 3 });
  });

  it('summaries: first text, truncated results, other content, empty', () => {
    expect(summarizeResult({ content: [{ type: 'text', text: 'x'.repeat(300) }] })).toHaveLength(200);
    expect(summarizeResult({ truncated: true, originalBytes: 999_999, sha256: 'h', preview: '' })).toContain(
      '999999 bytes',
    );
    expect(summarizeResult({ content: [{ type: 'image', data: '', mimeType: 'image/png' }] })).toBe('image');
    expect(summarizeResult({ content: [], structuredContent: { t: 1 } })).toBe('{"t":1}');
    expect(summarizeResult({ content: [] })).toBe('(empty result)');
  });

  it('summaries of reads and prompt gets: kinds and counts, never their text', () => {
    expect(
      summarizeResult({
        contents: [
          { uri: 'file:///a', mimeType: 'text/plain', text: 'private words' },
          { uri: 'file:///b', blob: 'AAEC' },
        ],
      }),
    ).toBe('2 items: text/plain, binary');
    expect(summarizeResult({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] })).toBe(
      '1 message',
    );
  });
});

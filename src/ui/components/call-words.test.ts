/** The person's words for how a call ended: who stopped it, and when. */
import { describe, expect, it } from 'vitest';
import { describeCaller } from '../../gate/index.js';
import type { FinishedCall } from '../../session/index.js';
import { duration, plainFailure } from './call-words.js';

const failed = (
  outcome: Extract<FinishedCall['outcome'], { ok: false }>,
  change: Partial<FinishedCall> = {},
) =>
  plainFailure(
    {
      invocationId: 'i',
      serverId: 'files',
      toolName: 'delete_file',
      startedAt: 1_000,
      finishedAt: 2_700,
      caller: { kind: 'person' },
      outcome,
      ...change,
    },
    describeCaller,
  );

describe('plainFailure', () => {
  it('says "You denied this call", with the reason given, not the gate’s sentence', () => {
    const error = 'The person denied delete_file on files: not today';
    expect(failed({ ok: false, error, kind: 'denied', by: 'person', reason: 'not today' })).toBe(
      'You denied this call (your reason: not today); nothing was sent.',
    );
    expect(failed({ ok: false, error, kind: 'denied', by: 'person' })).toBe(
      'You denied this call; nothing was sent.',
    );
  });

  it('says who cancelled, and after how long', () => {
    expect(
      failed({ ok: false, error: 'tools/call was cancelled', kind: 'cancelled', cancelledInPanel: true }),
    ).toBe('Cancelled by you after 1.7 s.');
    // Cancelled while waiting for approval: a denial on record, the person's cancel in words.
    expect(failed({ ok: false, error: 'x', kind: 'denied', by: 'person', cancelledInPanel: true })).toBe(
      'Cancelled by you after 1.7 s.',
    );
    expect(
      failed(
        { ok: false, error: 'tools/call was cancelled', kind: 'cancelled' },
        { caller: { kind: 'host', label: 'Agent' } },
      ),
    ).toBe('Cancelled by the app (Agent) after 1.7 s.');
  });

  it('names a rule’s denial as the person’s rules, and keeps other errors as they are', () => {
    expect(failed({ ok: false, error: 'x', kind: 'denied', by: 'policy', reason: 'switched off' })).toBe(
      'Denied by your rules: switched off; nothing was sent.',
    );
    expect(failed({ ok: false, error: 'The server is down.', kind: 'transport' })).toBe(
      'The server is down.',
    );
  });
});

describe('duration', () => {
  it('reads as ms, s or min', () => {
    expect([duration(340), duration(2_400), duration(185_000), duration(-5)]).toEqual([
      '340 ms',
      '2.4 s',
      '3 min 5 s',
      '0 ms',
    ]);
  });
});

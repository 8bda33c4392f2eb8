/**
 * A request's idle timeout stops while a sign-in for it waits for the person, and starts afresh
 * after. The engine is real; the transport is the scripted test double (a server that stays
 * silent), and the "fetch" is the test reporting on the signal the engine handed the transport,
 * as the OAuth layer does (e2e/step-up-timeout.spec.ts runs it with a real server and sign-in).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScriptedTransport } from '../../test/support/scripted-transport.js';
import { RpcEngine } from './engine.js';
import { RequestTimeoutError } from './errors.js';
import { forwardPersonWait, reportPersonWait } from './person-wait.js';

afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  const transport = new ScriptedTransport();
  const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
  const settled: string[] = [];
  const call = engine.request('tools/call', {}, { timeoutMs: 1_000 }).then(
    () => settled.push('answered'),
    (error: unknown) => settled.push(error instanceof RequestTimeoutError ? 'timed out' : 'other'),
  );
  const signal = () => transport.sent[0]?.options?.signal;
  return { transport, settled, call, signal };
}

describe('the idle timeout and a sign-in that waits for the person', () => {
  it('does not time out while the person is asked, and times out a full period after', async () => {
    vi.useFakeTimers();
    const { settled, signal } = setup();
    await vi.advanceTimersByTimeAsync(900);
    reportPersonWait(signal(), true);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(settled).toEqual([]);
    reportPersonWait(signal(), false);
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toEqual([]);
    await vi.advanceTimersByTimeAsync(2);
    expect(settled).toEqual(['timed out']);
  });

  it('is answered when the sign-in is done', async () => {
    vi.useFakeTimers();
    const { transport, settled, signal, call } = setup();
    reportPersonWait(signal(), true);
    await vi.advanceTimersByTimeAsync(5_000);
    reportPersonWait(signal(), false);
    const request = transport.sent[0]!.message as { id: number; jsonrpc: '2.0'; method: string };
    transport.reply(request, { content: [] });
    await call;
    expect(settled).toEqual(['answered']);
  });

  it('reaches the engine through a signal a transport derived from its own', async () => {
    vi.useFakeTimers();
    const { settled, signal } = setup();
    const derived = new AbortController();
    forwardPersonWait(signal(), derived.signal);
    reportPersonWait(derived.signal, true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(settled).toEqual([]);
  });

  it('still times out when nobody reports a wait', async () => {
    vi.useFakeTimers();
    const { settled } = setup();
    reportPersonWait(new AbortController().signal, true);
    await vi.advanceTimersByTimeAsync(1_001);
    expect(settled).toEqual(['timed out']);
  });
});

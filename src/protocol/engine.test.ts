import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScriptedTransport } from '../../test/support/scripted-transport.js';
import { RpcEngine } from './engine.js';
import {
  ConnectionClosedError,
  InvalidResponseError,
  McpError,
  RequestCancelledError,
  RequestTimeoutError,
  ResponseLostError,
} from './errors.js';
import type { JsonRpcRequest } from './jsonrpc.js';

function engineWith(
  transport: ScriptedTransport,
  options: Partial<ConstructorParameters<typeof RpcEngine>[1]> = {},
) {
  const violations: string[] = [];
  const engine = new RpcEngine(transport, {
    cancellation: 'notification',
    reissueLostRequests: false,
    onViolation: (reason) => violations.push(reason),
    ...options,
  });
  return { engine, violations };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('RpcEngine', () => {
  it('correlates concurrent responses by id, whatever order they arrive in', async () => {
    const requests: JsonRpcRequest[] = [];
    const transport = new ScriptedTransport((r) => {
      requests.push(r);
    });
    const { engine } = engineWith(transport);
    const a = engine.request('a');
    const b = engine.request('b');
    await vi.waitFor(() => expect(requests).toHaveLength(2));
    transport.reply(requests[1]!, { which: 'b' });
    transport.reply(requests[0]!, { which: 'a' });
    await expect(a).resolves.toEqual({ which: 'a' });
    await expect(b).resolves.toEqual({ which: 'b' });
    expect(requests[0]!.id).not.toEqual(requests[1]!.id);
  });

  it('turns a JSON-RPC error into McpError with code and data', async () => {
    const transport = new ScriptedTransport((r, peer) => peer.fail(r, -32602, 'bad args', { field: 'x' }));
    const { engine } = engineWith(transport);
    const error = await engine.request('tools/call').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).data).toEqual({ field: 'x' });
    expect((error as McpError).message).toContain('tools/call');
  });

  it('reports and drops malformed messages that answer nothing pending, without resolving anything', async () => {
    let request: JsonRpcRequest | undefined;
    const transport = new ScriptedTransport((r) => {
      request = r;
    });
    const { engine, violations } = engineWith(transport);
    const pending = engine.request('x', {}, { timeoutMs: 5_000 });
    await vi.waitFor(() => expect(request).toBeDefined());
    transport.onmessage?.('garbage');
    transport.onmessage?.({ jsonrpc: '2.0', id: 999, result: {} });
    transport.onmessage?.({ jsonrpc: '2.0', id: 998, result: null });
    expect(violations).toHaveLength(3);
    expect(violations[1]).toContain('unknown request id 999');
    expect(engine.violations).toBe(3);
    transport.reply(request!, { ok: true });
    await expect(pending).resolves.toEqual({ ok: true });
  });

  it.each([
    [{ result: 'not an object' }, '"result" must be an object, not a string'],
    [{ result: null }, '"result" must be an object, not null'],
    [{ result: [] }, '"result" must be an object, not an array'],
    [{}, 'neither "result" nor "error"'],
    [{ result: {}, error: { code: 1, message: 'x' } }, 'both "result" and "error"'],
    [{ error: { code: 'bad' } }, 'integer "code"'],
  ])(
    'fails the request at once on a malformed answer %j, naming the method and what was wrong',
    async (body, reason) => {
      let request: JsonRpcRequest | undefined;
      const transport = new ScriptedTransport((r) => {
        request = r;
      });
      const { engine } = engineWith(transport);
      // An idle timeout far beyond the test's own: only the malformed answer can end this request.
      const pending = engine.request('tools/call', {}, { timeoutMs: 600_000 });
      await vi.waitFor(() => expect(request).toBeDefined());
      transport.onmessage?.({ jsonrpc: '2.0', id: request!.id, ...body });
      const error = await pending.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect((error as Error).message).toContain('invalid answer to tools/call');
      expect((error as Error).message).toContain(reason);
      // A late valid answer is not taken: the request is over.
      transport.onmessage?.({ jsonrpc: '2.0', id: request!.id, result: { late: true } });
      expect(engine.violations).toBe(2);
    },
  );

  it('times out, rejects with RequestTimeoutError and sends notifications/cancelled', async () => {
    vi.useFakeTimers();
    const transport = new ScriptedTransport();
    const { engine } = engineWith(transport);
    const pending = engine.request('tools/call', {}, { timeoutMs: 1_000 });
    const assertion = expect(pending).rejects.toBeInstanceOf(RequestTimeoutError);
    await vi.advanceTimersByTimeAsync(1_001);
    await assertion;
    const [cancel] = transport.sentWith('notifications/cancelled');
    expect(cancel).toMatchObject({ params: { requestId: 1, reason: 'timeout' } });
  });

  it('times out each request at its own idle deadline, a shorter one arriving later included', async () => {
    vi.useFakeTimers();
    const transport = new ScriptedTransport();
    const { engine } = engineWith(transport);
    const outcome = (promise: Promise<unknown>) =>
      promise.then(
        () => 'resolved',
        (error: unknown) =>
          error instanceof RequestTimeoutError ? `timeout after ${error.timeoutMs}` : 'other',
      );
    const long = outcome(engine.request('long', {}, { timeoutMs: 1_000 }));
    const short = outcome(engine.request('short', {}, { timeoutMs: 300 }));
    const settled: string[] = [];
    void long.then((what) => settled.push(`long: ${what}`));
    void short.then((what) => settled.push(`short: ${what}`));
    await vi.advanceTimersByTimeAsync(301);
    expect(settled).toEqual(['short: timeout after 300']);
    await vi.advanceTimersByTimeAsync(698);
    expect(settled).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2);
    expect(settled).toEqual(['short: timeout after 300', 'long: timeout after 1000']);
    expect(engine.inFlight).toBe(0);
  });

  it('resets the idle timeout on progress but enforces the maximum total time', async () => {
    vi.useFakeTimers();
    let request: JsonRpcRequest | undefined;
    const transport = new ScriptedTransport((r) => {
      request = r;
    });
    const { engine } = engineWith(transport);
    const progress: number[] = [];
    const pending = engine.request(
      'tools/call',
      {},
      { timeoutMs: 1_000, maxTotalTimeoutMs: 3_500, onprogress: (p) => progress.push(p.progress) },
    );
    const settled = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    const token = (request!.params!._meta as { progressToken: number }).progressToken;
    for (let step = 1; step <= 4; step++) {
      await vi.advanceTimersByTimeAsync(900);
      transport.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress: step },
      });
    }
    // 3.6 s elapsed with progress every 0.9 s: the idle timer never fired, the total one did.
    const error = await settled;
    expect(progress).toEqual([1, 2, 3]);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect((error as RequestTimeoutError).reason).toBe('total');
  });

  it('does not reset the idle timeout on progress when told not to', async () => {
    vi.useFakeTimers();
    let request: JsonRpcRequest | undefined;
    const transport = new ScriptedTransport((r) => {
      request = r;
    });
    const { engine } = engineWith(transport);
    const settled = engine
      .request('x', {}, { timeoutMs: 1_000, resetTimeoutOnProgress: false, onprogress: () => undefined })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(600);
    const token = (request!.params!._meta as { progressToken: number }).progressToken;
    transport.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: token, progress: 1 },
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(await settled).toBeInstanceOf(RequestTimeoutError);
  });

  it('cancels through AbortSignal: rejects, aborts the send signal, tells the server', async () => {
    const transport = new ScriptedTransport();
    const { engine } = engineWith(transport);
    const controller = new AbortController();
    const pending = engine.request('tools/call', { name: 'slow' }, { signal: controller.signal });
    await vi.waitFor(() => expect(transport.sent).toHaveLength(1));
    controller.abort('user pressed cancel');
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestCancelledError);
    expect((error as Error).message).toContain('user pressed cancel');
    expect(transport.sent[0]!.options?.signal?.aborted).toBe(true);
    expect(transport.sentWith('notifications/cancelled')).toHaveLength(1);
  });

  it('closes the stream instead of notifying when cancellation is close-stream', async () => {
    const transport = new ScriptedTransport();
    const { engine } = engineWith(transport, { cancellation: 'close-stream' });
    const controller = new AbortController();
    const pending = engine.request('tools/call', {}, { signal: controller.signal });
    await vi.waitFor(() => expect(transport.sent).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
    expect(transport.sent[0]!.options?.signal?.aborted).toBe(true);
    expect(transport.sentWith('notifications/cancelled')).toHaveLength(0);
  });

  it('ignores a response that arrives after cancellation', async () => {
    let request: JsonRpcRequest | undefined;
    const transport = new ScriptedTransport((r) => {
      request = r;
    });
    const { engine, violations } = engineWith(transport);
    const controller = new AbortController();
    const pending = engine.request('x', {}, { signal: controller.signal });
    await vi.waitFor(() => expect(request).toBeDefined());
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
    transport.onmessage?.({ jsonrpc: '2.0', id: request!.id, result: {} });
    expect(violations.some((v) => v.includes('unknown request id'))).toBe(true);
  });

  it('re-issues a request under a new id when its stream is lost, when allowed', async () => {
    const requests: JsonRpcRequest[] = [];
    const transport = new ScriptedTransport((r, peer) => {
      requests.push(r);
      if (requests.length === 1) queueMicrotask(() => peer.onresponselost?.(r.id, new Error('stream ended')));
      else peer.reply(r, { attempt: requests.length });
    });
    const { engine } = engineWith(transport, { reissueLostRequests: true });
    await expect(engine.request('tools/call', { name: 'x' })).resolves.toEqual({ attempt: 2 });
    expect(requests[0]!.id).not.toEqual(requests[1]!.id);
    expect(requests[1]!.params).toEqual(requests[0]!.params);
  });

  it('rejects with ResponseLostError when re-issuing is not allowed', async () => {
    const transport = new ScriptedTransport((r, peer) => {
      queueMicrotask(() => peer.onresponselost?.(r.id, new Error('stream ended')));
    });
    const { engine } = engineWith(transport);
    await expect(engine.request('x')).rejects.toBeInstanceOf(ResponseLostError);
  });

  it('answers server requests with handlers, and unknown ones with -32601', async () => {
    const transport = new ScriptedTransport();
    const { engine } = engineWith(transport);
    engine.setRequestHandler('ping', () => ({}));
    transport.onmessage?.({ jsonrpc: '2.0', id: 'p1', method: 'ping' });
    transport.onmessage?.({ jsonrpc: '2.0', id: 's1', method: 'sampling/createMessage', params: {} });
    await vi.waitFor(() => expect(transport.sent).toHaveLength(2));
    const replies = transport.sent.map((s) => s.message);
    expect(replies).toContainEqual({ jsonrpc: '2.0', id: 'p1', result: {} });
    expect(replies).toContainEqual({
      jsonrpc: '2.0',
      id: 's1',
      error: { code: -32601, message: 'Method not found: sampling/createMessage' },
    });
  });

  it('turns a throwing handler into a JSON-RPC error, not a crash', async () => {
    const transport = new ScriptedTransport();
    const { engine } = engineWith(transport);
    engine.setRequestHandler('elicitation/create', () => {
      throw new Error('the person closed the dialog');
    });
    transport.onmessage?.({ jsonrpc: '2.0', id: 7, method: 'elicitation/create', params: {} });
    await vi.waitFor(() => expect(transport.sent).toHaveLength(1));
    expect(transport.sent[0]!.message).toMatchObject({
      id: 7,
      error: { code: -32603, message: 'the person closed the dialog' },
    });
  });

  it('rejects everything in flight when the transport closes', async () => {
    const transport = new ScriptedTransport();
    const { engine } = engineWith(transport);
    const a = engine.request('a');
    const b = engine.request('b');
    await transport.close();
    await expect(a).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(b).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(engine.request('c')).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('rejects at once when the send itself fails', async () => {
    const transport = new ScriptedTransport(() => {
      throw new Error('network down');
    });
    const { engine } = engineWith(transport);
    await expect(engine.request('x')).rejects.toThrow('network down');
    expect(engine.inFlight).toBe(0);
  });
});

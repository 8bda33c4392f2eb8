import { describe, expect, it } from 'vitest';
import { type RequestId, TransportError } from '../protocol/index.js';
import { estimateMessageBytes, MessageSizeCap } from './message-size.js';
import { ResponseTooLargeError } from './too-large.js';

describe('estimateMessageBytes', () => {
  it('is close to the JSON size of ordinary messages', () => {
    const message = {
      jsonrpc: '2.0',
      id: 7,
      result: { content: [{ type: 'text', text: 'x'.repeat(10_000) }], isError: false },
    };
    const json = JSON.stringify(message).length;
    const estimate = estimateMessageBytes(message, Number.POSITIVE_INFINITY);
    expect(estimate).toBeGreaterThan(json * 0.9);
    expect(estimate).toBeLessThan(json * 1.2);
  });

  it('counts binary data by its byte length', () => {
    expect(estimateMessageBytes({ data: new Uint8Array(5_000) }, Number.POSITIVE_INFINITY)).toBeGreaterThan(
      5_000,
    );
    expect(estimateMessageBytes(new ArrayBuffer(9_000), Number.POSITIVE_INFINITY)).toBeGreaterThan(9_000);
  });

  it('walks 100,000 levels of nesting without recursion', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 100_000; level++) deep = { next: deep };
    expect(estimateMessageBytes(deep, Number.POSITIVE_INFINITY)).toBeGreaterThan(100_000 * 4);
  });

  it('ends on cycles (structured clones may hold them)', () => {
    const a: Record<string, unknown> = { name: 'a' };
    const b: Record<string, unknown> = { name: 'b', a };
    a.b = b;
    const map = new Map<unknown, unknown>([['self', a]]);
    expect(estimateMessageBytes([a, b, map], Number.POSITIVE_INFINITY)).toBeLessThan(100);
  });

  it('stops soon after the limit instead of walking everything', () => {
    const wide = new Array(3_000_000).fill(0);
    const estimate = estimateMessageBytes(wide, 1_000);
    expect(estimate).toBeGreaterThan(1_000);
    expect(estimate).toBeLessThan(1_100);
  });
});

describe('MessageSizeCap', () => {
  function setup(maxBytes = 1_000) {
    const cap = new MessageSizeCap('peer https://tools.test', 'https://tools.test', maxBytes);
    const failed: Array<{ id: RequestId; error: Error }> = [];
    const errors: Error[] = [];
    const report = {
      failed: (id: RequestId, error: Error) => failed.push({ id, error }),
      error: (e: Error) => errors.push(e),
    };
    return { cap, failed, errors, report };
  }

  it('admits messages under the cap and forgets the requests they answer', () => {
    const { cap, failed, errors, report } = setup();
    cap.sending({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} });
    expect(cap.admit({ jsonrpc: '2.0', id: 1, result: {} }, report)).toBe(true);
    // Answered already: an oversized repeat is just dropped, not blamed on a finished call.
    expect(cap.admit({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(2_000) } }, report)).toBe(false);
    expect(failed).toEqual([]);
    expect(errors).toHaveLength(1);
  });

  it('fails the call an oversized answer belongs to, naming its method', () => {
    const { cap, failed, errors, report } = setup();
    cap.sending({ jsonrpc: '2.0', id: 'a', method: 'resources/read', params: {} });
    expect(cap.admit({ jsonrpc: '2.0', id: 'a', result: { text: 'x'.repeat(2_000) } }, report)).toBe(false);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.id).toBe('a');
    expect(failed[0]?.error).toBeInstanceOf(ResponseTooLargeError);
    expect(failed[0]?.error.message).toContain(
      'limit 1 KB per message): peer https://tools.test answered resources/read',
    );
    expect(errors).toEqual([]);
  });

  it('reports (and drops) an oversized notification or request from the peer', () => {
    const { cap, failed, errors, report } = setup();
    const notification = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { data: 'x'.repeat(5_000) },
    };
    expect(cap.admit(notification, report)).toBe(false);
    expect(failed).toEqual([]);
    expect(errors[0]).toBeInstanceOf(TransportError);
    expect(errors[0]?.message).toContain('dropped a message from peer https://tools.test');
    expect(errors[0]?.message).toContain('limits.maxMessageBytes');
  });
});

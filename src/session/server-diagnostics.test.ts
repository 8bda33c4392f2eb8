import { describe, expect, it } from 'vitest';
import { appendKept, asLogEntry, summarize } from './server-diagnostics.js';

describe('appendKept', () => {
  it('keeps the newest items per server and leaves other servers alone', () => {
    let lists: Readonly<Record<string, readonly number[]>> = { other: [7] };
    for (let n = 1; n <= 5; n++) lists = appendKept(lists, 'a', n, 3);
    expect(lists).toEqual({ other: [7], a: [3, 4, 5] });
  });

  it('returns new lists: a signal holding the old ones sees a change', () => {
    const before = { a: [1] };
    const after = appendKept(before, 'a', 2, 10);
    expect(after).not.toBe(before);
    expect(before.a).toEqual([1]);
  });
});

describe('asLogEntry', () => {
  it('reads a notifications/message', () => {
    const message = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'error', logger: 'db', data: { error: 'down' } },
    };
    expect(asLogEntry(message, 5)).toEqual({ at: 5, level: 'error', logger: 'db', data: { error: 'down' } });
  });

  it('ignores other messages and survives ill-shaped ones', () => {
    expect(asLogEntry({ method: 'notifications/progress', params: {} }, 1)).toBeUndefined();
    expect(asLogEntry({ method: 'notifications/message' }, 1)).toBeUndefined();
    expect(asLogEntry('notifications/message', 1)).toBeUndefined();
    expect(asLogEntry({ method: 'notifications/message', params: { level: 3, logger: {} } }, 1)).toEqual({
      at: 1,
      level: 'unknown',
      data: undefined,
    });
  });
});

describe('summarize (the raw view line)', () => {
  it('says what each kind of message is', () => {
    expect(summarize({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo' } })).toBe(
      'tools/call #3 (echo)',
    );
    expect(summarize({ jsonrpc: '2.0', method: 'notifications/progress', params: {} })).toBe(
      'notifications/progress',
    );
    expect(summarize({ jsonrpc: '2.0', id: 'x', result: {} })).toBe('result #x');
    expect(summarize({ jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'no such method' } })).toBe(
      'error #4: no such method',
    );
    expect(summarize([{}, {}])).toBe('a batch of 2');
    expect(summarize(42)).toBe('not a JSON-RPC message (number)');
  });
});

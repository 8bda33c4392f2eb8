import { describe, expect, it } from 'vitest';
import { classifyMessage } from './jsonrpc.js';

describe('classifyMessage', () => {
  it('recognizes the four envelope kinds', () => {
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, method: 'ping' }).kind).toBe('request');
    expect(classifyMessage({ jsonrpc: '2.0', method: 'notifications/progress', params: {} }).kind).toBe(
      'notification',
    );
    expect(classifyMessage({ jsonrpc: '2.0', id: 'a', result: {} }).kind).toBe('success');
    expect(classifyMessage({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } }).kind).toBe(
      'failure',
    );
  });

  it.each([
    [[{ jsonrpc: '2.0', id: 1, method: 'ping' }], 'batches'],
    ['{"jsonrpc":"2.0"}', 'not a JSON object'],
    [null, 'not a JSON object'],
    [{ id: 1, method: 'ping' }, 'jsonrpc'],
    [{ jsonrpc: '1.0', id: 1, result: {} }, 'jsonrpc'],
    [{ jsonrpc: '2.0', id: 1, method: '' }, 'non-empty'],
    [{ jsonrpc: '2.0', id: 1, method: 'x', params: [1] }, 'params'],
    [{ jsonrpc: '2.0', id: {}, method: 'x' }, 'id'],
    [{ jsonrpc: '2.0', id: 1 }, 'neither "result" nor "error"'],
    [{ jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: '' } }, 'both "result" and "error"'],
    [{ jsonrpc: '2.0', id: 1, result: 'text' }, '"result" must be an object'],
    [{ jsonrpc: '2.0', id: null, result: {} }, 'string or number id'],
    [{ jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } }, 'integer'],
    [{ jsonrpc: '2.0', id: 1, error: { code: 1 } }, 'error.message'],
    [{ jsonrpc: '2.0', id: Number.NaN, result: {} }, 'id'],
  ])('rejects %j with a reason mentioning %s', (value, reason) => {
    const classified = classifyMessage(value);
    expect(classified.kind).toBe('invalid');
    if (classified.kind === 'invalid') expect(classified.reason).toContain(reason);
  });
});

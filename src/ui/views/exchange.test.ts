/** Inspect's pairing of a connection's messages: requests with their responses, notifications alone. */

import { describe, expect, it } from 'vitest';
import type { TrafficEntry } from '../../session/index.js';
import { messagesOf, methodOf, pairExchange } from './exchange.js';

let seq = 0;
const at = (time: number, direction: TrafficEntry['direction'], message: unknown): TrafficEntry => ({
  seq: seq++,
  at: time,
  direction,
  message,
});

describe('pairExchange', () => {
  it('pairs each request with the response of the same id, the other way, with the time between', () => {
    const exchanges = pairExchange([
      at(100, 'sent', { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      at(110, 'sent', { jsonrpc: '2.0', method: 'notifications/initialized' }),
      at(120, 'sent', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo' } }),
      at(150, 'received', { jsonrpc: '2.0', id: 1, result: { tools: [] } }),
      // The server's own request, answered by us: paired the other way round.
      at(160, 'received', { jsonrpc: '2.0', id: 1, method: 'elicitation/create' }),
      at(190, 'sent', { jsonrpc: '2.0', id: 1, result: { action: 'decline' } }),
      at(300, 'received', { jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'no' } }),
      at(310, 'received', { jsonrpc: '2.0', id: 99, result: {} }),
    ]);
    expect(
      exchanges.map((exchange) => [
        exchange.kind,
        methodOf(exchange),
        'latencyMs' in exchange ? exchange.latencyMs : undefined,
      ]),
    ).toEqual([
      ['single', '', undefined],
      ['pair', 'elicitation/create', 30],
      ['pair', 'tools/call', 180],
      ['notification', 'notifications/initialized', undefined],
      ['pair', 'tools/list', 50],
    ]);
    expect(messagesOf(exchanges[2]!).map((entry) => entry.at)).toEqual([120, 300]);
  });

  it('keeps a request still waiting, without a latency, and tells string ids from numbers', () => {
    const exchanges = pairExchange([
      at(0, 'sent', { jsonrpc: '2.0', id: '1', method: 'ping' }),
      at(5, 'received', { jsonrpc: '2.0', id: 1, result: {} }),
    ]);
    expect(exchanges).toHaveLength(2);
    expect(exchanges[1]).toMatchObject({ kind: 'pair', method: 'ping' });
    expect(exchanges[1]).not.toHaveProperty('response');
    expect(exchanges[0]).toMatchObject({ kind: 'single' });
  });

  it('takes anything a peer may send without throwing', () => {
    expect(
      pairExchange([at(0, 'received', null), at(1, 'received', [1, 2]), at(2, 'received', 'x')]),
    ).toHaveLength(3);
  });
});

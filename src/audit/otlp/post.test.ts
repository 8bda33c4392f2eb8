/**
 * One export request against the OTLP/HTTP test receiver (a real HTTP server over Node's fetch):
 * what the exporter does after each kind of answer a collector or a network gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from '../../../test/support/otlp-receiver.js';
import type { ChainEvent } from '../chain.js';
import { logRecordOf, requestJson } from './encode.js';
import { logsEndpoint } from './exporter.js';
import { backoffMs, postLogs, retryAfterMs } from './post.js';

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver?.close());

const event: ChainEvent = {
  seq: 1,
  invocationId: 'inv',
  kind: 'refusal',
  at: 1_700_000_000_000,
  body: { invocationId: 'inv', serverId: 'srv', toolName: 'rm', outcome: 'denied', reason: 'rule' },
  prevHash: 'sha256:0',
  hash: 'sha256:1',
};
const body = requestJson({ serviceName: 'test', logName: 'audit' }, [
  JSON.stringify(logRecordOf(event, undefined)),
]);
const post = (headers: Record<string, string> = {}) =>
  postLogs(`${receiver.url}/v1/logs`, body, headers, fetch, new AbortController().signal);

describe('postLogs', () => {
  it('an accepted batch, with the headers the host configured', async () => {
    receiver.setMode({ kind: 'up' });
    expect(await post({ authorization: 'Bearer collector-key' })).toEqual({ kind: 'accepted', rejected: 0 });
    expect(receiver.lastHeaders.authorization).toBe('Bearer collector-key');
    expect(receiver.records.at(-1)?.attributes['toolgate.outcome']).toBe('denied');
  });

  it('partial success counts the records the collector refused', async () => {
    receiver.setMode({ kind: 'partial', rejected: 1 });
    expect(await post()).toEqual({ kind: 'accepted', rejected: 1, message: 'test rejection' });
  });

  it('503 with Retry-After, and a reset connection, are retried; the reason names the collector', async () => {
    receiver.setMode({ kind: 'unavailable', retryAfterSeconds: 7 });
    expect(await post()).toMatchObject({ kind: 'retry', afterMs: 7000, reason: /127\.0\.0\.1.*HTTP 503/ });
    receiver.setMode({ kind: 'reset' });
    expect(await post()).toMatchObject({ kind: 'retry', reason: /could not be reached/ });
    receiver.setMode({ kind: 'status', status: 429 });
    expect(await post()).toMatchObject({ kind: 'retry' });
  });

  it('413 asks for smaller batches; other 4xx are not retried', async () => {
    receiver.setMode({ kind: 'status', status: 413 });
    expect(await post()).toMatchObject({ kind: 'too-large' });
    receiver.setMode({ kind: 'status', status: 401 });
    expect(await post()).toMatchObject({ kind: 'rejected', status: 401 });
    receiver.setMode({ kind: 'up' });
    const invalid = await postLogs(
      `${receiver.url}/v1/logs`,
      '{"resourceLogs":[{"bogus":1}]}',
      {},
      fetch,
      new AbortController().signal,
    );
    expect(invalid).toMatchObject({ kind: 'rejected', status: 400, reason: /bogus/ });
  });
});

describe('waiting and addressing', () => {
  it('backs off exponentially with jitter, within bounds', () => {
    expect(backoffMs(1, 1000, 60_000, () => 0)).toBe(500);
    expect(backoffMs(1, 1000, 60_000, () => 1)).toBe(1000);
    expect(backoffMs(4, 1000, 60_000, () => 1)).toBe(8000);
    expect(backoffMs(20, 1000, 60_000, () => 1)).toBe(60_000);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });

  it('posts to <url>/v1/logs, over http or https only', () => {
    expect(logsEndpoint('https://collector.example.com:4318')).toBe(
      'https://collector.example.com:4318/v1/logs',
    );
    expect(logsEndpoint('https://c.example.com/otlp/')).toBe('https://c.example.com/otlp/v1/logs');
    expect(logsEndpoint('https://c.example.com/v1/logs')).toBe('https://c.example.com/v1/logs');
    expect(() => logsEndpoint('javascript:alert(1)')).toThrow(/http or https/);
    expect(() => logsEndpoint('not a url')).toThrow(/not a URL/);
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, reconnectDelay, resolveLimits } from './limits.js';
import { describeBytes, ResponseTooLargeError } from './too-large.js';

const MB = 1024 * 1024;

describe('resolveLimits', () => {
  it('fills in the defaults and keeps what was given', () => {
    expect(resolveLimits()).toEqual(DEFAULT_LIMITS);
    expect(resolveLimits({ maxBodyBytes: 2 * MB })).toEqual({ ...DEFAULT_LIMITS, maxBodyBytes: 2 * MB });
    expect(DEFAULT_LIMITS).toMatchObject({
      maxBodyBytes: 16 * MB,
      maxEventBytes: 8 * MB,
      maxMessageBytes: 16 * MB,
      maxReconnects: 5,
      maxEmptyStreams: 3,
      minRetryMs: 500,
      maxSessionRestarts: 3,
    });
  });

  it('refuses values that would switch a cap off or make no sense, naming the field', () => {
    expect(() => resolveLimits({ maxBodyBytes: 0 })).toThrow('limits.maxBodyBytes must be a positive number');
    expect(() => resolveLimits({ maxEventBytes: -1 })).toThrow('limits.maxEventBytes');
    expect(() => resolveLimits({ maxMessageBytes: Number.NaN })).toThrow('limits.maxMessageBytes');
    expect(() => resolveLimits({ maxReconnects: -1 })).toThrow(
      'limits.maxReconnects must be a non-negative number',
    );
    expect(() => resolveLimits({ maxEmptyStreams: -1 })).toThrow(
      'limits.maxEmptyStreams must be a non-negative number',
    );
    expect(resolveLimits({ maxReconnects: 0, maxEmptyStreams: 0, maxSessionRestarts: 0 })).toMatchObject({
      maxReconnects: 0,
      maxEmptyStreams: 0,
      maxSessionRestarts: 0,
    });
  });
});

describe('reconnectDelay', () => {
  const limits = resolveLimits();

  it('raises a retry below the floor to it (retry: 0 does not mean "at once")', () => {
    expect(reconnectDelay(0, 0, limits)).toBe(500);
    expect(reconnectDelay(0, 499, limits)).toBe(500);
    expect(reconnectDelay(0, 700, limits)).toBe(700);
  });

  it('backs off exponentially from the server retry, or from the first delay without one', () => {
    expect([0, 1, 2, 3, 4].map((attempt) => reconnectDelay(attempt, 0, limits))).toEqual([
      500, 1_000, 2_000, 4_000, 8_000,
    ]);
    expect([0, 1, 2].map((attempt) => reconnectDelay(attempt, undefined, limits))).toEqual([
      1_000, 2_000, 4_000,
    ]);
  });

  it('never waits longer than the cap, whatever the server asks', () => {
    expect(reconnectDelay(10, undefined, limits)).toBe(30_000);
    expect(reconnectDelay(0, 3_600_000, limits)).toBe(30_000);
    expect(reconnectDelay(2, 0, resolveLimits({ maxReconnectDelayMs: 1_000 }))).toBe(1_000);
  });
});

describe('ResponseTooLargeError', () => {
  it('says "response too large (N MB, limit M MB)", naming server and method and the option to raise', () => {
    const error = new ResponseTooLargeError(
      'https://x.test/mcp',
      'tools/call',
      'body',
      60 * MB,
      16 * MB,
      false,
    );
    expect(error.kind).toBe('too-large');
    expect(error.message).toMatch(
      /^response too large \(60 MB, limit 16 MB\): https:\/\/x\.test\/mcp answered tools\/call/,
    );
    expect(error.message).toContain('raise limits.maxBodyBytes');
  });

  it('says "over" the limit when reading stopped at the cap, and which cap', () => {
    expect(new ResponseTooLargeError('s', 'm', 'event', 8 * MB + 5, 8 * MB, true).message).toContain(
      'response too large (an event of over 8 MB, limit 8 MB per event)',
    );
    expect(new ResponseTooLargeError('s', 'm', 'stream', 17 * MB, 16 * MB, true).message).toContain(
      '(over 16 MB in its event stream, limit 16 MB)',
    );
    expect(new ResponseTooLargeError('s', 'm', 'message', 17 * MB, 16 * MB, true).message).toContain(
      'limit 16 MB per message): s answered m',
    );
  });

  it('describes sizes as a person reads them', () => {
    expect(describeBytes(16 * MB)).toBe('16 MB');
    expect(describeBytes(1.5 * MB)).toBe('1.5 MB');
    expect(describeBytes(300 * 1024)).toBe('300 KB');
    expect(describeBytes(10)).toBe('1 KB');
  });
});

/** The token buckets that bound how often an app speaks to the host (message-limit.ts). */
import { describe, expect, it } from 'vitest';
import { AppRateLimits, limitReason, TokenBucket } from './message-limit.js';

describe('TokenBucket', () => {
  it('lets a burst through, refuses the rest, and gives one token back per refill period', () => {
    let now = 1_000;
    const bucket = new TokenBucket({ burst: 2, refillMs: 5_000 }, () => now);
    expect(bucket.take()).toEqual({ ok: true });
    expect(bucket.take()).toEqual({ ok: true });
    expect(bucket.take()).toEqual({ ok: false, retryInMs: 5_000, firstRefusal: true });
    now += 2_000;
    expect(bucket.take()).toEqual({ ok: false, retryInMs: 3_000, firstRefusal: false });
    now += 3_000;
    expect(bucket.take()).toEqual({ ok: true });
    expect(bucket.take()).toMatchObject({ ok: false, firstRefusal: true });
    // A long silence refills to the burst, never beyond it.
    now += 60_000;
    expect([bucket.take(), bucket.take(), bucket.take()].map((taken) => taken.ok)).toEqual([
      true,
      true,
      false,
    ]);
  });
});

describe('AppRateLimits', () => {
  it('keeps one bucket per app (server and resource) and per kind of request', () => {
    const limits = new AppRateLimits(
      { message: { burst: 1, refillMs: 1_000 }, 'model-context': { burst: 1, refillMs: 1_000 } },
      () => 0,
    );
    const app = { serverId: 'a', resourceUri: 'ui://x' };
    expect(limits.take(app, 'message').ok).toBe(true);
    expect(limits.take(app, 'message').ok).toBe(false);
    expect(limits.take(app, 'model-context').ok).toBe(true);
    expect(limits.take({ serverId: 'b', resourceUri: 'ui://x' }, 'message').ok).toBe(true);
    expect(limits.take({ serverId: 'a', resourceUri: 'ui://y' }, 'message').ok).toBe(true);
  });

  it('says the limit and when to try again', () => {
    expect(limitReason('messages', { burst: 5, refillMs: 12_000 }, 11_200)).toBe(
      'Too many messages: an app may send at most 5 at once, then one every 12 s. Nothing was passed to the host; try again in 12 s.',
    );
  });
});

/**
 * How often an app may speak to the host app. `ui/message` needs no gesture, and what it says may
 * reach a model, so an app gets a small token bucket per kind of request: a few at once, then one
 * every so often. The buckets belong to the app's identity (server and UI resource), not to one
 * open frame, so closing and reopening an app does not refill them.
 */

import type { AppIdentity } from '../session/index.js';

/** A token bucket's shape: `burst` requests at once, then one more every `refillMs`. */
interface RateLimit {
  burst: number;
  refillMs: number;
}

/** `ui/message`: five at once, then one every 12 seconds (five a minute). */
const APP_MESSAGE_LIMIT: RateLimit = { burst: 5, refillMs: 12_000 };
/** `ui/update-model-context` replaces the previous context, so it may come more often. */
const APP_CONTEXT_LIMIT: RateLimit = { burst: 10, refillMs: 1_000 };

/** What a bucket says to one request: go ahead, or wait this long for the next token. */
type TakeResult = { ok: true } | { ok: false; retryInMs: number; firstRefusal: boolean };

export class TokenBucket {
  private tokens: number;
  private updatedAt: number;
  /** True after a refusal, until a request passes again: one burst is reported once. */
  private refusing = false;

  constructor(
    readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = limit.burst;
    this.updatedAt = now();
  }

  take(): TakeResult {
    const at = this.now();
    // Tokens come back continuously; fractions count toward the next whole one.
    this.tokens = Math.min(this.limit.burst, this.tokens + (at - this.updatedAt) / this.limit.refillMs);
    this.updatedAt = at;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.refusing = false;
      return { ok: true };
    }
    const firstRefusal = !this.refusing;
    this.refusing = true;
    return { ok: false, retryInMs: Math.ceil((1 - this.tokens) * this.limit.refillMs), firstRefusal };
  }
}

export type LimitedMethod = 'message' | 'model-context';

/** The buckets of every app on this page (or a test's own, with its clock). */
export class AppRateLimits {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly limits: Record<LimitedMethod, RateLimit> = {
      message: APP_MESSAGE_LIMIT,
      'model-context': APP_CONTEXT_LIMIT,
    },
    private readonly now: () => number = Date.now,
  ) {}

  take(app: AppIdentity, method: LimitedMethod): TakeResult & { limit: RateLimit } {
    const key = `${method}\u0000${app.serverId}\u0000${app.resourceUri}`;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(this.limits[method], this.now);
      this.buckets.set(key, bucket);
    }
    return { ...bucket.take(), limit: bucket.limit };
  }
}

/** The page's buckets: every app session shares them. */
export const pageAppRateLimits = new AppRateLimits();

/** The refusal an app over its limit gets (the host gets nothing of the request). */
export function limitReason(what: string, limit: RateLimit, retryInMs: number): string {
  return `Too many ${what}: an app may send at most ${limit.burst} at once, then one every ${
    limit.refillMs / 1000
  } s. Nothing was passed to the host; try again in ${Math.max(1, Math.ceil(retryInMs / 1000))} s.`;
}

/**
 * A token bucket per caller: `burst` requests at once, refilled at `perSecond`. A refused request
 * learns how many seconds until the next one would pass (the Retry-After header).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly clock: () => number = Date.now,
  ) {
    if (!(perSecond > 0) || !(burst >= 1))
      throw new RangeError(`rate must be > 0 and burst >= 1; got ${perSecond} and ${burst}`);
  }

  /** 0 when `key` may go now (and one token is spent), else whole seconds to wait. */
  take(key: string): number {
    const now = this.clock();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }
}

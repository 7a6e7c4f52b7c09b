/**
 * A fixed one-minute window per user, in this process's memory: one web
 * server process serves all requests (README, "Limits").
 */
export interface RateLimiter {
  /** Counts a request of `key`; returns 0 when allowed, else the seconds until it would be. */
  take(key: string): number;
}

export function createRateLimiter(limitPerMinute: number, now: () => number = Date.now): RateLimiter {
  const windowMs = 60_000;
  const windows = new Map<string, { start: number; count: number }>();

  return {
    take(key) {
      const time = now();
      if (windows.size > 10_000) {
        for (const [k, w] of windows) if (time - w.start >= windowMs) windows.delete(k);
      }
      let window = windows.get(key);
      if (!window || time - window.start >= windowMs) {
        window = { start: time, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      return window.count <= limitPerMinute
        ? 0
        : Math.max(1, Math.ceil((window.start + windowMs - time) / 1000));
    },
  };
}

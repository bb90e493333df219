interface Window {
  second: number;
  used: number;
}

/**
 * Per-second bursts, per client, in this process's memory: a fixed one-second window on the
 * injected clock. Behind n API processes a client can get up to n × the limit per second; the
 * daily quota, which is shared, is what bounds the total. Windows of idle clients are dropped
 * when the second turns, so memory follows the clients of the last second only.
 */
export class BurstLimiter {
  private readonly windows = new Map<string, Window>();
  private sweptSecond = -1;

  /**
   * Takes one request from `client`'s window: whether it was allowed and how many the window has
   * left after it (0 when refused); the window resets at the next whole second.
   */
  take(client: string, perSecond: number, nowMs: number): { allowed: boolean; remaining: number } {
    const allowed = this.takeOne(client, perSecond, nowMs);
    return { allowed, remaining: allowed ? Math.max(0, perSecond - (this.windows.get(client)?.used ?? 0)) : 0 };
  }

  private takeOne(client: string, perSecond: number, nowMs: number): boolean {
    const second = Math.floor(nowMs / 1000);
    if (second !== this.sweptSecond) {
      for (const [id, window] of this.windows) if (window.second < second) this.windows.delete(id);
      this.sweptSecond = second;
    }
    const window = this.windows.get(client);
    if (window === undefined || window.second !== second) {
      this.windows.set(client, { second, used: 1 });
      return true;
    }
    if (window.used >= perSecond) return false;
    window.used += 1;
    return true;
  }
}

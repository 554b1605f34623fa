/**
 * One queue of Notion requests for the whole process: requests start at most `requestsPerSecond` on average
 * (Notion documents an average of 3 per second per integration), one slot after the other. A 429 pushes every
 * later slot back by its Retry-After, so the queue as a whole slows down rather than each request on its own.
 */
export const NOTION_REQUESTS_PER_SECOND = 3;

export class RequestLimiter {
  private nextSlot = 0;
  private readonly intervalMs: number;
  /** requests started through this limiter (bench, tests) */
  started = 0;

  constructor(requestsPerSecond = NOTION_REQUESTS_PER_SECOND) {
    this.intervalMs = 1000 / requestsPerSecond;
  }

  /** Resolves when the caller may send its request. */
  async acquire(): Promise<void> {
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.intervalMs;
    this.started++;
    if (slot > now) await sleep(slot - now);
  }

  /** Nobody sends before `ms` from now (a 429's Retry-After). */
  pause(ms: number): void {
    this.nextSlot = Math.max(this.nextSlot, Date.now() + ms);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

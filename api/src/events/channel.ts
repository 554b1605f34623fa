/**
 * A bounded async queue: what one subscriber has not consumed yet. `push` never blocks the publisher; beyond
 * `limit` queued events a subscriber this far behind misses the newest ones (it is not keeping up anyway).
 * Deliberately small: an answer streams about one event per token to every open chat, so this sits on the hot
 * path (a Repeater per hop cost several promises and closures per event).
 *
 * `merge` (optional): when a value has to be queued (the consumer is busy with an earlier one), it may be merged
 * into the last queued value instead (e.g. two text increments of the same message become one). A consumer
 * that keeps up never sees merged values: only what actually waits is merged.
 */
export class Channel<T> implements AsyncIterableIterator<T> {
  private items: T[] = [];
  private head = 0;
  private waiting: ((result: IteratorResult<T>) => void) | null = null;
  private closed = false;

  constructor(
    private readonly limit: number,
    private readonly onClose: () => void = () => undefined,
    /** the value that replaces `queued` (the last one waiting) and `next`, or null to queue `next` after it */
    private readonly merge: ((queued: T, next: T) => T | null) | null = null,
  ) {}

  /** Queue (or hand over) one value; false when it was dropped (closed, or `limit` values already queued). */
  push(value: T): boolean {
    if (this.closed) return false;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = null;
      waiting({ value, done: false });
      return true;
    }
    const last = this.items.length - 1;
    if (this.merge && last >= this.head) {
      const merged = this.merge(this.items[last] as T, value);
      if (merged !== null) {
        this.items[last] = merged;
        return true;
      }
    }
    if (this.items.length - this.head >= this.limit) return false;
    this.items.push(value);
    return true;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head] as T;
      this.items[this.head++] = undefined as T;
      if (this.head === this.items.length) {
        this.items = [];
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<T>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(err: unknown): Promise<IteratorResult<T>> {
    this.close();
    return Promise.reject(err);
  }

  /** Stop: queued values are dropped, a waiting next() ends, onClose runs once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.items = [];
    this.head = 0;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.({ value: undefined, done: true });
    this.onClose();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/**
 * A bounded async queue: what one subscriber has not consumed yet. `push` never blocks the publisher; beyond
 * `limit` queued events a subscriber this far behind misses the newest ones (it is not keeping up anyway).
 * Deliberately small: an answer streams about one event per token to every open chat, so this sits on the hot
 * path (a Repeater per hop cost several promises and closures per event).
 *
 * `merge` (optional): when a value has to be queued (the consumer is busy with an earlier one), it may be merged
 * into the last queued value instead (e.g. two text increments of the same message become one). A consumer
 * that keeps up never sees merged values: only what actually waits is merged.
 *
 * `pace` (optional, with `merge`): a value whose key equals the key of the value handed over last, less than
 * `pace.ms()` ago, is held until `pace.ms()` after that one (values arriving meanwhile merge into it), even when
 * the consumer is waiting: a stream of small increments reaches the consumer at most once per `pace.ms()` per key
 * (one socket write instead of several). A value without a key (null) or with another key is never held, and
 * it first releases a held one, so the order is kept. The first value of a key goes out at once.
 */
export interface Pace<T> {
  /** the interval now (asked when a value arrives; it may change with the process's load) */
  ms(): number;
  /** the stream a value belongs to (e.g. a message's text increments), or null: never held */
  key(value: T): string | null;
}

export class Channel<T> implements AsyncIterableIterator<T> {
  private items: T[] = [];
  private head = 0;
  private waiting: ((result: IteratorResult<T>) => void) | null = null;
  private closed = false;
  /** the key and time of the last value handed over, and the timer of a held value (pace) */
  private lastKey: string | null = null;
  private lastAt = 0;
  private holdTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly limit: number,
    private readonly onClose: () => void = () => undefined,
    /** the value that replaces `queued` (the last one waiting) and `next`, or null to queue `next` after it */
    private readonly merge: ((queued: T, next: T) => T | null) | null = null,
    private readonly pace: Pace<T> | null = null,
  ) {}

  /** Queue (or hand over) one value; false when it was dropped (closed, or `limit` values already queued). */
  push(value: T): boolean {
    if (this.closed) return false;
    if (this.waiting) {
      if (this.holdTimer) {
        // a value is held for the waiting consumer: merge into it, or let it go now and queue this one after it
        if (this.mergeIntoLast(value)) return true;
        this.release();
      } else {
        const hold = this.holdFor(value);
        if (hold <= 0) {
          this.handOver(value);
          return true;
        }
        this.items.push(value);
        this.holdTimer = setTimeout(() => this.release(), hold);
        return true;
      }
    }
    if (this.mergeIntoLast(value)) return true;
    if (this.items.length - this.head >= this.limit) return false;
    this.items.push(value);
    return true;
  }

  private mergeIntoLast(value: T): boolean {
    const last = this.items.length - 1;
    if (this.merge && last >= this.head) {
      const merged = this.merge(this.items[last] as T, value);
      if (merged !== null) {
        this.items[last] = merged;
        return true;
      }
    }
    return false;
  }

  /** ms to hold `value` before handing it over (pace), 0: at once */
  private holdFor(value: T): number {
    if (!this.pace || this.lastKey === null) return 0;
    if (this.pace.key(value) !== this.lastKey) return 0;
    return this.lastAt + this.pace.ms() - Date.now();
  }

  private handOver(value: T): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (this.pace) {
      this.lastKey = this.pace.key(value);
      this.lastAt = Date.now();
    }
    waiting?.({ value, done: false });
  }

  /** Hand the held value to the waiting consumer. */
  private release(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    if (this.waiting && this.head < this.items.length) this.handOver(this.shift());
  }

  private shift(): T {
    const value = this.items[this.head] as T;
    this.items[this.head++] = undefined as T;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    }
    return value;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) {
      if (this.holdTimer) {
        clearTimeout(this.holdTimer);
        this.holdTimer = null;
      }
      const value = this.shift();
      if (this.pace) {
        this.lastKey = this.pace.key(value);
        this.lastAt = Date.now();
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
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
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

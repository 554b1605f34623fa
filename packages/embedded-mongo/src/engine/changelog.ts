/**
 * The change log (the store's oplog for change streams): every committed document change and namespace change,
 * in commit order, each with its operation time, kept in memory within a bounded history.
 *
 * Operation times are MongoDB Timestamps (seconds, increment) packed into a bigint `seq` (seconds << 32 | inc):
 * strictly increasing, taken from the wall clock, so they also increase across restarts. The history starts
 * empty at each start (nothing is persisted): a position from before this start, or from before the oldest
 * retained entry, cannot be resumed (`lostUpTo`), which the change stream layer answers with 286.
 *
 * Entries are noted while a command applies its changes and published only when the command commits (its log
 * records written), so a reader never sees a change that was not acknowledged. Documents are referenced, not
 * copied: the engine never modifies a stored document in place.
 */
import { randomBytes } from "node:crypto";
import type { Document } from "bson";

export type ChangeOp = "insert" | "update" | "replace" | "delete" | "drop" | "rename" | "dropDatabase";

export interface ChangeEntry {
  seq: bigint;
  /** wall-clock time of the change (the event's wallTime) */
  wall: Date;
  op: ChangeOp;
  db: string;
  /** the collection (absent for dropDatabase) */
  coll?: string;
  /** the document's _id (insert/update/replace/delete) */
  id?: unknown;
  /** the document after the change (insert/update/replace) */
  doc?: Document;
  /** the document before the change (update, to describe it) */
  before?: Document;
  /** the new namespace (rename) */
  to?: { db: string; coll: string };
  /** bytes of retained documents, for the history's byte bound */
  bytes: number;
  /** the update's description, computed on first delivery */
  description?: Document;
}

export interface ChangeLogOptions {
  /** at most this many entries are kept (default 50,000) */
  maxEvents?: number;
  /** at most this many bytes of documents are kept (default 64 MiB) */
  maxBytes?: number;
  /** the clock (tests); default Date.now */
  now?: () => number;
}

export const DEFAULT_HISTORY_EVENTS = 50_000;
export const DEFAULT_HISTORY_BYTES = 64 * 1024 * 1024;

/** seconds and increment of a seq */
export function seqParts(seq: bigint): { t: number; i: number } {
  return { t: Number(seq >> 32n), i: Number(seq & 0xffffffffn) };
}

export function toSeq(t: number, i: number): bigint {
  return (BigInt(t) << 32n) | BigInt(i);
}

type Waiter = () => void;

export class ChangeLog {
  private readonly entries: ChangeEntry[] = [];
  /** index of the oldest retained entry in `entries` (trimmed lazily to keep removal O(1)) */
  private head = 0;
  private bytes = 0;
  private pending: ChangeEntry[] = [];
  /** waiting readers, each with the changes it wants to be woken for (undefined: any) */
  private readonly waiters = new Map<Waiter, ((e: ChangeEntry) => boolean) | undefined>();
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private readonly now: () => number;
  /** the latest operation time handed out (committed or not) */
  private clock: bigint;
  /** the latest committed operation time */
  private committed: bigint;
  /** changes at or before this seq are no longer known */
  private lost: bigint;
  private closed = false;
  /** tells this run's resume tokens from an earlier run's (whose history is gone) */
  readonly runId = randomBytes(4).toString("hex");

  constructor(options: ChangeLogOptions = {}) {
    this.maxEvents = Math.max(1, options.maxEvents ?? DEFAULT_HISTORY_EVENTS);
    this.maxBytes = Math.max(0, options.maxBytes ?? DEFAULT_HISTORY_BYTES);
    this.now = options.now ?? Date.now;
    // one second ahead: every change of an earlier run of the store (same second included) is before the start
    const start = toSeq(Math.floor(this.now() / 1000) + 1, 0);
    this.clock = start;
    this.committed = start;
    this.lost = start - 1n;
  }

  /** the latest committed operation time (operationTime of replies, hello's lastWrite) */
  get lastCommitted(): bigint {
    return this.committed;
  }

  /** changes with seq <= lostUpTo are gone from the history */
  get lostUpTo(): bigint {
    return this.lost;
  }

  /** the store is closing: nothing more will be published */
  get isClosed(): boolean {
    return this.closed;
  }

  get size(): number {
    return this.entries.length - this.head;
  }

  /** Records a change of the command under way (visible once `publish` runs). */
  note(entry: Omit<ChangeEntry, "seq" | "wall">): void {
    const nowSec = Math.floor(this.now() / 1000);
    const { t } = seqParts(this.clock);
    this.clock = nowSec > t ? toSeq(nowSec, 1) : this.clock + 1n;
    this.pending.push({ ...entry, seq: this.clock, wall: new Date() });
  }

  /** The command committed: its changes become visible, waiting readers wake. */
  publish(): void {
    if (this.pending.length === 0) return;
    const published = this.pending;
    for (const e of published) {
      this.entries.push(e);
      this.bytes += e.bytes;
    }
    this.committed = published[published.length - 1].seq;
    this.pending = [];
    const lostBefore = this.lost;
    this.trim();
    // history dropped: every reader wakes (one behind it must fail now with 286, not at its timeout)
    this.wake(this.lost === lostBefore ? published : undefined);
  }

  /** The command failed to commit: its changes are not published. */
  discard(): void {
    this.pending = [];
  }

  /** Retained entries with seq > after, oldest first (read lazily by the caller). */
  *after(after: bigint): Generator<ChangeEntry> {
    for (let i = this.indexAfter(after); i < this.entries.length; i++) yield this.entries[i];
  }

  /** the retained entry with exactly this seq */
  at(seq: bigint): ChangeEntry | undefined {
    const i = this.indexAfter(seq - 1n);
    return i < this.entries.length && this.entries[i].seq === seq ? this.entries[i] : undefined;
  }

  /**
   * Resolves at the next publish (of a change `wants` accepts, when given; any publish that drops history), after
   * `timeoutMs`, when `cancel` is called through `onCancel`, or when the log closes. Never polls. `wants` spares a
   * reader the wake-ups for changes it would skip (a stream of another collection).
   */
  waitForChange(
    timeoutMs: number,
    onCancel?: (cancel: () => void) => void,
    wants?: (e: ChangeEntry) => boolean,
  ): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      this.waiters.set(done, wants);
      onCancel?.(done);
    });
  }

  /** Wakes every waiter for good (the store is closing). */
  close(): void {
    this.closed = true;
    this.wake();
  }

  /** wakes the waiters that want one of `published` (every waiter when it is not given) */
  private wake(published?: ChangeEntry[]): void {
    for (const [w, wants] of [...this.waiters]) if (!published || !wants || published.some(wants)) w();
  }

  /** first index in `entries` whose seq > after (binary search over the retained part) */
  private indexAfter(after: bigint): number {
    let lo = this.head;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid].seq > after) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  private trim(): void {
    while (this.size > this.maxEvents || (this.bytes > this.maxBytes && this.size > 1)) {
      const e = this.entries[this.head];
      this.head++;
      this.bytes -= e.bytes;
      this.lost = e.seq;
    }
    // compact the array once the dropped prefix is large, so memory stays bounded
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries.splice(0, this.head);
      this.head = 0;
    }
  }
}

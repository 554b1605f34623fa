/**
 * Server-side cursors. The engine returns complete result arrays; a cursor hands them out in batches
 * (first batch 101 documents or batchSize, every batch under the BSON size limit) until getMore drains it.
 * A change stream cursor (tailable, awaitData) instead holds its stream and lives until it is killed,
 * invalidated or idle for too long.
 */
import { calculateObjectSize, type Document, Long } from "bson";
import type { ChangeStream } from "../changestream/stream";
import { CURSOR_IDLE_TIMEOUT_MS, DEFAULT_FIRST_BATCH_SIZE, MAX_BATCH_BYTES } from "./constants";
import { commandError } from "./errors";

interface Cursor {
  id: bigint;
  ns: string;
  docs: Document[];
  position: number;
  lastUsed: number;
  stream?: StreamCursor;
}

/** the state of a change stream cursor */
export interface StreamCursor {
  stream: ChangeStream;
  /** a getMore is waiting for changes on it */
  busy: boolean;
  /** wakes the waiting getMore (set while one waits) */
  wake?: () => void;
}

export interface CursorReply {
  cursor: { firstBatch?: Document[]; nextBatch?: Document[]; id: Long; ns: string };
  ok: 1;
}

/** Cursor ids as mongod sends them (int64); accepts number, Long or bigint from the client. */
export function toCursorId(value: unknown): bigint | undefined {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  if (value instanceof Long) return value.toBigInt();
  return undefined;
}

export class CursorManager {
  private readonly cursors = new Map<bigint, Cursor>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly idleTimeoutMs = CURSOR_IDLE_TIMEOUT_MS,
    sweepEveryMs = Math.min(60_000, idleTimeoutMs),
  ) {
    this.timer = setInterval(() => this.sweep(), sweepEveryMs);
    this.timer.unref();
  }

  get size(): number {
    return this.cursors.size;
  }

  /** Take the first batch from `docs`; opens a cursor when documents remain and singleBatch is not set. */
  open(ns: string, docs: Document[], batchSize: number | undefined, singleBatch = false): CursorReply {
    const first = takeBatch(docs, 0, batchSize ?? DEFAULT_FIRST_BATCH_SIZE);
    let id = 0n;
    if (!singleBatch && first.next < docs.length) {
      id = this.newId();
      this.cursors.set(id, { id, ns, docs, position: first.next, lastUsed: Date.now() });
    }
    return { cursor: { firstBatch: first.batch, id: Long.fromBigInt(id), ns }, ok: 1 };
  }

  /** Registers a change stream cursor; returns its id. */
  openStream(ns: string, stream: ChangeStream): bigint {
    const id = this.newId();
    this.cursors.set(id, {
      id,
      ns,
      docs: [],
      position: 0,
      lastUsed: Date.now(),
      stream: { stream, busy: false },
    });
    return id;
  }

  /** the change stream behind a cursor id, when it is one (and belongs to `ns`) */
  stream(id: bigint, ns: string): StreamCursor | undefined {
    const cursor = this.cursors.get(id);
    if (!cursor?.stream) return undefined;
    this.checkNs(cursor, ns);
    cursor.lastUsed = Date.now();
    return cursor.stream;
  }

  /** true while the cursor exists */
  has(id: bigint): boolean {
    return this.cursors.has(id);
  }

  /** Forgets a cursor (an invalidated change stream). */
  remove(id: bigint): void {
    this.drop(id);
  }

  /** getMore: next batch (as many as fit when batchSize is absent); the cursor closes when drained. */
  getMore(id: bigint, ns: string, batchSize: number | undefined): CursorReply {
    const cursor = this.cursors.get(id);
    if (!cursor) throw commandError(43, `cursor id ${id} not found`);
    this.checkNs(cursor, ns);
    const { batch, next } = takeBatch(cursor.docs, cursor.position, batchSize || Number.POSITIVE_INFINITY);
    cursor.position = next;
    cursor.lastUsed = Date.now();
    let replyId = id;
    if (next >= cursor.docs.length) {
      this.cursors.delete(id);
      replyId = 0n;
    }
    return { cursor: { nextBatch: batch, id: Long.fromBigInt(replyId), ns }, ok: 1 };
  }

  /** killCursors: ids that belonged to `ns` are killed, others reported as not found. */
  kill(ns: string, ids: bigint[]): { killed: bigint[]; notFound: bigint[] } {
    const killed: bigint[] = [];
    const notFound: bigint[] = [];
    for (const id of ids) {
      const cursor = this.cursors.get(id);
      if (cursor && cursor.ns === ns) {
        this.drop(id);
        killed.push(id);
      } else {
        notFound.push(id);
      }
    }
    return { killed, notFound };
  }

  /** Close cursors idle for longer than the timeout. */
  sweep(now = Date.now()): void {
    for (const [id, cursor] of this.cursors) {
      if (now - cursor.lastUsed > this.idleTimeoutMs && !cursor.stream?.busy) this.drop(id);
    }
  }

  close(): void {
    clearInterval(this.timer);
    for (const id of [...this.cursors.keys()]) this.drop(id);
  }

  private drop(id: bigint): void {
    const cursor = this.cursors.get(id);
    this.cursors.delete(id);
    cursor?.stream?.wake?.();
  }

  private checkNs(cursor: Cursor, ns: string): void {
    if (cursor.ns !== ns) {
      throw commandError(
        13,
        `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${cursor.ns}`,
      );
    }
  }

  private newId(): bigint {
    // positive, below 2^53 so that drivers decoding int64 as a JS number still round-trip it exactly
    for (;;) {
      const id = BigInt(Math.floor(Math.random() * 2 ** 52)) + 1n;
      if (!this.cursors.has(id)) return id;
    }
  }
}

function takeBatch(docs: Document[], start: number, max: number): { batch: Document[]; next: number } {
  const end = Math.min(docs.length, start + max);
  let bytes = 0;
  let i = start;
  for (; i < end; i++) {
    const size = calculateObjectSize(docs[i]);
    // always at least one document per batch (a single document is at most 16 MiB)
    if (bytes + size > MAX_BATCH_BYTES && i > start) break;
    bytes += size;
  }
  return { batch: docs.slice(start, i), next: i };
}

/**
 * The write-ahead log: records of acknowledged changes appended to journal.<gen>.wal in the data directory.
 *
 * Fsync policy: flush() writes the pending records with write() before a change is acknowledged, so an
 * acknowledged write survives the process being killed (kill -9) but not a power loss or an OS crash; with
 * `fsync` it also fsyncs the log first (each acknowledged batch costs a disk flush). A command's records (one per
 * document) go out in one write(), but SIGKILL can end a write() part-way, at a page boundary: a command in flight
 * can then come back in part (its whole records before the cut; recovery drops the cut one). Writes are atomic per
 * document, not per command, as in MongoDB without transactions.
 *
 * Generations: rotate() starts the next log file, so a compaction can fold everything before it into a snapshot
 * while writes go on (compaction.ts). Recovery replays the snapshot and then every log from the generation it
 * names, in order (recovery.ts).
 */
import fs from "node:fs";
import path from "node:path";
import type { Document } from "bson";
import { journalName, openPrivate } from "./datadir";
import { encodeRecord } from "./records";
import { StoreError } from "./types";

export interface WalPosition {
  /** the generation to append to */
  gen: number;
  /** intact bytes already in that log */
  logBytes: number;
  /** bytes in the logs after the snapshot, this one included */
  bytesSinceSnapshot: number;
}

export class WriteAheadLog {
  private fd: number;
  private gen: number;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** bytes in the current log file */
  private logBytes: number;
  /** bytes in the logs after the current snapshot (what a compaction would fold in) */
  bytesSinceSnapshot: number;

  /** Opens the log of `at.gen` for appending (recovery has cut any torn tail off it). */
  constructor(
    readonly dir: string,
    private readonly fsyncWrites: boolean,
    at: WalPosition,
  ) {
    this.gen = at.gen;
    this.logBytes = at.logBytes;
    this.bytesSinceSnapshot = at.bytesSinceSnapshot;
    this.fd = openPrivate(this.file(at.gen), "a");
  }

  private file(gen: number): string {
    return path.join(this.dir, journalName(gen));
  }

  /** Queues a record; it reaches the log at the next flush(). */
  append(rec: Document): void {
    const b = encodeRecord(rec);
    this.pending.push(b);
    this.pendingBytes += b.length;
  }

  /** Writes pending records to the log (and fsyncs when configured) — before the write is acknowledged. */
  flush(): void {
    if (this.pending.length === 0 || this.fd < 0) return;
    const buf = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    let off = 0;
    try {
      while (off < buf.length) off += fs.writeSync(this.fd, buf, off, buf.length - off);
      if (this.fsyncWrites) fs.fsyncSync(this.fd);
    } catch (e) {
      // never leave a partial record in the middle of the log: later records would be unreachable at recovery
      try {
        fs.ftruncateSync(this.fd, this.logBytes);
      } catch {
        // the torn tail is dropped at recovery anyway
      }
      throw new StoreError(
        14031,
        "OutOfDiskSpace",
        `Could not write the write-ahead log in ${this.dir}: ${(e as Error).message}`,
      );
    }
    this.logBytes += buf.length;
    this.bytesSinceSnapshot += buf.length;
  }

  /**
   * Begins the next log generation: every write from now on goes there (the current log is complete and stays
   * until a snapshot replaces it). Returns the new generation, the one the next snapshot names.
   */
  rotate(): number {
    this.flush();
    if (this.fsyncWrites) fs.fsyncSync(this.fd);
    const next = this.gen + 1;
    const fd = openPrivate(this.file(next), "w");
    fs.closeSync(this.fd);
    this.fd = fd;
    this.gen = next;
    this.logBytes = 0;
    return next;
  }

  /** A snapshot now precedes the current log: only its bytes remain to be folded in by the next compaction. */
  snapshotTaken(): void {
    this.bytesSinceSnapshot = this.logBytes;
  }

  close(): void {
    this.flush();
    if (this.fd >= 0) {
      if (this.fsyncWrites) fs.fsyncSync(this.fd);
      fs.closeSync(this.fd);
      this.fd = -1;
    }
  }
}

/**
 * Durable storage in a data directory, as the engine sees it: open (owner-only directory, lock, recovery), log
 * records and commit them before acknowledging, compact in the background, close.
 *
 * The parts: datadir.ts (file names, permissions, lock), records.ts (record framing), wal.ts (the write-ahead
 * log and its fsync policy), recovery.ts (snapshot + logs replay), compaction.ts (background snapshots).
 */
import type { Document } from "bson";
import { Compactor } from "./compaction";
import { lockDataDir, preparePrivateDir, tightenStoreFiles } from "./datadir";
import { recover } from "./recovery";
import { WriteAheadLog } from "./wal";

export interface StorageOptions {
  /** fsync the log before acknowledging (see wal.ts) */
  fsync?: boolean;
  /** compact once the logs after the snapshot exceed this many bytes (default DEFAULT_COMPACT_BYTES) */
  compactAfterBytes?: number;
}

export class Storage {
  private constructor(
    private readonly wal: WriteAheadLog,
    private readonly compactor: Compactor,
    private readonly unlock: () => void,
  ) {}

  /**
   * Opens `dir`: makes it owner-only, takes its lock (StoreError 98 when a live process holds it), replays its
   * records through `apply`, and opens the log. `capture` gives the full state when a compaction begins.
   */
  static open(
    dir: string,
    options: StorageOptions,
    apply: (rec: Document) => void,
    capture: () => Iterable<Document>,
  ): Storage {
    preparePrivateDir(dir);
    const unlock = lockDataDir(dir);
    try {
      tightenStoreFiles(dir);
      const wal = new WriteAheadLog(dir, options.fsync === true, recover(dir, apply));
      return new Storage(wal, new Compactor(wal, capture, options.compactAfterBytes), unlock);
    } catch (e) {
      unlock();
      throw e;
    }
  }

  append(rec: Document): void {
    this.wal.append(rec);
  }

  /** writes the log before acknowledging; compacts in the background when it has grown too large */
  commit(): void {
    this.wal.flush();
    this.compactor.maybeStart();
  }

  /** Resolves when a compaction under way has finished (tests, benchmarks). */
  compacted(): Promise<void> {
    return this.compactor.settled();
  }

  /** Stops compacting, flushes and closes the log, releases the lock. */
  async close(): Promise<void> {
    await this.compactor.stop();
    try {
      this.wal.close();
    } finally {
      this.unlock();
    }
  }
}

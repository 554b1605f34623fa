/**
 * Durable storage in a data directory: a lock file, a snapshot and a write-ahead log.
 *
 * Files in dbpath:
 *   mongod.lock           pid of the process that holds the directory
 *   snapshot.bson         full state as records (written to snapshot.tmp, fsynced, renamed); its header names
 *                         the log generation that follows it
 *   journal.<gen>.wal     records appended after the snapshot: its generation and, while a compaction is being
 *                         written (or when one was cut short), the next ones. Recovery replays the snapshot and
 *                         then every log from its generation on, in order.
 * Records are physical (whole documents, removals by _id), so replaying one that a snapshot already holds is
 * harmless.
 * Record framing: u32 LE payload length, u32 LE CRC32 of the payload, BSON payload. A record that is cut short
 * or fails its checksum ends the log (a torn tail from a crash) and is dropped at recovery.
 */
import fs from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import { type Document, deserialize, serialize } from "bson";
import { StoreError } from "./types";

const SNAPSHOT = "snapshot.bson";
const SNAPSHOT_TMP = "snapshot.tmp";
const LOCK = "mongod.lock";
const HEADER = 8;
const MAX_RECORD = 1024 * 1024 * 1024;
/** a snapshot is written this many records (or bytes) at a time, other work running in between */
const SNAPSHOT_SLICE_RECORDS = 2_000;
const SNAPSHOT_SLICE_BYTES = 4 * 1024 * 1024;

export function encodeRecord(rec: Document): Buffer {
  const payload = serialize(rec, { ignoreUndefined: true, checkKeys: false });
  const out = Buffer.allocUnsafe(HEADER + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(crc32(payload), 4);
  out.set(payload, HEADER);
  return out;
}

/** Reads framed records; stops at the first incomplete or corrupt one. Returns the records and the good length. */
export function readRecords(buf: Buffer): { records: Document[]; goodLength: number } {
  const records: Document[] = [];
  const goodLength = scanRecords(buf, 0, (r) => records.push(r));
  return { records, goodLength };
}

/** Calls onRecord for each complete, intact record in buf from offset; returns the offset after the last one. */
function scanRecords(buf: Buffer, offset: number, onRecord: (r: Document) => void): number {
  let off = offset;
  while (off + HEADER <= buf.length) {
    const len = buf.readUInt32LE(off);
    const crc = buf.readUInt32LE(off + 4);
    if (len < 5 || len > MAX_RECORD) break;
    if (off + HEADER + len > buf.length) break;
    const payload = buf.subarray(off + HEADER, off + HEADER + len);
    if (crc32(payload) !== crc) break;
    let rec: Document;
    try {
      rec = deserialize(payload);
    } catch {
      break;
    }
    onRecord(rec);
    off += HEADER + len;
  }
  return off;
}

/**
 * Streams the records of a file in chunks (files may exceed the largest Buffer). Returns the byte length of the
 * intact prefix; anything after it is a torn or corrupt tail.
 */
export function readRecordFile(
  file: string,
  onRecord: (r: Document) => void,
): { goodLength: number; size: number } {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    const CHUNK = 16 * 1024 * 1024;
    let carry = Buffer.alloc(0);
    let pos = 0;
    let good = 0;
    while (pos < size) {
      const want = Math.min(CHUNK, size - pos);
      const chunk = Buffer.allocUnsafe(want);
      const got = fs.readSync(fd, chunk, 0, want, pos);
      if (got <= 0) break;
      pos += got;
      const buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, got)]) : chunk.subarray(0, got);
      const used = scanRecords(buf, 0, onRecord);
      good += used;
      carry = buf.subarray(used);
      // a record that cannot be completed by more data is corrupt: stop
      if (carry.length >= HEADER) {
        const len = carry.readUInt32LE(0);
        const needed = HEADER + len;
        if (len < 5 || len > MAX_RECORD) break;
        if (carry.length >= needed) break; // complete but failed its checksum
      }
      if (carry.length > 0 && carry.length < CHUNK) carry = Buffer.from(carry);
    }
    return { goodLength: good, size };
  } finally {
    fs.closeSync(fd);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export class Storage {
  private fd = -1;
  private gen = 1;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** bytes in the current log file */
  private logBytes = 0;
  /** bytes in the logs after the current snapshot (what a compaction would fold in) */
  bytesSinceSnapshot = 0;
  private locked = false;

  constructor(
    readonly dir: string,
    private readonly fsyncWrites: boolean,
  ) {}

  private file(name: string): string {
    return path.join(this.dir, name);
  }

  private journalName(gen: number): string {
    return `journal.${gen}.wal`;
  }

  /** Takes the directory lock: fails when a live process holds it, takes over a stale one. */
  lock(): void {
    fs.mkdirSync(this.dir, { recursive: true });
    const lockPath = this.file(LOCK);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = fs.openSync(lockPath, "wx");
        fs.writeSync(fd, `${process.pid}\n`);
        fs.fsyncSync(fd);
        fs.closeSync(fd);
        this.locked = true;
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
      let pid = Number.NaN;
      try {
        pid = Number.parseInt(fs.readFileSync(lockPath, "utf8").trim(), 10);
      } catch {
        // vanished meanwhile: retry
      }
      if (Number.isInteger(pid) && pid > 0 && pidAlive(pid)) {
        throw new StoreError(
          98,
          "DBPathInUse",
          `Unable to lock the data directory ${this.dir}: it is in use by another process (pid ${pid}, lock file ${lockPath}). Stop that process or use another directory.`,
        );
      }
      // stale lock of a dead process (or an empty/garbled one): take it over
      try {
        fs.unlinkSync(lockPath);
      } catch {
        // someone else removed it
      }
    }
    throw new StoreError(
      98,
      "DBPathInUse",
      `Unable to lock the data directory ${this.dir} (lock file ${lockPath})`,
    );
  }

  /** Replays snapshot + log records through `apply` for recovery, then opens the log for appending. */
  recover(apply: (rec: Document) => void): void {
    try {
      fs.unlinkSync(this.file(SNAPSHOT_TMP));
    } catch {
      // none
    }
    let gen = 1;
    if (fs.existsSync(this.file(SNAPSHOT))) {
      let first = true;
      let ended = false;
      readRecordFile(this.file(SNAPSHOT), (rec) => {
        if (first) {
          first = false;
          if (rec.o !== "hdr") throw this.corrupt();
          gen = Number(rec.gen);
          return;
        }
        if (rec.o === "end") {
          ended = true;
          return;
        }
        apply(rec);
      });
      if (first || !ended) throw this.corrupt();
    }
    // the logs after the snapshot, in order; a torn tail ends the history (nothing after it can follow it)
    let last = gen;
    this.bytesSinceSnapshot = 0;
    for (let g = gen; fs.existsSync(this.file(this.journalName(g))); g++) {
      const journal = this.file(this.journalName(g));
      const { goodLength, size } = readRecordFile(journal, apply);
      last = g;
      this.logBytes = goodLength;
      this.bytesSinceSnapshot += goodLength;
      if (goodLength < size) {
        fs.truncateSync(journal, goodLength); // drop the torn tail
        break;
      }
    }
    for (const f of fs.readdirSync(this.dir)) {
      const m = /^journal\.(\d+)\.wal$/.exec(f);
      if (m && (Number(m[1]) < gen || Number(m[1]) > last)) fs.unlinkSync(this.file(f));
    }
    this.gen = last;
    this.fd = fs.openSync(this.file(this.journalName(last)), "a");
  }

  private corrupt(): StoreError {
    return new StoreError(
      14,
      "DataCorruptionDetected",
      `The snapshot ${this.file(SNAPSHOT)} is incomplete or corrupt; the data directory cannot be opened`,
    );
  }

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
    const fd = fs.openSync(this.file(this.journalName(next)), "w");
    fs.closeSync(this.fd);
    this.fd = fd;
    this.gen = next;
    this.logBytes = 0;
    return next;
  }

  /**
   * Writes the snapshot that log generation `gen` follows (made by rotate(); `state` is the full state at that
   * moment) a slice at a time, so other work runs in between; then makes it current (fsynced, renamed) and
   * removes the logs it replaces. Returns false, changing nothing, when `stop()` says so between slices.
   */
  async writeSnapshot(gen: number, state: Iterable<Document>, stop: () => boolean): Promise<boolean> {
    const tmp = this.file(SNAPSHOT_TMP);
    const fh = await fs.promises.open(tmp, "w");
    let written = false;
    try {
      let chunk: Buffer[] = [];
      let size = 0;
      let records = 0;
      const put = (rec: Document) => {
        const b = encodeRecord(rec);
        chunk.push(b);
        size += b.length;
      };
      const write = async () => {
        if (size === 0) return;
        const buf = Buffer.concat(chunk, size);
        chunk = [];
        size = 0;
        await fh.write(buf);
      };
      put({ o: "hdr", gen, v: 1 });
      for (const rec of state) {
        put(rec);
        if (++records % SNAPSHOT_SLICE_RECORDS === 0 || size > SNAPSHOT_SLICE_BYTES) {
          await write();
          if (stop()) return false;
        }
      }
      put({ o: "end" });
      await write();
      await fh.sync();
      written = true;
    } finally {
      await fh.close();
      if (!written) await fs.promises.rm(tmp, { force: true });
    }
    fs.renameSync(tmp, this.file(SNAPSHOT));
    this.syncDir();
    for (const f of fs.readdirSync(this.dir)) {
      const m = /^journal\.(\d+)\.wal$/.exec(f);
      if (m && Number(m[1]) < gen) fs.unlinkSync(this.file(f));
    }
    // one compaction at a time: the current log is generation `gen`, the only one after the new snapshot
    this.bytesSinceSnapshot = this.logBytes;
    return true;
  }

  private syncDir(): void {
    try {
      const d = fs.openSync(this.dir, "r");
      fs.fsyncSync(d);
      fs.closeSync(d);
    } catch {
      // not supported on every platform
    }
  }

  close(): void {
    this.flush();
    if (this.fd >= 0) {
      if (this.fsyncWrites) fs.fsyncSync(this.fd);
      fs.closeSync(this.fd);
      this.fd = -1;
    }
    if (this.locked) {
      try {
        fs.unlinkSync(this.file(LOCK));
      } catch {
        // already removed
      }
      this.locked = false;
    }
  }
}

/**
 * Compaction: folds the write-ahead logs into a new snapshot without stopping the store.
 *
 * The state is captured at once (documents are never modified in place: an update stores a new object, so the
 * captured references stay a view of this moment), writes go on into a new log generation, and the snapshot is
 * written a slice at a time between other work. Until it is renamed into place, the previous snapshot and every
 * log after it still recover everything; a failure leaves them and compaction is tried again later. Once it is in
 * place, the logs before its generation are removed.
 */
import fs from "node:fs";
import path from "node:path";
import type { Document } from "bson";
import type { Catalog } from "./catalog";
import { FILE_MODE, journalGen, SNAPSHOT, SNAPSHOT_TMP, syncDir } from "./datadir";
import { encodeRecord } from "./records";
import type { WriteAheadLog } from "./wal";

/** compact once the logs after the snapshot hold this many bytes (EngineOptions.compactAfterBytes) */
export const DEFAULT_COMPACT_BYTES = 64 * 1024 * 1024;
/** a snapshot is written this many records (or bytes) at a time, other work running in between */
export const SNAPSHOT_SLICE_RECORDS = 2_000;
export const SNAPSHOT_SLICE_BYTES = 4 * 1024 * 1024;

/** The full state as snapshot records, as of now (see the top of this file). */
export function captureState(catalog: Catalog): Iterable<Document> {
  const colls = [...catalog.dbs].flatMap(([db, m]) =>
    [...m.values()].map((c) => ({
      db,
      head: [
        { o: "cc", db, c: c.name, opts: c.options, uuid: c.uuid },
        ...[...c.indexes.values()]
          .filter((i) => !i.isId)
          .map((i) => ({ o: "ci", db, c: c.name, spec: i.spec })),
      ],
      name: c.name,
      docs: [...c.docs.values()],
    })),
  );
  return (function* () {
    for (const c of colls) {
      yield* c.head;
      for (const d of c.docs) yield { o: "i", db: c.db, c: c.name, d };
    }
  })();
}

/**
 * Writes the snapshot that log generation `gen` follows (`state` is the full state when that log began) a slice
 * at a time, so other work runs in between; then makes it current (fsynced, renamed) and removes the logs it
 * replaces. Returns false, changing nothing, when `stop()` says so between slices.
 */
export async function writeSnapshot(
  dir: string,
  gen: number,
  state: Iterable<Document>,
  stop: () => boolean,
): Promise<boolean> {
  const tmp = path.join(dir, SNAPSHOT_TMP);
  const fh = await fs.promises.open(tmp, "w", FILE_MODE);
  let written = false;
  try {
    await fh.chmod(FILE_MODE); // a leftover file keeps its mode on "w"
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
  fs.renameSync(tmp, path.join(dir, SNAPSHOT));
  syncDir(dir);
  for (const f of fs.readdirSync(dir)) {
    const g = journalGen(f);
    if (g !== undefined && g < gen) fs.unlinkSync(path.join(dir, f));
  }
  return true;
}

/** Starts a compaction when the logs have grown past the threshold, one at a time. */
export class Compactor {
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly wal: WriteAheadLog,
    private readonly capture: () => Iterable<Document>,
    private readonly thresholdBytes = DEFAULT_COMPACT_BYTES,
  ) {}

  /** After each commit: compacts in the background when the logs have grown too large. */
  maybeStart(): void {
    if (this.running || this.stopped || this.wal.bytesSinceSnapshot <= this.thresholdBytes) return;
    this.running = this.run().finally(() => {
      this.running = null;
    });
  }

  private async run(): Promise<void> {
    const state = this.capture();
    try {
      const gen = this.wal.rotate();
      // one compaction at a time: the current log is generation `gen`, the only one after the new snapshot
      if (await writeSnapshot(this.wal.dir, gen, state, () => this.stopped)) this.wal.snapshotTaken();
    } catch (e) {
      process.emitWarning(
        `embedded store: compaction failed, the log is kept and compaction tried again later: ${(e as Error).message}`,
      );
    }
  }

  /** Resolves when a compaction under way has finished (tests, benchmarks). */
  async settled(): Promise<void> {
    await this.running;
  }

  /** No more compactions; one under way stops at its next slice (the logs keep what it had not folded in). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}

/**
 * Recovery: rebuilds the catalog from the data directory. The snapshot (when there is one) first, then every
 * write-ahead log from the generation its header names, in order. A torn or corrupt tail ends the history: it is
 * cut off the log (and any later log, which cannot follow it, is removed), so what was acknowledged before the
 * crash comes back and the log can be appended to again. A partial snapshot.tmp from a compaction cut short is
 * removed; the previous snapshot and its logs still hold everything.
 */
import fs from "node:fs";
import path from "node:path";
import type { Document } from "bson";
import type { Catalog } from "./catalog";
import { docSize } from "./catalog";
import { journalGen, journalName, SNAPSHOT, SNAPSHOT_TMP } from "./datadir";
import { readRecordFile } from "./records";
import { type IndexSpec, StoreError } from "./types";
import type { WalPosition } from "./wal";

function corrupt(file: string): StoreError {
  return new StoreError(
    14,
    "DataCorruptionDetected",
    `The snapshot ${file} is incomplete or corrupt; the data directory cannot be opened`,
  );
}

/** Replays snapshot + log records of `dir` through `apply`; returns where the log goes on. */
export function recover(dir: string, apply: (rec: Document) => void): WalPosition {
  fs.rmSync(path.join(dir, SNAPSHOT_TMP), { force: true });
  let gen = 1;
  const snapshot = path.join(dir, SNAPSHOT);
  if (fs.existsSync(snapshot)) {
    let first = true;
    let ended = false;
    readRecordFile(snapshot, (rec) => {
      if (first) {
        first = false;
        if (rec.o !== "hdr") throw corrupt(snapshot);
        gen = Number(rec.gen);
        return;
      }
      if (rec.o === "end") {
        ended = true;
        return;
      }
      apply(rec);
    });
    if (first || !ended) throw corrupt(snapshot);
  }
  // the logs after the snapshot, in order; a torn tail ends the history (nothing after it can follow it)
  let last = gen;
  let logBytes = 0;
  let bytesSinceSnapshot = 0;
  for (let g = gen; fs.existsSync(path.join(dir, journalName(g))); g++) {
    const journal = path.join(dir, journalName(g));
    const { goodLength, size } = readRecordFile(journal, apply);
    last = g;
    logBytes = goodLength;
    bytesSinceSnapshot += goodLength;
    if (goodLength < size) {
      fs.truncateSync(journal, goodLength); // drop the torn tail
      break;
    }
  }
  for (const f of fs.readdirSync(dir)) {
    const g = journalGen(f);
    if (g !== undefined && (g < gen || g > last)) fs.unlinkSync(path.join(dir, f));
  }
  return { gen: last, logBytes, bytesSinceSnapshot };
}

/** Applies one snapshot or log record to the catalog (recovery only: records are known to be valid). */
export function applyRecord(catalog: Catalog, rec: Document): void {
  const db = rec.db as string;
  const name = rec.c as string;
  switch (rec.o) {
    case "cc":
      if (!catalog.coll(db, name)) catalog.newCollection(db, name, (rec.opts as Document) ?? {}, rec.uuid);
      return;
    case "dc":
      catalog.dbs.get(db)?.delete(name);
      return;
    case "dd":
      catalog.dbs.delete(db);
      return;
    case "ci": {
      const c = catalog.coll(db, name) ?? catalog.newCollection(db, name, {});
      const spec = rec.spec as IndexSpec;
      if (!c.indexes.has(spec.name)) c.addIndex(spec);
      return;
    }
    case "di":
      catalog.coll(db, name)?.indexes.delete(rec.name as string);
      return;
    case "i":
    case "u": {
      const c = catalog.coll(db, name) ?? catalog.newCollection(db, name, {});
      const d = rec.d as Document;
      const old = c.getById(d._id);
      if (old) c.replace(old, d, docSize(d) - docSize(old));
      else c.insert(d, docSize(d));
      return;
    }
    case "r": {
      const c = catalog.coll(db, name);
      const old = c?.getById(rec.id);
      if (c && old) c.remove(old, docSize(old));
      return;
    }
    case "clr":
      catalog.coll(db, name)?.clear();
      return;
    case "rn": {
      const c = catalog.coll(db, name);
      if (!c) return;
      catalog.dbs.get(db)?.delete(name);
      catalog.dbs.get(rec.toDb as string)?.delete(rec.to as string);
      c.db = rec.toDb as string;
      c.name = rec.to as string;
      catalog.database(c.db).set(c.name, c);
      return;
    }
  }
}

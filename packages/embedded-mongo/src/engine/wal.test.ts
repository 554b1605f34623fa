/** The write-ahead log: acknowledged writes reach it (with fsync when asked), generations follow each other. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRecordFile } from "./records";
import { useDataDir } from "./testkit";
import { WriteAheadLog } from "./wal";

describe("write-ahead log", () => {
  const data = useDataDir();

  it("should fsync acknowledged writes when asked and read them back", async () => {
    const e = await data.open({ fsync: true });
    await e.insert("db", "c", [{ _id: "a" }], true);
    await e.findAndModify("db", "c", { query: { _id: "b" }, update: { $set: { v: 1 } }, upsert: true });
    await e.close();
    const r = await data.open();
    expect(r.find("db", "c", { filter: {} })).toEqual([{ _id: "a" }, { _id: "b", v: 1 }]);
  });

  it("should write appended records only at flush, and go on in the next generation after rotate", () => {
    const wal = new WriteAheadLog(data.dir, false, { gen: 1, logBytes: 0, bytesSinceSnapshot: 0 });
    const records = (gen: number) => {
      const out: unknown[] = [];
      readRecordFile(path.join(data.dir, `journal.${gen}.wal`), (r) => out.push(r.d));
      return out;
    };
    try {
      wal.append({ o: "i", db: "db", c: "c", d: 1 });
      expect(records(1)).toEqual([]);
      wal.flush();
      expect(records(1)).toEqual([1]);
      const before = wal.bytesSinceSnapshot;
      expect(before).toBe(fs.statSync(path.join(data.dir, "journal.1.wal")).size);
      wal.append({ o: "i", db: "db", c: "c", d: 2 });
      expect(wal.rotate()).toBe(2);
      wal.append({ o: "i", db: "db", c: "c", d: 3 });
      wal.flush();
      expect(records(1)).toEqual([1, 2]);
      expect(records(2)).toEqual([3]);
      // everything after the snapshot counts until a snapshot is taken; then only the current log
      expect(wal.bytesSinceSnapshot).toBe(
        fs.statSync(path.join(data.dir, "journal.1.wal")).size +
          fs.statSync(path.join(data.dir, "journal.2.wal")).size,
      );
      wal.snapshotTaken();
      expect(wal.bytesSinceSnapshot).toBe(fs.statSync(path.join(data.dir, "journal.2.wal")).size);
    } finally {
      wal.close();
    }
  });
});

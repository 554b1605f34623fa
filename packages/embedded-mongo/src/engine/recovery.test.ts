/** Recovery: snapshot + logs replayed; torn or corrupt tails and compactions cut short. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { encodeRecord } from "./records";
import { useDataDir } from "./testkit";
import { StoreError } from "./types";

describe("recovery", () => {
  const data = useDataDir();

  it("should ignore a torn record at the end of the log and keep appending after it", async () => {
    const e = await data.open();
    await e.insert("db", "c", [{ _id: 1 }, { _id: 2 }], true);
    await e.close();
    // a crash in the middle of writing a record: a header promising more bytes than were written
    const torn = Buffer.alloc(20);
    torn.writeUInt32LE(500, 0);
    torn.writeUInt32LE(12345, 4);
    fs.appendFileSync(data.journal(), torn);
    const r = await data.open();
    expect(r.find("db", "c", { filter: {} }).map((d) => d._id)).toEqual([1, 2]);
    await r.insert("db", "c", [{ _id: 3 }], true);
    await r.close();
    const r2 = await data.open();
    expect(r2.find("db", "c", { filter: {} }).map((d) => d._id)).toEqual([1, 2, 3]);
  });

  it("should bring back a batch cut short by a kill mid-write() as the intact prefix of its records", async () => {
    // A multi-document write is one write() of one record per document; SIGKILL can end that write() at any page
    // boundary (CI saw 5 of an insertMany's 50 documents come back). That batch was never acknowledged, and, as in
    // MongoDB, insertMany is not atomic: its whole records come back, in order, never a half document or a hole,
    // and every write acknowledged before it is kept.
    const e = await data.open();
    await e.insert("db", "c", [{ _id: 0 }, { _id: 1 }, { _id: 2 }], true);
    await e.close();
    const acked = fs.readFileSync(data.journal());
    const r0 = await data.open();
    const pad = "p".repeat(1500);
    await r0.insert(
      "db",
      "c",
      [3, 4, 5, 6, 7].map((i) => ({ _id: i, pad })),
      true,
    );
    await r0.close();
    const full = fs.readFileSync(data.journal());
    // the record boundaries of the second batch: where a crash between records falls
    const ends: number[] = [];
    for (let off = acked.length; off < full.length; ) {
      off += 8 + full.readUInt32LE(off);
      ends.push(off);
    }
    expect(ends.length).toBe(5);
    const page = Math.ceil(acked.length / 4096) * 4096; // where the kernel stops a write() on a fatal signal
    const cuts = [acked.length, ...ends.flatMap((b) => [b - 1, b, b + 1]), page, page + 4096];
    for (const cut of cuts.filter((c) => c >= acked.length && c < full.length)) {
      fs.writeFileSync(data.journal(), full.subarray(0, cut));
      const whole = ends.filter((b) => b <= cut).length;
      const r = await data.open();
      const ids = r.find("db", "c", { filter: {} }).map((d) => d._id);
      expect(ids, `cut at ${cut}`).toEqual([0, 1, 2, 3, 4, 5, 6, 7].slice(0, 3 + whole));
      expect(r.find("db", "c", { filter: { _id: { $gte: 3 } } }).every((d) => d.pad === pad)).toBe(true);
      // the torn record is cut off, so what is acknowledged next is reachable after it
      await r.insert("db", "c", [{ _id: "next" }], true);
      await r.close();
      const again = await data.open();
      expect(again.count("db", "c"), `cut at ${cut}`).toBe(3 + whole + 1);
      await again.close();
    }
  });

  it("should drop a record whose checksum does not match", async () => {
    const e = await data.open();
    await e.insert("db", "c", [{ _id: 1 }], true);
    await e.insert("db", "c", [{ _id: 2, v: "abcdef" }], true);
    await e.close();
    const buf = fs.readFileSync(data.journal());
    const i = buf.lastIndexOf(Buffer.from("abcdef"));
    buf[i] = "x".charCodeAt(0);
    fs.writeFileSync(data.journal(), buf);
    const r = await data.open();
    expect(r.find("db", "c", { filter: {} }).map((d) => d._id)).toEqual([1]);
  });

  it("should recover a compaction cut short: old snapshot, its log and the next log, no partial snapshot", async () => {
    const e = await data.open();
    await e.insert("db", "c", [{ _id: 1 }, { _id: 2 }], true);
    await e.close();
    // a crash mid-compaction leaves a partial snapshot.tmp and the next log generation, with the writes
    // acknowledged after the compaction began; a log that does not follow on is not part of the history
    fs.writeFileSync(path.join(data.dir, "snapshot.tmp"), Buffer.from("partial"));
    fs.writeFileSync(
      path.join(data.dir, "journal.2.wal"),
      Buffer.concat([
        encodeRecord({ o: "i", db: "db", c: "c", d: { _id: 3 } }),
        encodeRecord({ o: "r", db: "db", c: "c", id: 1 }),
      ]),
    );
    fs.writeFileSync(
      path.join(data.dir, "journal.4.wal"),
      encodeRecord({ o: "i", db: "db", c: "c", d: { _id: 4 } }),
    );
    const r = await data.open();
    expect(r.find("db", "c", { filter: {} }).map((d) => d._id)).toEqual([2, 3]);
    expect(fs.readdirSync(data.dir).sort()).toEqual(["journal.1.wal", "journal.2.wal", "mongod.lock"]);
    // and the next write goes to the newest log
    await r.insert("db", "c", [{ _id: 5 }], true);
    await r.close();
    const again = await data.open();
    expect(again.find("db", "c", { filter: {} }).map((d) => d._id)).toEqual([2, 3, 5]);
  });

  it("should refuse a snapshot without its end record, naming the file", async () => {
    fs.writeFileSync(
      path.join(data.dir, "snapshot.bson"),
      Buffer.concat([
        encodeRecord({ o: "hdr", gen: 1, v: 1 }),
        encodeRecord({ o: "i", db: "db", c: "c", d: { _id: 1 } }),
      ]),
    );
    const err = await data.open().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe(14);
    expect((err as StoreError).message).toContain("snapshot.bson");
    // the lock is released: the directory can be opened once the snapshot is dealt with
    fs.rmSync(path.join(data.dir, "snapshot.bson"));
    expect((await data.open()).count("db", "c")).toBe(0);
  });
});

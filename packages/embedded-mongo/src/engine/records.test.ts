/** Record framing: what a reader accepts and where it stops. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ObjectId } from "bson";
import { describe, expect, it } from "vitest";
import { encodeRecord, readRecordFile, readRecords } from "./records";

describe("records", () => {
  const a = { o: "i", db: "db", c: "c", d: { _id: new ObjectId(), s: "å" } };
  const b = { o: "r", db: "db", c: "c", id: 7 };

  it("should read back what it encoded, bson types included", () => {
    const buf = Buffer.concat([encodeRecord(a), encodeRecord(b)]);
    const { records, goodLength } = readRecords(buf);
    expect(records).toEqual([a, b]);
    expect(goodLength).toBe(buf.length);
  });

  it("should stop at a record cut short and report the intact prefix", () => {
    const first = encodeRecord(a);
    const buf = Buffer.concat([first, encodeRecord(b).subarray(0, 10)]);
    expect(readRecords(buf)).toEqual({ records: [a], goodLength: first.length });
  });

  it("should stop at a record whose checksum does not match", () => {
    const first = encodeRecord(a);
    const second = encodeRecord(b);
    second[second.length - 2] ^= 0xff;
    const buf = Buffer.concat([first, second, encodeRecord(a)]);
    expect(readRecords(buf)).toEqual({ records: [a], goodLength: first.length });
  });

  it("should stream a file the same way and give its size", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "records-")), "f.wal");
    try {
      const good = Buffer.concat([encodeRecord(a), encodeRecord(b)]);
      fs.writeFileSync(file, Buffer.concat([good, Buffer.from([1, 2, 3])]));
      const seen: unknown[] = [];
      expect(readRecordFile(file, (r) => seen.push(r))).toEqual({
        goodLength: good.length,
        size: good.length + 3,
      });
      expect(seen).toEqual([a, b]);
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});

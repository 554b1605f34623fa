/**
 * Record framing shared by the write-ahead log and the snapshot: u32 LE payload length, u32 LE CRC32 of the
 * payload, BSON payload. A record that is cut short or fails its checksum ends a file (a torn tail from a crash):
 * readers stop there and report how long the intact prefix is.
 *
 * Records are physical (whole documents, removals by _id), so replaying one that a snapshot already holds is
 * harmless. Their shapes (field `o`): cc/dc create/drop collection, dd drop database, ci/di create/drop index,
 * i/u insert/replace a document, r remove by _id, clr empty a collection, rn rename; in a snapshot also hdr
 * (first: the log generation that follows it) and end (last: the snapshot is complete).
 */
import fs from "node:fs";
import { crc32 } from "node:zlib";
import { type Document, deserialize, serialize } from "bson";

const HEADER = 8;
const MAX_RECORD = 1024 * 1024 * 1024;
/** files are read this many bytes at a time (they may exceed the largest Buffer) */
const READ_CHUNK = 16 * 1024 * 1024;

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
    let carry = Buffer.alloc(0);
    let pos = 0;
    let good = 0;
    while (pos < size) {
      const want = Math.min(READ_CHUNK, size - pos);
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
      if (carry.length > 0 && carry.length < READ_CHUNK) carry = Buffer.from(carry);
    }
    return { goodLength: good, size };
  } finally {
    fs.closeSync(fd);
  }
}

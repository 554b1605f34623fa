/**
 * The file a persisted index lives in: written atomically (a temporary file beside it, then a rename, so a
 * reader or a second process writing at the same time only ever sees a whole file), read back only when it is
 * whole and was written by the same code.
 *
 * Layout: the line `vidensbank-search-index`, one line of JSON header (the format key, the caller's metadata,
 * the length of each section and a CRC-32 of all of them), then the sections: little-endian Int32 and Float32
 * arrays, a text (Latin-1 when it has no other character, else UTF-8; the caller slices it, so its parts share
 * its memory) and the JSON, written as Latin-1 with every other character \u-escaped (decoded byte for byte,
 * several times faster than UTF-8). Nothing is parsed before the CRC-32 of the sections matched (it
 * guards against a damaged file, not an attacker: whoever can write DATA_DIR can write any index there). Anything that
 * does not fit (truncated, garbage, another format, too large) is refused with a reason; the caller then builds
 * the index from the store as on a first start.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import zlib from "node:zlib";

const MAGIC = "vidensbank-search-index\n";
/** A persisted index larger than this is neither written nor read (20,000 articles take ~150 MB). */
export const MAX_SNAPSHOT_BYTES = 1024 * 1024 * 1024;
const MAX_HEADER_BYTES = 64 * 1024;

export interface SnapshotFile<M> {
  /** who wrote it: must equal the reader's key (search.persist.ts indexFormatKey()) */
  key: string;
  /** the caller's small metadata (stored in the header: readable without the sections) */
  meta: M;
  json: unknown;
  ints: Int32Array;
  floats: Float32Array;
  /** one long text the JSON refers into (the articles' contents) */
  text: string;
}

interface Header<M> {
  key: string;
  meta: M;
  ints: number;
  floats: number;
  text: number;
  textLatin1: boolean;
  json: number;
  /** CRC-32 of the sections, one after another */
  crc32: number;
}

/** JSON text with every character above U+00FF \u-escaped: one byte per character as Latin-1. */
function latin1Json(value: unknown): Buffer {
  const text = JSON.stringify(value).replace(
    /[\u0100-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return Buffer.from(text, "latin1");
}

/** CRC-32 of the sections one after another (an empty one is skipped: zlib.crc32 of nothing answers 0). */
function crc32Of(sections: Uint8Array[]): number {
  return sections.reduce((crc, b) => (b.length > 0 ? zlib.crc32(b, crc) : crc), 0);
}

function bytesOf(a: Int32Array | Float32Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/**
 * Writes the file atomically. Resolves to the bytes written, or rejects (too large, disk full...) leaving
 * any earlier file as it was.
 */
export async function writeSnapshotFile<M>(file: string, s: SnapshotFile<M>): Promise<number> {
  if (os.endianness() !== "LE") throw new Error("persisted index: only little-endian machines");
  const json = latin1Json(s.json);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the point
  const textLatin1 = !/[^\u0000-\u00ff]/.test(s.text);
  const text = Buffer.from(s.text, textLatin1 ? "latin1" : "utf8");
  const sections = [bytesOf(s.ints), bytesOf(s.floats), text, json];
  const crc32 = crc32Of(sections);
  const header: Header<M> = {
    key: s.key,
    meta: s.meta,
    ints: s.ints.byteLength,
    floats: s.floats.byteLength,
    text: text.length,
    textLatin1,
    json: json.length,
    crc32,
  };
  const head = Buffer.from(`${MAGIC}${JSON.stringify(header)}\n`, "utf8");
  const total = head.length + sections.reduce((n, b) => n + b.length, 0);
  if (head.length > MAX_HEADER_BYTES || total > MAX_SNAPSHOT_BYTES)
    throw new Error(`persisted index too large (${total} bytes)`);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    const handle = await fs.promises.open(tmp, "w", 0o600);
    try {
      await handle.writev([head, ...sections]);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
  return total;
}

export type ReadResult<M> = { ok: true; file: SnapshotFile<M> } | { ok: false; reason: string };

/** Reads exactly `into.byteLength` bytes at `position` (a short read means the file changed under us). */
async function readFully(handle: fs.promises.FileHandle, into: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < into.length) {
    const { bytesRead } = await handle.read(into, done, into.length - done, position + done);
    if (bytesRead === 0) throw new Error("file ends early");
    done += bytesRead;
  }
}

/**
 * Reads the file if it exists, is whole and has `key`; otherwise says why not. Never throws.
 *
 * Each section is read straight into memory of its own (the typed arrays aligned as they are used, so nothing
 * is copied after the read and the index keeps no part of a file-sized buffer alive), and their CRC-32 is
 * checked before anything is parsed: ~20 ms for 85 MB here, where a SHA-1 took 60–290 ms (createHash) and
 * WebCrypto's digest ~0.4 s of the main thread (it copies its input before hashing in the thread pool).
 */
export async function readSnapshotFile<M>(file: string, key: string): Promise<ReadResult<M>> {
  let handle: fs.promises.FileHandle | null = null;
  try {
    handle = await fs.promises.open(file, "r").catch(() => null);
    if (!handle) return { ok: false, reason: "no persisted index" };
    // the open handle reads one file to its end even if a writer renames a new one over it meanwhile
    const { size } = await handle.stat();
    if (size > MAX_SNAPSHOT_BYTES) return { ok: false, reason: "persisted index too large" };
    const head = Buffer.alloc(Math.min(size, MAGIC.length + MAX_HEADER_BYTES + 1));
    await readFully(handle, head, 0);
    if (head.subarray(0, MAGIC.length).toString("utf8") !== MAGIC)
      return { ok: false, reason: "not an index" };
    const end = head.indexOf(10, MAGIC.length);
    if (end < 0) return { ok: false, reason: "bad header" };
    const header = JSON.parse(head.subarray(MAGIC.length, end).toString("utf8")) as Header<M>;
    if (header?.key !== key) return { ok: false, reason: "built by other code (format key differs)" };
    const sizes = [header.ints, header.floats, header.text, header.json];
    if (!sizes.every((n) => Number.isSafeInteger(n) && n >= 0) || header.ints % 4 || header.floats % 4)
      return { ok: false, reason: "bad header" };
    const start = end + 1;
    if (start + sizes.reduce((a, b) => a + b, 0) !== size)
      return { ok: false, reason: "truncated or overlong" };
    const ints = new Int32Array(header.ints / 4);
    const floats = new Float32Array(header.floats / 4);
    const textBytes = Buffer.allocUnsafe(header.text);
    const jsonBytes = Buffer.allocUnsafe(header.json);
    const sections = [ints, floats, textBytes, jsonBytes].map(
      (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
    );
    let at = start;
    await Promise.all(
      sections.map((bytes) => {
        const position = at;
        at += bytes.length;
        return readFully(handle as fs.promises.FileHandle, bytes, position);
      }),
    );
    performance.mark("search-index:read");
    if (crc32Of(sections) !== header.crc32) return { ok: false, reason: "checksum differs" };
    performance.mark("search-index:checksum");
    const json = JSON.parse(jsonBytes.toString("latin1"));
    const text = textBytes.toString(header.textLatin1 === true ? "latin1" : "utf8");
    performance.mark("search-index:parsed");
    return { ok: true, file: { key, meta: header.meta, json, ints, floats, text } };
  } catch (err) {
    return { ok: false, reason: `unreadable: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * The file a persisted index lives in: written atomically (a temporary file beside it, then a rename, so a
 * reader or a second process writing at the same time only ever sees a whole file), read back only when it is
 * whole and was written by the same code.
 *
 * Layout: the line `vidensbank-search-index`, one line of JSON header (the format key, the caller's metadata,
 * the length of each section and a SHA-1 of all of them), then the sections: little-endian Int32 and Float32
 * arrays, a text (Latin-1 when it has no other character, else UTF-8; the caller slices it, so its parts share
 * its memory) and the JSON, written as Latin-1 with every other character \u-escaped (decoded byte for byte,
 * several times faster than UTF-8). The SHA-1 is worked out in the thread pool while the JSON is parsed;
 * nothing read is returned before it matched. Anything that does not fit (truncated, garbage, another format, too large) is refused with a
 * reason; the caller then builds the index from the store as on a first start.
 */
import { createHash, randomBytes, webcrypto } from "node:crypto";
import fs from "node:fs";
import os from "node:os";

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
  sha1: string;
}

/** JSON text with every character above U+00FF \u-escaped: one byte per character as Latin-1. */
function latin1Json(value: unknown): Buffer {
  const text = JSON.stringify(value).replace(
    /[\u0100-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return Buffer.from(text, "latin1");
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
  const sha1 = createHash("sha1");
  for (const b of sections) sha1.update(b);
  const header: Header<M> = {
    key: s.key,
    meta: s.meta,
    ints: s.ints.byteLength,
    floats: s.floats.byteLength,
    text: text.length,
    textLatin1,
    json: json.length,
    sha1: sha1.digest("hex"),
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

/** Reads the file if it exists, is whole and has `key`; otherwise says why not. Never throws. */
export async function readSnapshotFile<M>(file: string, key: string): Promise<ReadResult<M>> {
  try {
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat) return { ok: false, reason: "no persisted index" };
    if (stat.size > MAX_SNAPSHOT_BYTES) return { ok: false, reason: "persisted index too large" };
    const buf = await fs.promises.readFile(file);
    performance.mark("search-index:read");
    if (buf.subarray(0, MAGIC.length).toString("utf8") !== MAGIC)
      return { ok: false, reason: "not an index" };
    const end = buf.indexOf(10, MAGIC.length);
    if (end < 0 || end - MAGIC.length > MAX_HEADER_BYTES) return { ok: false, reason: "bad header" };
    const header = JSON.parse(buf.subarray(MAGIC.length, end).toString("utf8")) as Header<M>;
    if (header?.key !== key) return { ok: false, reason: "built by other code (format key differs)" };
    const sizes = [header.ints, header.floats, header.text, header.json];
    if (!sizes.every((n) => Number.isSafeInteger(n) && n >= 0) || header.ints % 4 || header.floats % 4)
      return { ok: false, reason: "bad header" };
    const start = end + 1;
    if (start + sizes.reduce((a, b) => a + b, 0) !== buf.length)
      return { ok: false, reason: "truncated or overlong" };
    // the checksum in the thread pool while this thread parses; nothing parsed is used before it matched
    const digest = webcrypto.subtle.digest("SHA-1", buf.subarray(start));
    const at = (n: number) => start + sizes.slice(0, n).reduce((a, b) => a + b, 0);
    let parsed: { json: unknown } | { error: unknown };
    try {
      parsed = { json: JSON.parse(buf.toString("latin1", at(3), at(4))) };
    } catch (error) {
      parsed = { error };
    }
    performance.mark("search-index:parsed");
    if (Buffer.from(await digest).toString("hex") !== header.sha1)
      return { ok: false, reason: "checksum differs" };
    performance.mark("search-index:checksum (waited for)");
    if ("error" in parsed) throw parsed.error;
    // copies: the typed arrays need aligned memory of their own (the index keeps parts of them, not the file)
    const ints = new Int32Array(buf.buffer.slice(buf.byteOffset + at(0), buf.byteOffset + at(1)));
    const floats = new Float32Array(buf.buffer.slice(buf.byteOffset + at(1), buf.byteOffset + at(2)));
    const text = buf.toString(header.textLatin1 === true ? "latin1" : "utf8", at(2), at(3));
    return { ok: true, file: { key, meta: header.meta, json: parsed.json, ints, floats, text } };
  } catch (err) {
    return { ok: false, reason: `unreadable: ${err instanceof Error ? err.message : String(err)}` };
  }
}

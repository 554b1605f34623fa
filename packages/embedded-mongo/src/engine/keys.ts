/**
 * Canonical, order-preserving string encoding of BSON values.
 *
 * encodeKey(a) < encodeKey(b) (plain JS string comparison) exactly when a sorts before b in MongoDB's BSON
 * comparison order, and encodeKey(a) === encodeKey(b) when MongoDB considers them equal (1, 1.0, Long(1) and
 * Decimal128("1") all encode alike; -0 equals 0). Encodings are prefix-free, so the concatenation of several
 * encodings (compound index keys, key + _id) sorts like the tuple of values.
 *
 * Type order: MinKey < null/missing < numbers < strings < objects < arrays < binData < ObjectId < booleans
 *   < Date < Timestamp < RegExp < MaxKey.
 */
import type { Document } from "bson";

const T_MINKEY = "\x01";
const T_NULL = "\x02";
const T_NUMBER = "\x03";
const T_STRING = "\x04";
const T_OBJECT = "\x05";
const T_ARRAY = "\x06";
const T_BINARY = "\x07";
const T_OBJECTID = "\x08";
const T_BOOLEAN = "\x09";
const T_DATE = "\x0a";
const T_TIMESTAMP = "\x0b";
const T_REGEXP = "\x0c";
const T_MAXKEY = "\x0d";
/** greater than every type byte: `prefix + KEY_END` is an upper bound for every key starting with prefix */
export const KEY_END = "\x0e";
/** the encoding of null / a missing field */
export const NULL_KEY = T_NULL;
export const NUMBER_TYPE = T_NUMBER;
export const STRING_TYPE = T_STRING;
export const DATE_TYPE = T_DATE;

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HEX: string[] = [];
for (let i = 0; i < 256; i++) HEX.push(i.toString(16).padStart(2, "0"));

function hex32(n: number): string {
  return HEX[(n >>> 24) & 0xff] + HEX[(n >>> 16) & 0xff] + HEX[(n >>> 8) & 0xff] + HEX[n & 0xff];
}

const TWO_53 = 2 ** 53;
const ZERO_TAIL = "80000000";

/**
 * Numbers at or beyond 2^53 carry a fixed-width tail: the exact distance of a 64-bit integer from its nearest
 * double (|distance| <= 1024), so Long(2^53 + 1) and Long(2^53 + 2) stay distinct and ordered, while a double
 * and a Long of the same value encode alike. Smaller numbers have no tail.
 */
function encodeNumber(n: number, exact?: bigint): string {
  if (!Number.isFinite(n) || Math.abs(n) < TWO_53) return T_NUMBER + encodeDouble(n);
  if (exact === undefined) return T_NUMBER + encodeDouble(n) + ZERO_TAIL;
  const diff = Number(exact - BigInt(n));
  return T_NUMBER + encodeDouble(n) + hex32((diff + 0x80000000) >>> 0);
}

/** order-preserving encoding of a double; NaN sorts below every other number as in MongoDB */
function encodeDouble(n: number): string {
  if (Number.isNaN(n)) return "!";
  if (n === 0) n = 0; // -0 → 0
  f64[0] = n;
  let hi = u32[1];
  let lo = u32[0];
  if (hi & 0x80000000) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  } else {
    hi = (hi | 0x80000000) >>> 0;
  }
  return hex32(hi) + hex32(lo);
}

const HIGH_UNITS = /[\uD800-\uFFFF]/;

/**
 * Re-maps UTF-16 code units so that JS string order equals code point order (= MongoDB's UTF-8 byte order):
 * U+E000..U+FFFF move below the surrogates, surrogates (characters beyond U+FFFF) move to the top.
 */
function codePointOrder(s: string): string {
  if (!HIGH_UNITS.test(s)) return s;
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xe000) out += String.fromCharCode(c - 0x800);
    else if (c >= 0xd800) out += String.fromCharCode(c + 0x2000);
    else out += s[i];
  }
  return out;
}

function escapeString(raw: string): string {
  const s = codePointOrder(raw);
  return s.indexOf("\x00") === -1 ? s : s.split("\x00").join("\x00\x01");
}

export function bsonTypeOf(v: unknown): string | undefined {
  if (v === null || typeof v !== "object") return undefined;
  return (v as { _bsontype?: string })._bsontype;
}

/** numeric value of a JS or bson number, undefined when v is not a number */
export function numericValue(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  switch (bsonTypeOf(v)) {
    case "Long":
      return (v as { toNumber(): number }).toNumber();
    case "Int32":
    case "Double":
      return (v as { value: number }).value;
    case "Decimal128":
      return Number((v as { toString(): string }).toString());
  }
  return undefined;
}

export function isPlainObject(v: unknown): v is Document {
  if (v === null || typeof v !== "object") return false;
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

/** Encodes a value (missing = undefined encodes like null). */
export function encodeKey(v: unknown): string {
  switch (typeof v) {
    case "undefined":
      return T_NULL;
    case "number":
      return encodeNumber(v);
    case "string":
      return `${T_STRING}${escapeString(v)}\x00\x00`;
    case "boolean":
      return T_BOOLEAN + (v ? "1" : "0");
    case "bigint":
      return encodeNumber(Number(v), v);
  }
  if (v === null) return T_NULL;
  if (Array.isArray(v)) {
    let s = T_ARRAY;
    for (const e of v) s += encodeKey(e);
    return `${s}\x00`;
  }
  if (v instanceof Date) return T_DATE + encodeDouble(v.getTime());
  if (v instanceof RegExp) return `${T_REGEXP}${escapeString(v.source)}\x00\x00${v.flags}\x00\x00`;
  const bt = bsonTypeOf(v);
  if (bt !== undefined) {
    switch (bt) {
      case "ObjectId":
        return T_OBJECTID + (v as { toHexString(): string }).toHexString();
      case "Long":
        return encodeNumber((v as { toNumber(): number }).toNumber(), BigInt(String(v)));
      case "Int32":
      case "Double":
      case "Decimal128":
        return encodeNumber(numericValue(v) as number);
      case "Binary": {
        const b = v as { sub_type: number; buffer: Uint8Array; position?: number };
        const len = b.position ?? b.buffer.length;
        let s = `${T_BINARY}${hex32(len)}${HEX[b.sub_type & 0xff]}`;
        for (let i = 0; i < len; i++) s += HEX[b.buffer[i]];
        return s;
      }
      case "Timestamp": {
        const t = v as { high: number; low: number };
        return T_TIMESTAMP + hex32(t.high >>> 0) + hex32(t.low >>> 0);
      }
      case "BSONRegExp": {
        const r = v as { pattern: string; options: string };
        return `${T_REGEXP}${escapeString(r.pattern)}\x00\x00${r.options}\x00\x00`;
      }
      case "MinKey":
        return T_MINKEY;
      case "MaxKey":
        return T_MAXKEY;
      case "BSONSymbol":
        return `${T_STRING}${escapeString(String((v as { value: string }).value))}\x00\x00`;
      case "Code":
        return `\x0c\x01${escapeString(String((v as { code: string }).code))}\x00\x00`;
    }
  }
  // embedded document: per field: type of value, name, value
  let s = T_OBJECT;
  for (const k of Object.keys(v as object)) {
    const val = (v as Document)[k];
    if (val === undefined) continue;
    const ev = encodeKey(val);
    s += `${ev[0]}${escapeString(k)}\x00\x00${ev}`;
  }
  return `${s}\x00`;
}

/** BSON comparison of two values (-1, 0, 1) */
export function compareValues(a: unknown, b: unknown): number {
  const ka = encodeKey(a);
  const kb = encodeKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * Values at a dotted path, MongoDB style: arrays met on the way are traversed element-wise, numeric path parts
 * index into arrays, an array at the end is expanded into its elements. Returns [] when the path is missing.
 */
export function valuesAtPath(doc: unknown, path: string, expandLeafArrays = true): unknown[] {
  const parts = path.split(".");
  const out: unknown[] = [];
  walk(doc, parts, 0, out, expandLeafArrays);
  return out;
}

function walk(cur: unknown, parts: string[], i: number, out: unknown[], expand: boolean): void {
  if (i === parts.length) {
    if (Array.isArray(cur) && expand) {
      if (cur.length === 0) out.push(undefined);
      else for (const e of cur) out.push(e);
    } else out.push(cur);
    return;
  }
  if (cur === null || typeof cur !== "object") return;
  const part = parts[i];
  if (Array.isArray(cur)) {
    if (/^\d+$/.test(part)) {
      const idx = Number(part);
      if (idx < cur.length) walk(cur[idx], parts, i + 1, out, expand);
    }
    for (const e of cur) {
      if (e !== null && typeof e === "object" && !Array.isArray(e)) walk(e, parts, i, out, expand);
    }
    return;
  }
  if (!isPlainObject(cur)) return;
  if (!Object.hasOwn(cur, part)) return;
  walk((cur as Document)[part], parts, i + 1, out, expand);
}

/** the value at a dotted path without array traversal (undefined when missing) */
export function getPath(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const part of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Document)[part];
  }
  return cur;
}

/** sets a dotted path, creating plain objects on the way */
export function setPath(doc: Document, path: string, value: unknown): void {
  const parts = path.split(".");
  let cur: Document = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = cur[parts[i]];
    if (next === null || typeof next !== "object") cur[parts[i]] = {};
    cur = cur[parts[i]] as Document;
  }
  cur[parts[parts.length - 1]] = value;
}

/**
 * Deep copy that keeps bson classes: plain objects and arrays are copied, Dates are copied, bson values
 * (ObjectId, Long, Binary, ...) are immutable in practice and shared.
 */
export function deepClone<T>(v: T): T {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = deepClone(v[i]);
    return out as T;
  }
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (isPlainObject(v)) {
    const out: Document = {};
    for (const k of Object.keys(v)) out[k] = deepClone((v as Document)[k]);
    return out as T;
  }
  return v;
}

/** Renders a value the way mongod prints it in error messages, e.g. `"a@b.dk"`, `ObjectId('...')`. */
export function formatValue(v: unknown): string {
  if (v === undefined || v === null) return "null";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(v);
  if (typeof v === "boolean") return String(v);
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (v instanceof RegExp) return `/${v.source}/${v.flags}`;
  if (Array.isArray(v)) return `[ ${v.map(formatValue).join(", ")} ]`;
  switch (bsonTypeOf(v)) {
    case "ObjectId":
      return `ObjectId('${(v as { toHexString(): string }).toHexString()}')`;
    case "Long":
      return String(v);
    case "Int32":
    case "Double":
      return String((v as { value: number }).value);
    case "Decimal128":
      return `NumberDecimal("${String(v)}")`;
    case "Binary":
      return `BinData(${(v as { sub_type: number }).sub_type}, ${(v as { toString(e: string): string }).toString("hex").toUpperCase()})`;
    case "Timestamp": {
      const t = v as { high: number; low: number };
      return `Timestamp(${t.high}, ${t.low})`;
    }
    case "MinKey":
      return "MinKey";
    case "MaxKey":
      return "MaxKey";
  }
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) return "{}";
    return `{ ${keys.map((k) => `${k}: ${formatValue(v[k])}`).join(", ")} }`;
  }
  return String(v);
}

/** Replaces numeric wrapper values (Long within the safe range, Int32, Double) by plain numbers, recursively. */
export function normalizeNumbers<T>(v: T): T {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const n = normalizeNumbers(v[i]);
      if (n !== v[i]) {
        out ??= v.slice();
        out[i] = n;
      }
    }
    return (out ?? v) as T;
  }
  const bt = bsonTypeOf(v);
  if (bt === "Int32" || bt === "Double") return (v as unknown as { value: number }).value as T;
  if (bt === "Long") {
    const n = (v as unknown as { toNumber(): number }).toNumber();
    return (Number.isSafeInteger(n) ? n : v) as T;
  }
  if (!isPlainObject(v)) return v;
  let out: Document | undefined;
  for (const k of Object.keys(v)) {
    const n = normalizeNumbers((v as Document)[k]);
    if (n !== (v as Document)[k]) {
      out ??= { ...(v as Document) };
      out[k] = n;
    }
  }
  return (out ?? v) as T;
}

/**
 * The updateDescription of an update event: what changed between the document before and after, in MongoDB's
 * shape (updatedFields by dotted path, removedFields, truncatedArrays). Sub-documents and arrays present on both
 * sides are compared inside, so `$set: { "a.b": 1 }` reports `a.b`, a `$push` reports `arr.<index>`.
 */
import type { Document } from "bson";
import { encodeKey, isPlainObject } from "../engine/keys";

export interface UpdateDescription {
  updatedFields: Document;
  removedFields: string[];
  truncatedArrays: { field: string; newSize: number }[];
}

export function describeUpdate(before: Document, after: Document): UpdateDescription {
  const out: UpdateDescription = { updatedFields: {}, removedFields: [], truncatedArrays: [] };
  diffDocs("", before, after, out);
  return out;
}

function diffDocs(prefix: string, a: Document, b: Document, out: UpdateDescription): void {
  for (const key of Object.keys(a)) {
    if (!Object.hasOwn(b, key) || b[key] === undefined) {
      if (a[key] !== undefined) out.removedFields.push(prefix + key);
    }
  }
  for (const key of Object.keys(b)) {
    if (b[key] === undefined) continue;
    diffValues(prefix + key, Object.hasOwn(a, key) ? a[key] : undefined, b[key], out);
  }
}

function diffValues(path: string, a: unknown, b: unknown, out: UpdateDescription): void {
  if (same(a, b)) return;
  if (isPlainObject(a) && isPlainObject(b) && sameKeyOrder(a, b)) {
    diffDocs(`${path}.`, a, b, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (b.length < a.length) out.truncatedArrays.push({ field: path, newSize: b.length });
    for (let i = 0; i < b.length; i++) {
      if (i < a.length) diffValues(`${path}.${i}`, a[i], b[i], out);
      else out.updatedFields[`${path}.${i}`] = b[i];
    }
    return;
  }
  out.updatedFields[path] = b;
}

/** the keys both documents share keep their relative order (otherwise the document is reported whole) */
function sameKeyOrder(a: Document, b: Document): boolean {
  const shared = Object.keys(b).filter((k) => Object.hasOwn(a, k));
  const inA = Object.keys(a).filter((k) => Object.hasOwn(b, k));
  return shared.every((k, i) => inA[i] === k);
}

/** equal as BSON values (field order of documents counts, as in MongoDB) */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => same(v, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k, i) => kb[i] === k && same(a[k], b[k]));
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  const ta = (a as { _bsontype?: string })._bsontype;
  return ta !== undefined && ta === (b as { _bsontype?: string })._bsontype && encodeKey(a) === encodeKey(b);
}

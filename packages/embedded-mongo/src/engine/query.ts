/**
 * Query matching, projection and sorting on top of mingo, with MongoDB's error codes and BSON ordering.
 */
import type { Document } from "bson";
import type { Options } from "mingo/types";
import { badValue, indexNotFound, location } from "./errors";
import { jsonSchemaValidator } from "./json-schema";
import { bsonTypeOf, deepClone, encodeKey, isPlainObject, normalizeNumbers, valuesAtPath } from "./keys";
import { CONTEXT, Query, registerSort } from "./mingo-context";
import { fastProjection } from "./projection-fast";
import { type SortSpec, StoreError } from "./types";

// scriptEnabled stays on because mingo's own $setWindowFields is built on $function; user-supplied JavaScript
// ($where, $function, $accumulator) is refused by rejectJavaScript/checkFilter before anything reaches mingo.
export const MINGO_OPTIONS: Partial<Options> = {
  idKey: "_id",
  scriptEnabled: true,
  useStrictMode: true,
  context: CONTEXT,
  jsonSchemaValidator: jsonSchemaValidator as Options["jsonSchemaValidator"],
};

const JS_OPERATORS = new Set(["$where", "$function", "$accumulator"]);

/** Throws when a filter, pipeline or update contains server-side JavaScript operators. */
export function rejectJavaScript(v: unknown): void {
  if (Array.isArray(v)) {
    for (const e of v) rejectJavaScript(e);
    return;
  }
  if (!isPlainObject(v)) return;
  for (const k of Object.keys(v)) {
    if (JS_OPERATORS.has(k)) throw badValue(`${k} is not supported by the embedded store`);
    const x = v[k];
    if (x !== null && typeof x === "object") rejectJavaScript(x);
  }
}

export type Matcher = (doc: Document) => boolean;

const MATCH_ALL: Matcher = () => true;

/** Turns a mingo error into the StoreError mongod would answer with. */
export function mapMingoError(e: unknown, context: "query" | "aggregate" | "update" = "query"): StoreError {
  if (e instanceof StoreError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  let m = /unknown query operator (\$\w+)/.exec(msg);
  if (m) return badValue(`unknown operator: ${m[1]}`);
  m = /unknown top level operator: (\$\w+)/.exec(msg);
  if (m) return badValue(`unknown top level operator: ${m[1]}`);
  m = /unregistered pipeline operator (\$\w+)/.exec(msg);
  if (m) return location(40324, `Unrecognized pipeline stage name: '${m[1]}'`);
  m = /unregistered (?:expression|accumulator|window) operator (\$\w+)/i.exec(msg);
  if (m) return location(168, `Unrecognized expression '${m[1]}'`);
  if (context === "aggregate") return location(16020, msg);
  return badValue(msg);
}

function checkFilter(filter: unknown): void {
  if (Array.isArray(filter)) {
    for (const f of filter) checkFilter(f);
    return;
  }
  if (!isPlainObject(filter)) return;
  for (const k of Object.keys(filter)) {
    if (JS_OPERATORS.has(k)) throw badValue(`${k} is not supported by the embedded store`);
    if (k === "$text") throw indexNotFound("text index required for $text query");
    if (k === "$near" || k === "$nearSphere" || k === "$geoNear")
      throw location(291, `${k} requires a geospatial index, which the embedded store does not support`);
    if (k === "$geoWithin" || k === "$geoIntersects")
      throw badValue(`${k} is not supported by the embedded store`);
    const v = filter[k];
    if (v !== null && typeof v === "object") checkFilter(v);
  }
}

function simpleScalar(v: unknown): boolean {
  switch (typeof v) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return !Number.isNaN(v);
  }
  return v instanceof Date || bsonTypeOf(v) === "ObjectId";
}

/**
 * Fast path for the most common filters: plain field equality with strings, numbers, booleans, ObjectIds and
 * Dates ({_id: x}, {email: "a@b.dk", active: true}). Same semantics as MongoDB: a field matches when it equals
 * the value or is an array holding it.
 */
function simpleEquality(filter: Document): Matcher | undefined {
  const keys = Object.keys(filter);
  if (keys.length > 4) return undefined;
  const tests: [string, string, boolean][] = [];
  for (const k of keys) {
    if (k.startsWith("$")) return undefined;
    const v = filter[k];
    if (!simpleScalar(v)) return undefined;
    tests.push([k, encodeKey(v), k.includes(".")]);
  }
  return (doc) => {
    for (const [path, enc, dotted] of tests) {
      if (!dotted) {
        const v = doc[path];
        if (v === undefined) return false;
        if (Array.isArray(v)) {
          if (!v.some((e) => encodeKey(e) === enc)) return false;
        } else if (encodeKey(v) !== enc) return false;
      } else if (!valuesAtPath(doc, path).some((e) => encodeKey(e) === enc)) return false;
    }
    return true;
  };
}

/** Compiles a filter into a predicate; throws StoreError for unknown or unsupported operators. */
export function compileFilter(filter: Document | undefined | null): Matcher {
  if (filter === undefined || filter === null) return MATCH_ALL;
  if (!isPlainObject(filter)) throw badValue("query filter must be an object");
  if (Object.keys(filter).length === 0) return MATCH_ALL;
  const fast = simpleEquality(filter);
  if (fast) return fast;
  checkFilter(filter);
  const mingoQuery = () => {
    try {
      return new Query(normalizeNumbers(filter), MINGO_OPTIONS);
    } catch (e) {
      throw mapMingoError(e);
    }
  };
  // a range the fast path decides alone compiles the mingo query only for a document it cannot decide
  const range = simpleRange(filter, (doc) => general(doc));
  let q = range ? undefined : mingoQuery();
  const general: Matcher = (doc) => {
    q ??= mingoQuery();
    try {
      return q.test(doc);
    } catch (e) {
      throw mapMingoError(e);
    }
  };
  return range ?? general;
}

const RANGE_OPS: Record<string, (c: number) => boolean> = {
  $gt: (c) => c > 0,
  $gte: (c) => c >= 0,
  $lt: (c) => c < 0,
  $lte: (c) => c <= 0,
};

/**
 * Fast path for ranges over dates and numbers on top-level fields ({ timestamp: { $gte: d } }, with equality
 * on other top-level fields): a stored Date or JS number is compared natively; any other stored value (arrays,
 * Long, a different type, missing) is decided by the general matcher, so the answer is always mongod's.
 */
function simpleRange(filter: Document, general: Matcher): Matcher | undefined {
  const keys = Object.keys(filter);
  if (keys.length > 4) return undefined;
  const tests: Array<(doc: Document) => boolean | undefined> = [];
  for (const k of keys) {
    if (k.startsWith("$") || k.includes(".")) return undefined;
    const v = filter[k];
    if (simpleScalar(v)) {
      const enc = encodeKey(v);
      tests.push((doc) => {
        const x = doc[k];
        if (x === undefined || Array.isArray(x)) return undefined;
        return encodeKey(x) === enc;
      });
      continue;
    }
    if (!isPlainObject(v) || Object.keys(v).length === 0) return undefined;
    const bounds: Array<[(c: number) => boolean, number, boolean]> = [];
    for (const [op, operand] of Object.entries(v)) {
      const test = RANGE_OPS[op];
      const isDate = operand instanceof Date && !Number.isNaN(operand.getTime());
      if (!test || !(isDate || (typeof operand === "number" && Number.isFinite(operand)))) return undefined;
      bounds.push([test, isDate ? (operand as Date).getTime() : (operand as number), isDate]);
    }
    tests.push((doc) => {
      const x = doc[k];
      const xDate = x instanceof Date;
      if (!xDate && typeof x !== "number") return undefined;
      const n = xDate ? (x as Date).getTime() : (x as number);
      if (Number.isNaN(n)) return undefined;
      for (const [test, bound, dateBound] of bounds) {
        if (dateBound !== xDate) return false; // type bracketing: a date never compares with a number
        if (!test(n < bound ? -1 : n > bound ? 1 : 0)) return false;
      }
      return true;
    });
  }
  return (doc) => {
    for (const t of tests) {
      const r = t(doc);
      if (r === undefined) return general(doc);
      if (!r) return false;
    }
    return true;
  };
}

/** Applies a find projection; the stored documents are never modified (mingo mutates nested objects). */
export function applyProjection(
  docs: Document[],
  projection: Document | undefined,
  filter?: Document,
): Document[] {
  if (!projection || Object.keys(projection).length === 0) return docs;
  for (const k of Object.keys(projection)) {
    const v = projection[k];
    if (isPlainObject(v) && "$meta" in v)
      throw badValue(`$meta projection "${String(v.$meta)}" is not supported by the embedded store`);
  }
  const inclusion = checkProjection(projection);
  const fast = fastProjection(projection);
  if (fast) return docs.map(fast);
  const slices = inclusion
    ? []
    : Object.keys(projection).filter((k) => isPlainObject(projection[k]) && "$slice" in projection[k]);
  if (slices.length > 0) {
    // a $slice outside an inclusion projection keeps every other field (mingo would treat it as an inclusion)
    const rest: Document = { ...projection };
    for (const k of slices) delete rest[k];
    const base =
      Object.keys(rest).length > 0 ? applyProjection(docs, rest, filter) : docs.map((d) => deepClone(d));
    return base.map((d) => {
      for (const k of slices) applySlice(d, k, projection[k].$slice);
      return d;
    });
  }
  const input = docs.map((d) => deepClone(d));
  let out: Document[];
  try {
    // the positional projection ("arr.$") needs the query to find the matched element
    const positional = filter !== undefined && Object.keys(projection).some((k) => k.endsWith(".$"));
    out = new Query(positional ? normalizeNumbers(filter) : {}, MINGO_OPTIONS)
      .find<Document>(input, normalizeNumbers(projection))
      .all();
  } catch (e) {
    throw mapMingoError(e);
  }
  // mingo moves _id last; mongod keeps it first
  return out.map((d) => {
    if (!("_id" in d)) return d;
    const keys = Object.keys(d);
    if (keys[0] === "_id") return d;
    const r: Document = { _id: d._id };
    for (const k of keys) if (k !== "_id") r[k] = d[k];
    return r;
  });
}

function applySlice(doc: Document, path: string, spec: unknown): void {
  const parts = path.split(".");
  let parent: unknown = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    if (!isPlainObject(parent)) return;
    parent = parent[parts[i]];
  }
  if (!isPlainObject(parent)) return;
  const last = parts[parts.length - 1];
  const arr = parent[last];
  if (!Array.isArray(arr)) return;
  if (typeof spec === "number") {
    parent[last] = spec >= 0 ? arr.slice(0, spec) : arr.slice(Math.max(0, arr.length + spec));
  } else if (Array.isArray(spec) && spec.length === 2) {
    const skip = Number(spec[0]);
    const limit = Number(spec[1]);
    if (!(limit > 0)) throw badValue("$slice limit must be positive");
    const start = skip >= 0 ? Math.min(skip, arr.length) : Math.max(0, arr.length + skip);
    parent[last] = arr.slice(start, start + limit);
  } else throw badValue("$slice only supports numbers and [skip, limit] arrays");
}

/** mongod refuses to mix inclusion and exclusion (except excluding _id); returns true for an inclusion projection */
function checkProjection(projection: Document): boolean {
  let mode: "in" | "ex" | undefined;
  const visit = (p: Document, pre: string) => {
    for (const k of Object.keys(p)) {
      const v = p[k];
      const path = pre + k;
      let kind: "in" | "ex";
      if (v === 0 || v === false) kind = "ex";
      else if (typeof v === "number" || v === true) kind = "in";
      else if (isPlainObject(v)) {
        const first = Object.keys(v)[0];
        if (first === undefined || first === "$slice" || first === "$elemMatch") continue;
        if (first.startsWith("$")) kind = "in";
        else {
          visit(v, `${path}.`);
          continue;
        }
      } else kind = "in"; // a literal or "$field" expression computes a value
      if (path === "_id") continue;
      if (mode === undefined) mode = kind;
      else if (kind !== mode)
        throw location(
          31254,
          kind === "ex"
            ? `Cannot do exclusion on field ${path} in inclusion projection`
            : `Cannot do inclusion on field ${path} in exclusion projection`,
        );
    }
  };
  visit(projection, "");
  return mode === "in";
}

function sortKeyOf(doc: Document, path: string, dir: 1 | -1): string {
  const vals = valuesAtPath(doc, path);
  if (vals.length === 0) return encodeKey(null);
  let best = encodeKey(vals[0]);
  for (let i = 1; i < vals.length; i++) {
    const k = encodeKey(vals[i]);
    if (dir === 1 ? k < best : k > best) best = k;
  }
  // an array compares by its smallest (ascending) or largest (descending) element
  return best;
}

/** Validates a sort spec and returns [path, direction] pairs */
export function parseSort(sort: SortSpec | undefined): [string, 1 | -1][] {
  if (!sort) return [];
  const out: [string, 1 | -1][] = [];
  for (const k of Object.keys(sort)) {
    const v = sort[k] as unknown;
    if (isPlainObject(v)) throw badValue(`$meta sort is not supported by the embedded store (field ${k})`);
    const n = typeof v === "number" ? v : Number(v);
    if (n !== 1 && n !== -1)
      throw badValue(`$sort key ordering must be 1 (for ascending) or -1 (for descending)`);
    out.push([k, n]);
  }
  return out;
}

/** Stable sort by BSON order (arrays by min/max element), in place. */
export function sortDocs(docs: Document[], spec: [string, 1 | -1][]): Document[] {
  if (spec.length === 0) return docs;
  const keyed = docs.map((d, i) => ({ d, i, k: spec.map(([p, dir]) => sortKeyOf(d, p, dir)) }));
  keyed.sort((a, b) => {
    for (let j = 0; j < spec.length; j++) {
      const x = a.k[j];
      const y = b.k[j];
      if (x !== y) return (x < y ? -1 : 1) * spec[j][1];
    }
    return a.i - b.i;
  });
  for (let i = 0; i < keyed.length; i++) docs[i] = keyed[i].d;
  return docs;
}

registerSort((docs, spec) => sortDocs(docs as Document[], spec));

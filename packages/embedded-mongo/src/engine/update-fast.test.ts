import { type Document, ObjectId } from "bson";
import { update as mingoUpdate } from "mingo/updater";
import { describe, expect, it } from "vitest";
import { deepClone } from "./keys";
import { MINGO_OPTIONS } from "./query";
import { fastUpdate } from "./update-fast";

const when = new Date("2026-11-27T08:00:00Z");
const base: Document = {
  _id: new ObjectId("64b000000000000000000001"),
  n: 1,
  s: "x",
  nul: null,
  nan: Number.NaN,
  d: new Date("2026-01-01T00:00:00Z"),
  arr: [1, { k: 2 }],
  o: { a: 1, inner: { b: 2 }, nul: null },
  empty: {},
};

/** mingo's result on a copy: the reference the fast path must equal */
function slow(doc: Document, ops: Document): { doc: Document; changed: boolean } {
  const out = deepClone(doc);
  const changed = mingoUpdate(out, ops, undefined, undefined, {
    cloneMode: "copy",
    queryOptions: MINGO_OPTIONS,
  });
  return { doc: out, changed: changed.length > 0 };
}

/** key order matters (new fields are appended in operator order), so compare the entries recursively */
function shape(v: unknown): unknown {
  if (v instanceof Date) return { date: v.getTime() };
  if (Array.isArray(v)) return v.map(shape);
  if (v && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype)
    return Object.entries(v).map(([k, x]) => [k, shape(x)]);
  if (typeof v === "number" && Number.isNaN(v)) return "NaN";
  return v;
}

describe("fastUpdate", () => {
  it.each<[string, Document]>([
    ["$set of an existing top-level field", { $set: { n: 2 } }],
    ["$set of the same value (no change)", { $set: { n: 1, s: "x" } }],
    ["$set of an equal Date (no change)", { $set: { d: new Date("2026-01-01T00:00:00Z") } }],
    ["$set of new fields, appended in order", { $set: { z: 1, y: when, x: [1, 2] } }],
    ["$set over null", { $set: { nul: 5 } }],
    ["$set of a nested field", { $set: { "o.a": 3 } }],
    ["$set of a nested field under a missing parent", { $set: { "new.deep.k": "v" } }],
    ["$set of a nested field under an empty object", { $set: { "empty.k": 1 } }],
    ["$set of a deeper existing field", { $set: { "o.inner.b": 2, "o.inner.c": null } }],
    ["$set of an object and an array value", { $set: { obj: { a: { b: 1 } }, list: [{ a: 1 }] } }],
    ["$set of the whole array", { $set: { arr: [1] } }],
    ["$inc of an existing number", { $inc: { n: 2 } }],
    ["$inc by zero (no change)", { $inc: { n: 0 } }],
    ["$inc of a missing field", { $inc: { m: 5, "o.m": -1.5 } }],
    ["$inc of NaN (left alone)", { $inc: { nan: 1 } }],
    ["$unset of present and missing fields", { $unset: { s: "", missing: 1, "o.a": 1 } }],
    ["$unset under a missing parent", { $unset: { "none.a": 1 } }],
    ["$unset of a nested null", { $unset: { "o.nul": 1 } }],
    ["operators in order", { $set: { a1: 1, n: 7 }, $inc: { b1: 1, "o.a": 1 }, $unset: { s: 1 } }],
    [
      "the app's answer write",
      { $set: { lastUpdated: when, hasMessages: true, activeLeafId: new ObjectId() } },
    ],
    ["the view counter upsert", { $set: { lastViewedAt: when }, $inc: { views: 1 } }],
  ])("%s: the same document and change as mingo", (_name, ops) => {
    const want = slow(base, ops);
    const doc = deepClone(base);
    const changed = fastUpdate(doc, ops);
    expect(changed).not.toBeUndefined(); // the fast path took it
    expect(shape(doc)).toEqual(shape(want.doc));
    expect(changed).toBe(want.changed);
  });

  it("stores a copy of a $set value, not the update's own object", () => {
    const value = { a: 1 };
    const doc: Document = {};
    fastUpdate(doc, { $set: { v: value } });
    expect(doc.v).toEqual(value);
    expect(doc.v).not.toBe(value);
  });

  it.each<[string, Document]>([
    ["another operator", { $push: { arr: 3 } }],
    ["a mix with another operator", { $set: { n: 2 }, $min: { n: 0 } }],
    ["a path through an array", { $set: { "arr.1.k": 3 } }],
    ["an index into an array", { $set: { "arr.0": 3 } }],
    ["a path through a Date", { $unset: { "d.x": 1 } }],
    ["a path through a scalar", { $unset: { "s.x": 1 } }],
    ["$unset through null", { $unset: { "nul.x": 1 } }],
    ["a positional path", { $set: { "arr.$": 1 } }],
    ["a non-number $inc", { $inc: { n: "1" } }],
    ["a NaN $inc", { $inc: { n: Number.NaN } }],
    ["__proto__", { $set: { "__proto__.x": 1 } }],
  ])("leaves %s to mingo, without touching the document", (_name, ops) => {
    const doc = deepClone(base);
    expect(fastUpdate(doc, ops)).toBeUndefined();
    expect(shape(doc)).toEqual(shape(base));
  });
});

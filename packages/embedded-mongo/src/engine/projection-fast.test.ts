import { type Document, ObjectId } from "bson";
import { describe, expect, it } from "vitest";
import { deepClone } from "./keys";
import { Query } from "./mingo-context";
import { fastProjection } from "./projection-fast";
import { applyProjection, MINGO_OPTIONS } from "./query";

const docs: Document[] = [
  { _id: new ObjectId("64b000000000000000000001"), a: 1, b: { x: 1 }, c: [1, { y: 2 }], d: null },
  { b: 2, _id: 7, a: "s" },
  { a: [] },
  { _id: { k: 1 }, e: new Date("2026-11-27T00:00:00Z") },
];

/** the general path: mingo on copies, _id moved first (as applyProjection did before the fast path) */
function viaMingo(projection: Document): Document[] {
  return new Query({}, MINGO_OPTIONS)
    .find<Document>(
      docs.map((d) => deepClone(d)),
      projection,
    )
    .all()
    .map((d) =>
      "_id" in d ? { _id: d._id, ...Object.fromEntries(Object.entries(d).filter(([k]) => k !== "_id")) } : d,
    );
}

const entries = (ds: Document[]) => ds.map((d) => Object.entries(d));

describe("fastProjection", () => {
  it.each<Document>([
    { a: 1 },
    { c: 1, a: 1 },
    { a: true, _id: 0 },
    { _id: 0, c: 1, zz: 1, d: 1 },
    { _id: 1, a: 1 },
    { b: 0 },
    { b: 0, _id: 0 },
    { b: false, e: 0 },
    { _id: 1 },
    { _id: 0 },
    { missing: 1 },
  ])("%o gives mingo's documents, fields in the same order", (projection) => {
    const fast = fastProjection(projection);
    expect(fast).toBeDefined();
    expect(entries(docs.map(fast!))).toEqual(entries(viaMingo(projection)));
  });

  it("is what applyProjection uses, and leaves the stored documents alone", () => {
    const before = deepClone(docs);
    const out = applyProjection(docs, { b: 1 });
    expect(entries(out)).toEqual(entries(viaMingo({ b: 1 })));
    expect(docs).toEqual(before);
  });

  it.each<Document>([{ "b.x": 1 }, { a: 2 }, { a: -1 }, { c: { $slice: 1 } }, { a: "$b" }, { $x: 1 }])(
    "leaves %o to the general path",
    (projection) => {
      expect(fastProjection(projection)).toBeUndefined();
    },
  );
});

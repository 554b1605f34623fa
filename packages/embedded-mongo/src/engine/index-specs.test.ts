/** Index definitions: createIndexes validation and what dropIndexes resolves to. */
import { describe, expect, it } from "vitest";
import { Collection } from "./collection";
import { buildIndexes, indexNamesToDrop, normalizeIndexSpecs } from "./index-specs";
import type { IndexSpec } from "./types";

describe("index specs", () => {
  it("should normalize a spec: version 2, driver-only fields dropped, other options kept", () => {
    const [spec] = normalizeIndexSpecs([
      { name: "a_1", key: { a: 1 }, v: 1, ns: "db.c", unique: true, background: true } as IndexSpec,
    ]);
    expect(spec).toEqual({ v: 2, name: "a_1", key: { a: 1 }, unique: true, background: true });
  });

  it.each([
    [[], 2, /at least one index/],
    [[{ name: "x", key: {} }], 67, /keys cannot be empty/],
    [[{ name: "", key: { a: 1 } }], 67, /name cannot be empty/],
    [[{ name: "t", key: { a: "text" } }], 67, /text indexes are not supported/],
    [[{ name: "g", key: { a: "2dsphere" } }], 67, /'2dsphere' indexes are not supported/],
    [[{ name: "z", key: { a: 0 } }], 67, /can only be 1 or -1/],
    [[{ name: "ttl", key: { a: 1 }, expireAfterSeconds: -1 }], 67, /non-negative/],
    [[{ name: "col", key: { a: 1 }, collation: { locale: "da" } }], 67, /collations/],
    [[{ name: "_id_", key: { a: 1 } }], 86, /reserved for the _id index/],
  ])("should refuse %j with code %i", (specs, code, message) => {
    let err: { code?: number; message?: string } = {};
    try {
      normalizeIndexSpecs(specs as IndexSpec[]);
    } catch (e) {
      err = e as typeof err;
    }
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
  });

  it("should add only new indexes and refuse a same-key index under another name", () => {
    const c = new Collection("db", "c");
    const added: IndexSpec[] = [];
    buildIndexes(c, normalizeIndexSpecs([{ name: "a_1", key: { a: 1 } }]), added);
    buildIndexes(c, normalizeIndexSpecs([{ name: "a_1", key: { a: 1 } }]), added); // same: no-op
    expect(added.map((s) => s.name)).toEqual(["a_1"]);
    expect(() => buildIndexes(c, normalizeIndexSpecs([{ name: "other", key: { a: 1 } }]), [])).toThrow(
      /different name: a_1/,
    );
  });

  it("should resolve dropIndexes names, never the _id index", () => {
    const c = new Collection("db", "c");
    buildIndexes(
      c,
      normalizeIndexSpecs([
        { name: "a_1", key: { a: 1 } },
        { name: "b_1", key: { b: 1 } },
      ]),
      [],
    );
    expect(indexNamesToDrop(c, "*")).toEqual(["a_1", "b_1"]);
    expect(indexNamesToDrop(c, { b: 1 })).toEqual(["b_1"]);
    expect(indexNamesToDrop(c, ["a_1"])).toEqual(["a_1"]);
    expect(() => indexNamesToDrop(c, "_id_")).toThrow(/cannot drop _id index/);
    expect(() => indexNamesToDrop(c, "nope")).toThrow(/index not found/);
  });
});

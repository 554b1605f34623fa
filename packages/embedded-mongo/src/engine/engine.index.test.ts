import { Long, ObjectId } from "bson";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEngine, type Engine, StoreError } from "./index";

let engine: Engine;

beforeEach(async () => {
  engine = await createEngine({});
});
afterEach(async () => {
  await engine.close();
});

async function fill(n: number) {
  const docs = [];
  for (let i = 0; i < n; i++)
    docs.push({ n: i, email: `user${i}@x.dk`, group: i % 100, tags: [`t${i % 7}`, `u${i % 11}`] });
  await engine.insert("db", "c", docs, true);
}

async function expectError(p: Promise<unknown> | (() => unknown), code: number, message?: string | RegExp) {
  let err: unknown;
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(StoreError);
  expect((err as StoreError).code).toBe(code);
  if (message !== undefined) expect((err as StoreError).message).toMatch(message);
  return err as StoreError;
}

describe("engine indexes", () => {
  it("should fetch an indexed equality lookup through the index, not by scanning 20k documents", async () => {
    await fill(20000);
    await engine.createIndexes("db", "c", [{ name: "email_1", key: { email: 1 } }]);
    const before = engine.docsExamined?.("db", "c") ?? 0;
    const r = engine.find("db", "c", { filter: { email: "user12345@x.dk" } });
    expect(r.map((d) => d.n)).toEqual([12345]);
    expect(engine.lastPlan).toMatchObject({ stage: "IXSCAN", index: "email_1", docsExamined: 1 });
    expect((engine.docsExamined?.("db", "c") ?? 0) - before).toBe(1);
  });

  it("should use the index for $in and ranges and still apply the rest of the filter", async () => {
    await fill(20000);
    await engine.createIndexes("db", "c", [{ name: "n_1", key: { n: 1 } }]);
    const r = engine.find("db", "c", {
      filter: { n: { $gte: 100, $lt: 110, $ne: 105 }, group: { $gte: 0 } },
    });
    expect(r.map((d) => d.n)).toEqual([100, 101, 102, 103, 104, 106, 107, 108, 109]);
    expect(engine.lastPlan?.index).toBe("n_1");
    expect(engine.lastPlan?.docsExamined).toBe(10);
    const r2 = engine.find("db", "c", { filter: { n: { $in: [5, 7000, 99999] } } });
    expect(r2.map((d) => d.n)).toEqual([5, 7000]);
    expect(engine.lastPlan?.docsExamined).toBe(2);
  });

  it("should look up _id directly and scan without an index", async () => {
    await fill(1000);
    const one = engine.find("db", "c", { filter: { n: 500 } })[0];
    expect(engine.lastPlan?.stage).toBe("COLLSCAN");
    expect(engine.lastPlan?.docsExamined).toBe(1000);
    const byId = engine.find("db", "c", { filter: { _id: new ObjectId(one._id.toHexString()) } });
    expect(byId[0]).toBe(one);
    expect(engine.lastPlan).toMatchObject({ stage: "IDHACK", docsExamined: 1 });
  });

  it("should walk a compound index for a sort on the fields after its equality prefix", async () => {
    await fill(5000);
    // an index on the prefix alone narrows as well: the one that also sorts is chosen
    await engine.createIndexes("db", "c", [
      { name: "group_1", key: { group: 1 } },
      { name: "group_1_n_1", key: { group: 1, n: 1 } },
    ]);
    const newest = engine.find("db", "c", { filter: { group: 7 }, sort: { n: -1 }, limit: 3 });
    expect(newest.map((d) => d.n)).toEqual([4907, 4807, 4707]);
    expect(engine.lastPlan).toMatchObject({ index: "group_1_n_1", sortedByIndex: true, docsExamined: 3 });
    const oldest = engine.find("db", "c", {
      filter: { group: 7, n: { $gt: 1000 } },
      sort: { n: 1 },
      limit: 2,
    });
    expect(oldest.map((d) => d.n)).toEqual([1007, 1107]);
    expect(engine.lastPlan).toMatchObject({ sortedByIndex: true, docsExamined: 2 });
    // two values of the prefix are two intervals: their keys interleave in n only after sorting
    const two = engine.find("db", "c", { filter: { group: { $in: [3, 7] } }, sort: { n: -1 }, limit: 2 });
    expect(two.map((d) => d.n)).toEqual([4907, 4903]);
    expect(engine.lastPlan?.sortedByIndex).toBeFalsy();
    // a sort on a field the index does not have next is sorted in memory
    const other = engine.find("db", "c", { filter: { group: 7 }, sort: { _id: -1 }, limit: 1 });
    expect(other.map((d) => d.n)).toEqual([4907]);
    expect(engine.lastPlan?.sortedByIndex).toBeFalsy();
  });

  it("should use a compound index prefix and walk an index for sort with limit", async () => {
    await fill(5000);
    await engine.createIndexes("db", "c", [{ name: "group_1_n_-1", key: { group: 1, n: -1 } }]);
    const r = engine.find("db", "c", { filter: { group: 7, n: { $gt: 4000 } } });
    expect(r.map((d) => d.n).sort((a, b) => a - b)).toEqual([
      4007, 4107, 4207, 4307, 4407, 4507, 4607, 4707, 4807, 4907,
    ]);
    expect(engine.lastPlan?.index).toBe("group_1_n_-1");
    expect(engine.lastPlan?.docsExamined).toBe(10);
    await engine.createIndexes("db", "c", [{ name: "n_1", key: { n: 1 } }]);
    const top = engine.find("db", "c", { filter: {}, sort: { n: -1 }, limit: 3 });
    expect(top.map((d) => d.n)).toEqual([4999, 4998, 4997]);
    expect(engine.lastPlan).toMatchObject({ index: "n_1", sortedByIndex: true, docsExamined: 3 });
  });

  it("should match index lookups on numbers across int, double and Long like MongoDB", async () => {
    await engine.createIndexes("db", "c", [{ name: "v_1", key: { v: 1 } }]);
    await engine.insert("db", "c", [{ v: 1 }, { v: 2.5 }, { v: "1" }], true);
    expect(engine.find("db", "c", { filter: { v: 1.0 } }).length).toBe(1);
    expect(engine.find("db", "c", { filter: { v: Long.fromNumber(1) } }).length).toBe(1);
    expect(engine.find("db", "c", { filter: { v: { $gte: Long.fromNumber(1) } } }).map((d) => d.v)).toEqual([
      1, 2.5,
    ]);
  });

  it("should report duplicate keys exactly like mongod, with keyPattern and keyValue", async () => {
    await engine.createIndexes("db", "users", [{ name: "email_1", key: { email: 1 }, unique: true }]);
    await engine.insert("db", "users", [{ email: "a@b.dk" }], true);
    const r = await engine.insert("db", "users", [{ email: "a@b.dk" }], true);
    expect(r.n).toBe(0);
    expect(r.writeErrors).toEqual([
      {
        index: 0,
        code: 11000,
        errmsg: 'E11000 duplicate key error collection: db.users index: email_1 dup key: { email: "a@b.dk" }',
        keyPattern: { email: 1 },
        keyValue: { email: "a@b.dk" },
      },
    ]);
    const id = new ObjectId("65a1b2c3d4e5f60718293a4b");
    await engine.insert("db", "users", [{ _id: id, email: "x" }], true);
    const r2 = await engine.insert("db", "users", [{ _id: id, email: "y" }], true);
    expect(r2.writeErrors[0].errmsg).toBe(
      "E11000 duplicate key error collection: db.users index: _id_ dup key: { _id: ObjectId('65a1b2c3d4e5f60718293a4b') }",
    );
  });

  it("should enforce compound unique indexes and treat a missing field as null", async () => {
    await engine.createIndexes("db", "m", [{ name: "org_1_user_1", key: { org: 1, user: 1 }, unique: true }]);
    await engine.insert(
      "db",
      "m",
      [
        { org: 1, user: "a" },
        { org: 1, user: "b" },
        { org: 2, user: "a" },
      ],
      true,
    );
    const r = await engine.insert("db", "m", [{ org: 1, user: "a" }], true);
    expect(r.writeErrors[0].errmsg).toBe(
      'E11000 duplicate key error collection: db.m index: org_1_user_1 dup key: { org: 1, user: "a" }',
    );
    expect(r.writeErrors[0].keyValue).toEqual({ org: 1, user: "a" });
    await engine.insert("db", "m", [{ org: 3 }], true);
    const r2 = await engine.insert("db", "m", [{ org: 3 }], true);
    expect(r2.writeErrors[0].errmsg).toBe(
      "E11000 duplicate key error collection: db.m index: org_1_user_1 dup key: { org: 3, user: null }",
    );
  });

  it("should let sparse and partial unique indexes skip documents", async () => {
    await engine.createIndexes("db", "s", [{ name: "code_1", key: { code: 1 }, unique: true, sparse: true }]);
    const r = await engine.insert("db", "s", [{ a: 1 }, { a: 2 }, { code: "x" }], true);
    expect(r).toEqual({ n: 3, writeErrors: [] });
    expect((await engine.insert("db", "s", [{ code: "x" }], true)).writeErrors[0].code).toBe(11000);

    await engine.createIndexes("db", "p", [
      { name: "email_1", key: { email: 1 }, unique: true, partialFilterExpression: { active: true } },
    ]);
    const r2 = await engine.insert(
      "db",
      "p",
      [
        { email: "a", active: false },
        { email: "a", active: false },
        { email: "a", active: true },
      ],
      true,
    );
    expect(r2.n).toBe(3);
    const r3 = await engine.insert("db", "p", [{ email: "a", active: true }], true);
    expect(r3.writeErrors[0].code).toBe(11000);
    // an update that brings a document into the partial index is checked too
    const u = await engine.update("db", "p", [{ q: { active: false }, u: { $set: { active: true } } }], true);
    expect(u.writeErrors[0].code).toBe(11000);
    expect(engine.count("db", "p", { active: true })).toBe(1);
  });

  it("should index every element of an array (multikey) and enforce uniqueness across documents", async () => {
    await engine.createIndexes("db", "a", [{ name: "tags_1", key: { tags: 1 }, unique: true }]);
    expect((await engine.insert("db", "a", [{ tags: ["x", "y", "x"] }], true)).n).toBe(1);
    const r = await engine.insert("db", "a", [{ tags: ["z", "y"] }], true);
    expect(r.writeErrors[0].errmsg).toContain('dup key: { tags: "y" }');
    const found = engine.find("db", "a", { filter: { tags: "y" } });
    expect(found.length).toBe(1);
    expect(engine.lastPlan?.index).toBe("tags_1");
    await engine.createIndexes("db", "b", [{ name: "items.sku_1", key: { "items.sku": 1 } }]);
    await engine.insert("db", "b", [{ items: [{ sku: 1 }, { sku: 2 }] }, { items: [{ sku: 3 }] }], true);
    expect(engine.find("db", "b", { filter: { "items.sku": 2 } }).length).toBe(1);
    expect(engine.lastPlan?.index).toBe("items.sku_1");
    // as in MongoDB, one element above the lower bound and another below the upper bound match together
    expect(engine.find("db", "b", { filter: { "items.sku": { $gt: 1.5, $lt: 1.7 } } }).length).toBe(1);
    expect(
      engine.find("db", "b", { filter: { "items.sku": { $elemMatch: { $gt: 1.5, $lt: 1.7 } } } }).length,
    ).toBe(0);
    expect(engine.find("db", "b", { filter: { "items.sku": { $gt: 2.5 } } }).length).toBe(1);
  });

  it("should refuse to build a unique index over existing duplicates and leave nothing behind", async () => {
    await engine.insert("db", "d", [{ e: 1 }, { e: 1 }], true);
    await expectError(engine.createIndexes("db", "d", [{ name: "e_1", key: { e: 1 }, unique: true }]), 11000);
    expect(engine.listIndexes("db", "d").map((i) => i.name)).toEqual(["_id_"]);
  });

  it("should treat identical createIndexes as a no-op and reject conflicting ones with 85/86", async () => {
    const r1 = await engine.createIndexes("db", "i", [{ name: "a_1", key: { a: 1 }, unique: true }]);
    expect(r1).toEqual({ createdCollectionAutomatically: true, numIndexesBefore: 1, numIndexesAfter: 2 });
    const r2 = await engine.createIndexes("db", "i", [{ name: "a_1", key: { a: 1 }, unique: true }]);
    expect(r2).toEqual({ createdCollectionAutomatically: false, numIndexesBefore: 2, numIndexesAfter: 2 });
    await expectError(engine.createIndexes("db", "i", [{ name: "a_1", key: { b: 1 } }]), 86);
    await expectError(engine.createIndexes("db", "i", [{ name: "a_1", key: { a: 1 } }]), 85);
    await expectError(engine.createIndexes("db", "i", [{ name: "other", key: { a: 1 }, unique: true }]), 85);
    await expectError(
      engine.createIndexes("db", "i", [{ name: "t", key: { body: "text" } }]),
      67,
      /text indexes are not supported/,
    );
    // all or nothing: a later conflicting spec leaves no index from the same call behind
    await expectError(
      engine.createIndexes("db", "i", [
        { name: "z_1", key: { z: 1 } },
        { name: "a_1", key: { q: 1 } },
      ]),
      86,
    );
    expect(engine.listIndexes("db", "i")).toEqual([
      { v: 2, key: { _id: 1 }, name: "_id_" },
      { v: 2, key: { a: 1 }, name: "a_1", unique: true },
    ]);
  });

  it("should drop indexes by name, names, key pattern and *; refuse _id_ and unknown names", async () => {
    await engine.createIndexes("db", "x", [
      { name: "a_1", key: { a: 1 } },
      { name: "b_1", key: { b: 1 } },
      { name: "c_1", key: { c: 1 } },
      { name: "d_1", key: { d: 1 } },
    ]);
    expect(await engine.dropIndexes("db", "x", "a_1")).toEqual({ nIndexesWas: 5 });
    await engine.dropIndexes("db", "x", { b: 1 });
    await engine.dropIndexes("db", "x", ["c_1"]);
    expect(engine.listIndexes("db", "x").map((i) => i.name)).toEqual(["_id_", "d_1"]);
    await expectError(engine.dropIndexes("db", "x", "nope"), 27, "index not found with name [nope]");
    await expectError(engine.dropIndexes("db", "x", "_id_"), 72);
    await engine.dropIndexes("db", "x", "*");
    expect(engine.listIndexes("db", "x").map((i) => i.name)).toEqual(["_id_"]);
    await expectError(() => engine.listIndexes("db", "missing"), 26);
  });

  it("should remove expired documents of a TTL index on its sweep interval", async () => {
    await engine.close();
    engine = await createEngine({ ttlIntervalMs: 50 });
    await engine.createIndexes("db", "sessions", [{ name: "at_1", key: { at: 1 }, expireAfterSeconds: 1 }]);
    await engine.insert(
      "db",
      "sessions",
      [
        { name: "old", at: new Date(Date.now() - 5000) },
        { name: "oldarray", at: [new Date(Date.now() + 60_000), new Date(Date.now() - 5000)] },
        { name: "fresh", at: new Date(Date.now() + 60_000) },
        { name: "notadate", at: "yesterday" },
      ],
      true,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(
      engine
        .find("db", "sessions", { filter: {} })
        .map((d) => d.name)
        .sort(),
    ).toEqual(["fresh", "notadate"]);
  });
});

describe("engine string order", () => {
  it("should compare strings by code point (UTF-8 byte order), with and without an index", async () => {
    await engine.insert("db", "s", [{ s: "😀" }, { s: "\uFF5E" }, { s: "a" }], true);
    expect(engine.find("db", "s", { filter: {}, sort: { s: 1 } }).map((d) => d.s)).toEqual([
      "a",
      "\uFF5E",
      "😀",
    ]);
    expect(engine.find("db", "s", { filter: { s: { $gt: "\uFF5E" } } }).map((d) => d.s)).toEqual(["😀"]);
    await engine.createIndexes("db", "s", [{ name: "s_1", key: { s: 1 } }]);
    expect(engine.find("db", "s", { filter: { s: { $gt: "\uFF5E" } } }).map((d) => d.s)).toEqual(["😀"]);
    expect(engine.lastPlan?.index).toBe("s_1");
    expect(engine.find("db", "s", { filter: {}, sort: { s: -1 }, limit: 1 }).map((d) => d.s)).toEqual(["😀"]);
  });
});

describe("engine aggregate planning", () => {
  it("should run a leading $match/$sort/$limit through the index", async () => {
    await fill(5000);
    await engine.createIndexes("db", "c", [{ name: "n_1", key: { n: 1 } }]);
    const r = await engine.aggregate("db", "c", [
      { $match: { n: { $gte: 10 } } },
      { $sort: { n: -1 } },
      { $skip: 1 },
      { $limit: 2 },
      { $project: { _id: 0, n: 1 } },
    ]);
    expect(r).toEqual([{ n: 4998 }, { n: 4997 }]);
    expect(engine.lastPlan).toMatchObject({ index: "n_1", sortedByIndex: true, docsExamined: 3 });
    const r2 = await engine.aggregate("db", "c", [
      { $match: { n: { $in: [3, 4] } } },
      { $sort: { group: -1 } },
      { $project: { _id: 0, n: 1 } },
    ]);
    expect(r2).toEqual([{ n: 4 }, { n: 3 }]);
  });
});

describe("engine 64-bit keys", () => {
  it("should keep Long values beyond 2^53 distinct and ordered in _id and unique indexes", async () => {
    const a = Long.fromString("9007199254740993");
    const b = Long.fromString("9007199254740994");
    await engine.createIndexes("db", "big", [{ name: "v_1", key: { v: 1 }, unique: true }]);
    const r = await engine.insert(
      "db",
      "big",
      [
        { _id: a, v: a },
        { _id: b, v: b },
        { _id: 2 ** 53, v: 2 ** 53 },
      ],
      true,
    );
    expect(r).toEqual({ n: 3, writeErrors: [] });
    expect(
      (await engine.insert("db", "big", [{ v: Long.fromString("9007199254740992") }], true)).writeErrors[0]
        .code,
    ).toBe(11000);
    expect(engine.find("db", "big", { filter: {}, sort: { v: -1 } }).map((d) => String(d.v))).toEqual([
      "9007199254740994",
      "9007199254740993",
      "9007199254740992",
    ]);
    expect(engine.find("db", "big", { filter: { v: { $gt: a } } }).map((d) => String(d.v))).toEqual([
      "9007199254740994",
    ]);
    expect(engine.find("db", "big", { filter: { _id: b } }).length).toBe(1);
  });
});

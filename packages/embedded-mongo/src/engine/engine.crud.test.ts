import { Long, ObjectId, Timestamp } from "bson";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEngine, type Engine, StoreError } from "./index";

let engine: Engine;

beforeEach(async () => {
  engine = await createEngine({});
});
afterEach(async () => {
  await engine.close();
});

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

async function one(u: object, doc: object = {}, extra: object = {}) {
  await engine.insert("db", "u", [{ _id: 1, ...doc }], true);
  const r = await engine.update("db", "u", [{ q: { _id: 1 }, u: u as never, ...extra }], true);
  return { r, doc: engine.find("db", "u", { filter: { _id: 1 } })[0] };
}

describe("engine collections", () => {
  it("should create, list with a filter, rename and drop collections and databases", async () => {
    await engine.createCollection("db", "a");
    await expectError(engine.createCollection("db", "a"), 48, "Collection db.a already exists.");
    await engine.insert("db", "b", [{ x: 1 }], true);
    expect(
      engine
        .listCollections("db")
        .map((c) => c.name)
        .sort(),
    ).toEqual(["a", "b"]);
    expect(engine.listCollections("db", { name: "a" }).map((c) => c.name)).toEqual(["a"]);
    await engine.renameCollection("db", "b", "db", "c", false);
    expect(engine.find("db", "c", { filter: {} }).length).toBe(1);
    await expectError(engine.renameCollection("db", "a", "db", "c", false), 48);
    await engine.renameCollection("db", "a", "db", "c", true);
    expect(engine.find("db", "c", { filter: {} }).length).toBe(0);
    expect(engine.listDatabases().map((d) => d.name)).toEqual(["db"]);
    expect(await engine.dropCollection("db", "c")).toBe(true);
    expect(await engine.dropCollection("db", "c")).toBe(false);
    await engine.insert("other", "x", [{ a: 1 }], true);
    expect(engine.dbStats("other")).toMatchObject({ db: "other", collections: 1, objects: 1, indexes: 1 });
    expect(engine.collStats("other", "x")).toMatchObject({ ns: "other.x", count: 1, nindexes: 1 });
    await engine.dropDatabase("other");
    expect(engine.listDatabases()).toEqual([]);
    await expectError(engine.createCollection("db", "capped", { capped: true, size: 100 }), 72);
  });
});

describe("engine inserts and queries", () => {
  it("should add an ObjectId _id first and keep ids of different types apart", async () => {
    await engine.insert("db", "c", [{ a: 1 }], true);
    const d = engine.find("db", "c", { filter: {} })[0];
    expect(d._id).toBeInstanceOf(ObjectId);
    expect(Object.keys(d)[0]).toBe("_id");
    const oid = new ObjectId();
    const r = await engine.insert(
      "db",
      "ids",
      [
        { _id: oid },
        { _id: oid.toHexString() },
        { _id: 1 },
        { _id: "1" },
        { _id: new Date(1) },
        { _id: { a: 1 } },
        { _id: { a: "1" } },
      ],
      true,
    );
    expect(r).toEqual({ n: 7, writeErrors: [] });
    const dup = await engine.insert("db", "ids", [{ _id: 1.0 }, { _id: Long.fromNumber(1) }], false);
    expect(dup.writeErrors.map((e) => [e.index, e.code])).toEqual([
      [0, 11000],
      [1, 11000],
    ]);
    expect(engine.find("db", "ids", { filter: { _id: Long.fromNumber(1) } }).length).toBe(1);
    expect(engine.find("db", "ids", { filter: { _id: oid.toHexString() } })[0]._id).toBe(oid.toHexString());
  });

  it("should stop an ordered batch at the first error and continue an unordered one", async () => {
    const ordered = await engine.insert("db", "o", [{ _id: 1 }, { _id: 1 }, { _id: 2 }], true);
    expect(ordered.n).toBe(1);
    expect(ordered.writeErrors.map((e) => e.index)).toEqual([1]);
    const unordered = await engine.insert(
      "db",
      "un",
      [{ _id: 1 }, { _id: 1 }, { _id: 2 }, { _id: 2 }],
      false,
    );
    expect(unordered.n).toBe(2);
    expect(unordered.writeErrors.map((e) => e.index)).toEqual([1, 3]);
    const upd = await engine.update(
      "db",
      "o",
      [
        { q: { _id: 1 }, u: { $set: { a: 1 } } },
        { q: { _id: 1 }, u: { $bad: { a: 1 } } },
        { q: { _id: 1 }, u: { $set: { b: 1 } } },
      ],
      true,
    );
    expect(upd).toMatchObject({ n: 1, nModified: 1 });
    expect(upd.writeErrors.map((e) => [e.index, e.code])).toEqual([[1, 9]]);
    const del = await engine.delete(
      "db",
      "un",
      [
        { q: { _id: 1 }, limit: 1 },
        { q: { $foo: 1 }, limit: 0 },
        { q: { _id: 2 }, limit: 1 },
      ],
      false,
    );
    expect(del.n).toBe(2);
    expect(del.writeErrors.map((e) => [e.index, e.code])).toEqual([[1, 2]]);
  });

  it("should compare ObjectId, Date and Long values correctly in filters and sort", async () => {
    const ids = [
      new ObjectId("000000000000000000000001"),
      new ObjectId("000000000000000000000002"),
      new ObjectId("000000000000000000000003"),
    ];
    await engine.insert(
      "db",
      "t",
      ids.map((id, i) => ({
        _id: id,
        at: new Date(2020, 0, i + 1),
        n: i === 2 ? Long.fromNumber(10) : i * 5,
        ref: ids[(i + 1) % 3],
      })),
      true,
    );
    expect(engine.find("db", "t", { filter: { _id: { $gt: ids[0] } } }).length).toBe(2);
    expect(
      engine.find("db", "t", { filter: { ref: { $in: [new ObjectId(ids[0].toHexString())] } } })[0]._id,
    ).toEqual(ids[2]);
    expect(engine.find("db", "t", { filter: { at: { $gte: new Date(2020, 0, 2) } } }).length).toBe(2);
    expect(engine.find("db", "t", { filter: {}, sort: { n: -1 } }).map((d) => String(d.n))).toEqual([
      "10",
      "5",
      "0",
    ]);
    expect(engine.find("db", "t", { filter: {}, sort: { _id: -1 } })[0]._id).toEqual(ids[2]);
    expect(engine.find("db", "t", { filter: { n: { $gt: 7 } } }).length).toBe(1);
  });

  it("should sort mixed types in BSON order and arrays by their smallest/largest element", async () => {
    await engine.insert(
      "db",
      "m",
      [
        { v: "b" },
        { v: 2 },
        { v: null },
        { v: new ObjectId() },
        { v: true },
        { v: new Date(0) },
        { v: { a: 1 } },
        { v: [5, -1] },
        {},
      ],
      true,
    );
    const asc = engine.find("db", "m", { filter: {}, sort: { v: 1 }, projection: { _id: 0 } });
    expect(
      asc.map((d) =>
        d.v instanceof ObjectId ? "oid" : d.v instanceof Date ? "date" : JSON.stringify(d.v ?? null),
      ),
    ).toEqual(["null", "null", "[5,-1]", "2", '"b"', '{"a":1}', "oid", "true", "date"]);
  });

  it("should project, skip and limit", async () => {
    await engine.insert(
      "db",
      "p",
      [1, 2, 3, 4, 5].map((n) => ({ _id: n, n, sub: { a: n, b: n } })),
      true,
    );
    const r = engine.find("db", "p", {
      filter: {},
      sort: { n: -1 },
      skip: 1,
      limit: 2,
      projection: { "sub.a": 1 },
    });
    expect(r).toEqual([
      { _id: 4, sub: { a: 4 } },
      { _id: 3, sub: { a: 3 } },
    ]);
    // the stored document is untouched by the projection
    expect(engine.find("db", "p", { filter: { _id: 4 } })[0]).toEqual({ _id: 4, n: 4, sub: { a: 4, b: 4 } });
    expect(engine.find("db", "p", { filter: {}, projection: { sub: 0 }, limit: 1 })).toEqual([
      { _id: 1, n: 1 },
    ]);
  });

  it("should reject unknown and unsupported query operators with MongoDB's codes", async () => {
    await engine.insert("db", "q", [{ a: 1 }], true);
    await expectError(
      () => engine.find("db", "q", { filter: { a: { $foo: 1 } } }),
      2,
      "unknown operator: $foo",
    );
    await expectError(
      () => engine.find("db", "q", { filter: { $where: "true" } }),
      2,
      "$where is not supported by the embedded store",
    );
    await expectError(
      () => engine.find("db", "q", { filter: { $text: { $search: "x" } } }),
      27,
      "text index required for $text query",
    );
    await expectError(() => engine.find("db", "q", { filter: { $or: [{ $text: { $search: "x" } }] } }), 27);
    await expectError(() => engine.count("db", "missing", { a: { $foo: 1 } }), 2);
  });

  it("should count with skip and limit and list distinct values with arrays flattened", async () => {
    await engine.insert(
      "db",
      "d",
      [
        { k: 1, tags: ["a", "b"], o: { x: 1 } },
        { k: 2, tags: ["b", "c"], o: { x: 1.0 } },
        { k: 3, tags: "d", o: { x: 2 } },
        { k: 4 },
      ],
      true,
    );
    expect(engine.count("db", "d")).toBe(4);
    expect(engine.count("db", "d", { k: { $gt: 1 } })).toBe(3);
    expect(engine.count("db", "d", { k: { $gt: 1 } }, 1, 1)).toBe(1);
    expect(engine.count("db", "d", {}, 3)).toBe(1);
    expect(engine.distinct("db", "d", "tags")).toEqual(["a", "b", "c", "d"]);
    expect(engine.distinct("db", "d", "o.x")).toEqual([1, 2]);
    expect(engine.distinct("db", "d", "tags", { k: 1 })).toEqual(["a", "b"]);
    expect(engine.distinct("db", "nope", "x")).toEqual([]);
  });
});

describe("engine updates", () => {
  it("should apply $set $unset $inc $mul $min $max $rename $currentDate", async () => {
    const { r, doc } = await one(
      {
        $set: { "a.b": 1 },
        $unset: { gone: "" },
        $inc: { n: 2 },
        $mul: { m: 3 },
        $min: { lo: 1 },
        $max: { hi: 9 },
        $rename: { old: "renamed" },
        $currentDate: { at: true, ts: { $type: "timestamp" } },
      },
      { gone: 1, n: 1, m: 2, lo: 5, hi: 5, old: "x" },
    );
    expect(r).toMatchObject({ n: 1, nModified: 1 });
    expect(doc).toMatchObject({ _id: 1, a: { b: 1 }, n: 3, m: 6, lo: 1, hi: 9, renamed: "x" });
    expect(doc.gone).toBeUndefined();
    expect(doc.old).toBeUndefined();
    expect(doc.at).toBeInstanceOf(Date);
    expect(doc.ts).toBeInstanceOf(Timestamp);
  });

  it("should apply array operators: $push with modifiers, $addToSet, $pop, $pull, $pullAll", async () => {
    const { doc } = await one(
      {
        $push: { p: { $each: [5, 1, 4], $sort: 1, $slice: 3 }, q: { $each: ["z"], $position: 0 } },
        $addToSet: { s: { $each: ["a", "c"] } },
        $pop: { pop: -1 },
        $pull: { pull: { $gte: 3 } },
        $pullAll: { pa: [1, 2] },
      },
      { p: [3], q: ["y"], s: ["a", "b"], pop: [1, 2, 3], pull: [1, 3, 5, 2], pa: [1, 2, 3, 1] },
    );
    expect(doc).toEqual({
      _id: 1,
      p: [1, 3, 4],
      q: ["z", "y"],
      s: ["a", "b", "c"],
      pop: [2, 3],
      pull: [1, 2],
      pa: [3],
    });
  });

  it("should update with positional $, $[] and $[<id>] with arrayFilters", async () => {
    await engine.insert(
      "db",
      "u",
      [
        {
          _id: 1,
          grades: [
            { g: 80, n: 1 },
            { g: 90, n: 2 },
            { g: 95, n: 3 },
          ],
          list: [1, 2, 3],
        },
      ],
      true,
    );
    await engine.update(
      "db",
      "u",
      [{ q: { _id: 1, "grades.g": 90 }, u: { $set: { "grades.$.n": 20 } } }],
      true,
    );
    await engine.update("db", "u", [{ q: { _id: 1 }, u: { $inc: { "list.$[]": 10 } } }], true);
    await engine.update(
      "db",
      "u",
      [
        {
          q: { _id: 1 },
          u: { $set: { "grades.$[hi].top": true } },
          arrayFilters: [{ "hi.g": { $gte: 90 } }],
        },
      ],
      true,
    );
    expect(engine.find("db", "u", { filter: { _id: 1 } })[0]).toEqual({
      _id: 1,
      grades: [
        { g: 80, n: 1 },
        { g: 90, n: 20, top: true },
        { g: 95, n: 3, top: true },
      ],
      list: [11, 12, 13],
    });
  });

  it("should replace documents keeping _id and refuse to change _id (66)", async () => {
    await engine.insert("db", "r", [{ _id: 1, a: 1, b: 2 }], true);
    const r = await engine.update("db", "r", [{ q: { _id: 1 }, u: { c: 3 } }], true);
    expect(r).toMatchObject({ n: 1, nModified: 1 });
    expect(engine.find("db", "r", { filter: {} })).toEqual([{ _id: 1, c: 3 }]);
    const bad = await engine.update("db", "r", [{ q: { _id: 1 }, u: { _id: 2, c: 4 } }], true);
    expect(bad.writeErrors[0].code).toBe(66);
    const bad2 = await engine.update("db", "r", [{ q: { _id: 1 }, u: { $set: { _id: 5 } } }], true);
    expect(bad2.writeErrors[0].code).toBe(66);
    expect(engine.find("db", "r", { filter: {} })).toEqual([{ _id: 1, c: 3 }]);
  });

  it("should run pipeline updates", async () => {
    const { doc } = await one([{ $set: { total: { $add: ["$a", "$b"] } } }, { $unset: "b" }], { a: 1, b: 2 });
    expect(doc).toEqual({ _id: 1, a: 1, total: 3 });
  });

  it("should reject bad updates with MongoDB's codes and change nothing", async () => {
    await engine.insert("db", "e", [{ _id: 1, s: "x", n: 1, arr: 5 }], true);
    const cases: [object, number][] = [
      [{ $foo: { a: 1 } }, 9],
      [{ $set: { a: 1 }, $inc: { a: 1 } }, 40],
      [{ $set: { "a.b": 1, a: 2 } }, 40],
      [{ $inc: { s: 1 } }, 14],
      [{ $inc: { n: "1" } }, 14],
      [{ $push: { arr: 1 } }, 2],
      [{ $set: { "n.x": 1 } }, 28],
    ];
    for (const [u, code] of cases) {
      const r = await engine.update("db", "e", [{ q: { _id: 1 }, u: u as never }], true);
      expect([JSON.stringify(u), r.writeErrors[0]?.code]).toEqual([JSON.stringify(u), code]);
    }
    const msg = await engine.update("db", "e", [{ q: {}, u: { $foo: { a: 1 } } }], true);
    expect(msg.writeErrors[0].errmsg).toBe(
      "Unknown modifier: $foo. Expected a valid update modifier or pipeline-style update specified as an array",
    );
    expect(engine.find("db", "e", { filter: {} })).toEqual([{ _id: 1, s: "x", n: 1, arr: 5 }]);
  });

  it("should upsert from the query's equalities and apply $setOnInsert only on insert", async () => {
    const r = await engine.update(
      "db",
      "up",
      [
        {
          q: { email: "a@b.dk", $and: [{ org: { $eq: 7 } }], age: { $gt: 3 } },
          u: { $set: { name: "A" }, $setOnInsert: { created: 1 } },
          upsert: true,
        },
      ],
      true,
    );
    expect(r.n).toBe(1);
    expect(r.upserted[0].index).toBe(0);
    const doc = engine.find("db", "up", { filter: {} })[0];
    expect(doc).toEqual({ _id: r.upserted[0]._id, email: "a@b.dk", org: 7, name: "A", created: 1 });
    const again = await engine.update(
      "db",
      "up",
      [{ q: { email: "a@b.dk" }, u: { $set: { name: "B" }, $setOnInsert: { created: 2 } }, upsert: true }],
      true,
    );
    expect(again).toMatchObject({ n: 1, nModified: 1, upserted: [] });
    expect(engine.find("db", "up", { filter: {} })[0]).toMatchObject({ name: "B", created: 1 });
    const repl = await engine.update("db", "up", [{ q: { _id: 42 }, u: { x: 1 }, upsert: true }], true);
    expect(repl.upserted).toEqual([{ index: 0, _id: 42 }]);
    expect(engine.find("db", "up", { filter: { _id: 42 } })[0]).toEqual({ _id: 42, x: 1 });
  });

  it("should update many with multi and count matched vs modified", async () => {
    await engine.insert("db", "mm", [{ a: 1 }, { a: 1 }, { a: 2 }], true);
    const r = await engine.update(
      "db",
      "mm",
      [{ q: { a: { $gte: 1 } }, u: { $set: { a: 1 } }, multi: true }],
      true,
    );
    expect(r).toMatchObject({ n: 3, nModified: 1 });
  });

  it("should leave a document and all its indexes unchanged when an update hits a duplicate key", async () => {
    await engine.createIndexes("db", "at", [
      { name: "a_1", key: { a: 1 } },
      { name: "email_1", key: { email: 1 }, unique: true },
    ]);
    await engine.insert(
      "db",
      "at",
      [
        { _id: 1, a: "one", email: "x" },
        { _id: 2, a: "two", email: "y" },
      ],
      true,
    );
    const r = await engine.update(
      "db",
      "at",
      [{ q: { _id: 2 }, u: { $set: { a: "changed", email: "x" } } }],
      true,
    );
    expect(r.writeErrors[0].code).toBe(11000);
    expect(r.n).toBe(0);
    expect(engine.find("db", "at", { filter: { _id: 2 } })[0]).toEqual({ _id: 2, a: "two", email: "y" });
    expect(engine.find("db", "at", { filter: { a: "changed" } })).toEqual([]);
    expect(engine.find("db", "at", { filter: { a: "two" } }).length).toBe(1);
    expect(engine.find("db", "at", { filter: { email: "y" } }).length).toBe(1);
    expect(engine.lastPlan?.index).toBe("email_1");
  });
});

describe("engine findAndModify", () => {
  beforeEach(async () => {
    await engine.insert(
      "db",
      "f",
      [
        { _id: 1, n: 1, s: "a" },
        { _id: 2, n: 2, s: "a" },
      ],
      true,
    );
  });

  it("should return the old or new document, honouring sort and fields", async () => {
    const old = await engine.findAndModify("db", "f", {
      query: { s: "a" },
      sort: { n: -1 },
      update: { $inc: { n: 10 } },
    });
    expect(old).toEqual({
      value: { _id: 2, n: 2, s: "a" },
      lastErrorObject: { n: 1, updatedExisting: true },
    });
    const nu = await engine.findAndModify("db", "f", {
      query: { _id: 1 },
      update: { $set: { s: "b" } },
      new: true,
      fields: { s: 1 },
    });
    expect(nu.value).toEqual({ _id: 1, s: "b" });
  });

  it("should upsert with $setOnInsert and report upserted", async () => {
    const r = await engine.findAndModify("db", "f", {
      query: { _id: 9 },
      update: { $set: { n: 9 }, $setOnInsert: { s: "new" } },
      upsert: true,
      new: true,
    });
    expect(r).toEqual({
      value: { _id: 9, n: 9, s: "new" },
      lastErrorObject: { n: 1, updatedExisting: false, upserted: 9 },
    });
    const none = await engine.findAndModify("db", "f", { query: { _id: 99 }, update: { $set: { n: 1 } } });
    expect(none).toEqual({ value: null, lastErrorObject: { n: 0, updatedExisting: false } });
  });

  it("should remove and run pipeline updates", async () => {
    const r = await engine.findAndModify("db", "f", { query: { _id: 1 }, remove: true });
    expect(r).toEqual({ value: { _id: 1, n: 1, s: "a" }, lastErrorObject: { n: 1 } });
    expect(engine.count("db", "f")).toBe(1);
    const p = await engine.findAndModify("db", "f", {
      query: { _id: 2 },
      update: [{ $set: { d: { $multiply: ["$n", 2] } } }],
      new: true,
    });
    expect(p.value).toEqual({ _id: 2, n: 2, s: "a", d: 4 });
    await expectError(
      engine.findAndModify("db", "f", { query: {}, remove: true, update: { $set: { a: 1 } } }),
      9,
    );
  });

  it("should throw duplicate key errors with keyPattern and keyValue", async () => {
    await engine
      .createIndexes("db", "f", [{ name: "s_1", key: { s: 1 }, unique: true }])
      .catch(() => undefined);
    await engine.createIndexes("db", "g", [{ name: "s_1", key: { s: 1 }, unique: true }]);
    await engine.insert(
      "db",
      "g",
      [
        { _id: 1, s: "a" },
        { _id: 2, s: "b" },
      ],
      true,
    );
    const e = await expectError(
      engine.findAndModify("db", "g", { query: { _id: 2 }, update: { $set: { s: "a" } } }),
      11000,
    );
    expect(e.extra).toEqual({ keyPattern: { s: 1 }, keyValue: { s: "a" } });
  });
});

describe("engine aggregate", () => {
  it("should $group, $lookup from the same database and never modify stored documents", async () => {
    await engine.insert(
      "db",
      "orders",
      [
        { _id: 1, user: "u1", amount: 5, meta: { a: 1 } },
        { _id: 2, user: "u1", amount: 7, meta: { a: 2 } },
        { _id: 3, user: "u2", amount: 1, meta: { a: 3 } },
      ],
      true,
    );
    await engine.insert(
      "db",
      "users",
      [
        { _id: "u1", name: "Ada" },
        { _id: "u2", name: "Bo" },
      ],
      true,
    );
    const g = await engine.aggregate("db", "orders", [
      { $match: { amount: { $gt: 1 } } },
      { $group: { _id: "$user", total: { $sum: "$amount" } } },
      { $lookup: { from: "users", localField: "_id", foreignField: "_id", as: "u" } },
      { $set: { name: { $first: "$u.name" } } },
      { $project: { u: 0 } },
    ]);
    expect(g).toEqual([{ _id: "u1", total: 12, name: "Ada" }]);
    await engine.aggregate("db", "orders", [{ $addFields: { "meta.b": 1 } }, { $project: { "meta.a": 0 } }]);
    expect(engine.find("db", "orders", { filter: { _id: 1 } })[0]).toEqual({
      _id: 1,
      user: "u1",
      amount: 5,
      meta: { a: 1 },
    });
    const count = await engine.aggregate("db", "orders", [
      { $match: { user: "u1" } },
      { $group: { _id: 1, n: { $sum: 1 } } },
    ]);
    expect(count).toEqual([{ _id: 1, n: 2 }]);
  });

  it("should write results with $out and $merge", async () => {
    await engine.insert(
      "db",
      "src",
      [
        { _id: 1, v: 1 },
        { _id: 2, v: 2 },
      ],
      true,
    );
    expect(
      await engine.aggregate("db", "src", [{ $set: { w: { $multiply: ["$v", 10] } } }, { $out: "dst" }]),
    ).toEqual([]);
    expect(engine.find("db", "dst", { filter: {} })).toEqual([
      { _id: 1, v: 1, w: 10 },
      { _id: 2, v: 2, w: 20 },
    ]);
    await engine.insert("db", "src", [{ _id: 3, v: 3 }], true);
    await engine.aggregate("db", "src", [
      { $project: { v: 1, merged: { $literal: true } } },
      { $merge: { into: "dst" } },
    ]);
    expect(engine.find("db", "dst", { filter: {}, sort: { _id: 1 } })).toEqual([
      { _id: 1, v: 1, w: 10, merged: true },
      { _id: 2, v: 2, w: 20, merged: true },
      { _id: 3, v: 3, merged: true },
    ]);
  });

  it("should run collection-less $documents and refuse unsupported stages clearly", async () => {
    expect(
      await engine.aggregate("db", null, [{ $documents: [{ a: 1 }, { a: 2 }] }, { $match: { a: 2 } }]),
    ).toEqual([{ a: 2 }]);
    await expectError(
      engine.aggregate("db", "x", [{ $changeStream: {} }]),
      40573,
      "The $changeStream stage is only supported on replica sets",
    );
    await expectError(engine.aggregate("db", "x", [{ $search: {} }]), 40324, /Atlas Search/);
    await expectError(engine.aggregate("db", "x", [{ $vectorSearch: {} }]), 40324);
    await expectError(engine.aggregate("db", "x", [{ $bogus: {} }]), 40324);
    await expectError(engine.aggregate("db", "x", [{ $out: "y" }, { $match: {} }]), 40601);
  });
});

describe("engine aggregate details", () => {
  it("should answer countDocuments-style pipelines with skip and limit", async () => {
    await engine.insert(
      "db",
      "n",
      [1, 2, 3, 4, 5].map((v) => ({ v })),
      true,
    );
    const pipe = (extra: object[]) =>
      engine.aggregate("db", "n", [
        { $match: { v: { $gte: 2 } } },
        ...extra,
        { $group: { _id: 1, n: { $sum: 1 } } },
      ]);
    expect(await pipe([])).toEqual([{ _id: 1, n: 4 }]);
    expect(await pipe([{ $skip: 1 }, { $limit: 2 }])).toEqual([{ _id: 1, n: 2 }]);
    expect(await pipe([{ $skip: 10 }])).toEqual([]);
  });

  it("should $unionWith and $graphLookup other collections of the same database", async () => {
    await engine.insert("db", "a", [{ _id: 1, x: "a" }], true);
    await engine.insert("db", "b", [{ _id: 2, x: "b" }], true);
    expect(
      (await engine.aggregate("db", "a", [{ $unionWith: "b" }, { $sort: { _id: 1 } }])).map((d) => d.x),
    ).toEqual(["a", "b"]);
    await engine.insert(
      "db",
      "emp",
      [
        { _id: 1, boss: null },
        { _id: 2, boss: 1 },
        { _id: 3, boss: 2 },
      ],
      true,
    );
    const chain = await engine.aggregate("db", "emp", [
      { $match: { _id: 3 } },
      {
        $graphLookup: {
          from: "emp",
          startWith: "$boss",
          connectFromField: "boss",
          connectToField: "_id",
          as: "chain",
        },
      },
    ]);
    expect(chain[0].chain.map((d: { _id: number }) => d._id).sort()).toEqual([1, 2]);
  });

  it("should sort Long values numerically and match $type objectId in aggregation and queries", async () => {
    await engine.insert(
      "db",
      "l",
      [{ v: Long.fromString("10") }, { v: 9 }, { v: Long.fromString("100") }, { v: new ObjectId() }],
      true,
    );
    const sorted = await engine.aggregate("db", "l", [
      { $match: { v: { $type: "number" } } },
      { $sort: { v: 1 } },
    ]);
    expect(sorted.map((d) => String(d.v))).toEqual(["9", "10", "100"]);
    expect(engine.count("db", "l", { v: { $type: "objectId" } })).toBe(1);
    expect(engine.count("db", "l", { v: { $in: [Long.fromNumber(10), 100] } })).toBe(2);
  });
});

describe("engine conformance details", () => {
  it("should refuse mixing inclusion and exclusion in a projection (31254) but allow excluding _id", async () => {
    await engine.insert("db", "pr", [{ _id: 1, name: "a", age: 3 }], true);
    await expectError(
      () => engine.find("db", "pr", { filter: {}, projection: { name: 1, age: 0 } }),
      31254,
      "Cannot do exclusion on field age in inclusion projection",
    );
    await expectError(
      () => engine.find("db", "pr", { filter: {}, projection: { age: 0, name: 1 } }),
      31254,
      "Cannot do inclusion on field name in exclusion projection",
    );
    expect(engine.find("db", "pr", { filter: {}, projection: { name: 1, _id: 0 } })).toEqual([{ name: "a" }]);
  });

  it("should return reverse insertion order for $natural: -1", async () => {
    await engine.insert(
      "db",
      "nat",
      [3, 1, 2].map((_id) => ({ _id })),
      true,
    );
    expect(engine.find("db", "nat", { filter: {}, sort: { $natural: -1 } }).map((d) => d._id)).toEqual([
      2, 1, 3,
    ]);
    expect(
      engine.find("db", "nat", { filter: {}, sort: { $natural: 1 }, limit: 2 }).map((d) => d._id),
    ).toEqual([3, 1]);
  });

  it("should refuse a $rename onto the same field and parallel arrays in a compound index", async () => {
    const { r } = await one({ $rename: { name: "name" } }, { name: "x" });
    expect(r.writeErrors[0]).toMatchObject({
      code: 2,
      errmsg: 'The source and target field for $rename must differ: name: "name"',
    });
    await engine.createIndexes("db", "par", [{ name: "a_1_b_1", key: { a: 1, b: 1 } }]);
    const ins = await engine.insert(
      "db",
      "par",
      [
        { a: [1, 2], b: [3, 4] },
        { a: [1, 2], b: 3 },
      ],
      false,
    );
    expect(ins.n).toBe(1);
    expect(ins.writeErrors[0]).toMatchObject({ index: 0, code: 171 });
  });
});

describe("engine arrayFilters validation", () => {
  it("should require a filter for every identifier, one filter per identifier, and no unused filters", async () => {
    await engine.insert("db", "af", [{ _id: 1, arr: [{ x: 1 }, { x: 2 }] }], true);
    const run = async (u: object, arrayFilters?: object[]) =>
      (
        await engine.update(
          "db",
          "af",
          [{ q: { _id: 1 }, u: u as never, arrayFilters: arrayFilters as never }],
          true,
        )
      ).writeErrors[0];
    expect(await run({ $set: { "arr.$[q].z": 0 } })).toMatchObject({
      code: 2,
      errmsg: "No array filter found for identifier 'q' in path 'arr.$[q].z'",
    });
    expect(await run({ $set: { "arr.$[q].z": 0 } }, [{ "q.x": 1 }, { "q.x": 2 }])).toMatchObject({ code: 9 });
    expect(await run({ $set: { "arr.$[q].z": 0 } }, [{ "q.x": 1 }, { "r.x": 2 }])).toMatchObject({ code: 9 });
    expect(await run({ $set: { "arr.$[q].z": 0 } }, [{ "q.x": 2 }])).toBeUndefined();
    expect(engine.find("db", "af", { filter: {} })[0].arr).toEqual([{ x: 1 }, { x: 2, z: 0 }]);
  });
});

describe("engine window fields, $jsonSchema and JavaScript", () => {
  beforeEach(async () => {
    await engine.insert(
      "db",
      "w",
      [
        { _id: 1, age: 25, tags: ["a"] },
        { _id: 2, age: 52 },
        { _id: 3, age: 40, tags: [] },
      ],
      true,
    );
  });

  it("should compute running totals with $setWindowFields", async () => {
    const r = await engine.aggregate("db", "w", [
      {
        $setWindowFields: {
          sortBy: { _id: 1 },
          output: { running: { $sum: "$age", window: { documents: ["unbounded", "current"] } } },
        },
      },
      { $project: { running: 1 } },
    ]);
    expect(r.map((d) => d.running)).toEqual([25, 77, 117]);
  });

  it("should filter with the common $jsonSchema keywords and refuse unknown ones", async () => {
    const found = engine.find("db", "w", {
      filter: { $jsonSchema: { required: ["tags"], properties: { age: { bsonType: "int", minimum: 30 } } } },
    });
    expect(found.map((d) => d._id)).toEqual([3]);
    await expectError(() => engine.find("db", "w", { filter: { $jsonSchema: { oneOf: [] } } }), 2, /oneOf/);
  });

  it("should refuse server-side JavaScript wherever it appears", async () => {
    await expectError(
      () =>
        engine.find("db", "w", {
          filter: { $expr: { $function: { body: "return true", args: [], lang: "js" } } },
        }),
      2,
      "$function is not supported by the embedded store",
    );
    await expectError(
      engine.aggregate("db", "w", [{ $group: { _id: null, x: { $accumulator: {} } } }]),
      2,
      "$accumulator is not supported by the embedded store",
    );
    const u = await engine.update(
      "db",
      "w",
      [{ q: {}, u: [{ $set: { x: { $function: { body: "1", args: [], lang: "js" } } } }] }],
      true,
    );
    expect(u.writeErrors[0].code).toBe(2);
  });
});

describe("engine issues reported by the wire layer", () => {
  it("should refuse to $set a field inside a null or scalar value (28) and create missing parents", async () => {
    await engine.insert("db", "np", [{ _id: 40, parent: null, n: 1 }], true);
    const r = await engine.update("db", "np", [{ q: { _id: 40 }, u: { $set: { "parent.child": 1 } } }], true);
    expect(r.writeErrors[0]).toMatchObject({
      code: 28,
      errmsg: "Cannot create field 'child' in element {parent: null}",
    });
    expect(
      (await engine.update("db", "np", [{ q: { _id: 40 }, u: { $set: { "n.x": 1 } } }], true)).writeErrors[0]
        .code,
    ).toBe(28);
    await engine.update("db", "np", [{ q: { _id: 40 }, u: { $set: { "fresh.child": 1 } } }], true);
    expect(engine.find("db", "np", { filter: {} })).toEqual([
      { _id: 40, parent: null, n: 1, fresh: { child: 1 } },
    ]);
  });

  it("should match $mod only on numbers", async () => {
    await engine.insert("db", "mod", [{ m: null }, { m: 10 }, { m: "10" }, { m: [3, 15] }, {}], true);
    expect(engine.count("db", "mod", { m: { $mod: [5, 0] } })).toBe(2);
  });

  it("should treat a lone $slice projection as keeping every other field", async () => {
    await engine.insert("db", "sl", [{ _id: 1, name: "a", city: "b", tags: [1, 2, 3] }], true);
    expect(engine.find("db", "sl", { filter: {}, projection: { tags: { $slice: -1 } } })).toEqual([
      { _id: 1, name: "a", city: "b", tags: [3] },
    ]);
    expect(
      engine.find("db", "sl", { filter: {}, projection: { tags: { $slice: [1, 1] }, city: 0, _id: 0 } }),
    ).toEqual([{ name: "a", tags: [2] }]);
    expect(engine.find("db", "sl", { filter: {}, projection: { name: 1, tags: { $slice: 1 } } })).toEqual([
      { _id: 1, name: "a", tags: [1] },
    ]);
    expect(engine.find("db", "sl", { filter: {} })[0].tags).toEqual([1, 2, 3]);
  });

  it("should return no document from $count over an empty input", async () => {
    await engine.insert("db", "cnt", [{ city: "Odense" }], true);
    expect(await engine.aggregate("db", "cnt", [{ $match: { city: "Roskilde" } }, { $count: "n" }])).toEqual(
      [],
    );
    expect(await engine.aggregate("db", "cnt", [{ $count: "n" }])).toEqual([{ n: 1 }]);
  });

  it("should refuse an array-filter update on a missing or non-array field", async () => {
    await engine.insert("db", "afm", [{ _id: 5 }, { _id: 6, tags: "x" }], true);
    const r = await engine.update(
      "db",
      "afm",
      [{ q: { _id: 5 }, u: { $set: { "tags.$[t]": "x" } }, arrayFilters: [{ t: "a" }] }],
      true,
    );
    expect(r.writeErrors[0]).toMatchObject({
      code: 2,
      errmsg: "The path 'tags' must exist in the document in order to apply array updates.",
    });
    const r2 = await engine.update("db", "afm", [{ q: { _id: 6 }, u: { $set: { "tags.$[]": "y" } } }], true);
    expect(r2.writeErrors[0]).toMatchObject({
      code: 2,
      errmsg: 'Cannot apply array updates to non-array element tags: "x"',
    });
  });
});

describe("engine 64-bit sums", () => {
  it("should $sum Long values exactly and return a Long", async () => {
    await engine.insert(
      "db",
      "big",
      [{ v: Long.fromString("9007199254740993") }, { v: 1 }, { v: Long.fromString("10") }, { v: "x" }],
      true,
    );
    const [r] = await engine.aggregate("db", "big", [
      { $group: { _id: null, s: { $sum: "$v" }, a: { $avg: "$v" } } },
    ]);
    expect(r.s).toBeInstanceOf(Long);
    expect(r.s.toString()).toBe("9007199254741004");
    expect(Math.abs(r.a - 9007199254741004 / 3)).toBeLessThanOrEqual(1);
    const [small] = await engine.aggregate("db", "big", [
      { $match: { v: { $lt: 5 } } },
      { $group: { _id: null, s: { $sum: "$v" } } },
    ]);
    expect(small.s).toBe(1);
  });
});

describe("engine $min/$max in BSON order", () => {
  it("should compare Long, numbers and dates correctly in $min/$max updates and accumulators", async () => {
    const huge = Long.fromString("-9007199254740993");
    const { r, doc } = await one(
      { $max: { a: 5, d: new Date(2000) }, $min: { b: 3, c: 1 } },
      { a: huge, b: Long.fromString("9007199254740993"), d: new Date(1000) },
    );
    expect(r.nModified).toBe(1);
    expect(doc).toEqual({ _id: 1, a: 5, b: 3, c: 1, d: new Date(2000) });
    const none = await engine.update("db", "u", [{ q: { _id: 1 }, u: { $max: { a: 4 } } }], true);
    expect(none).toMatchObject({ n: 1, nModified: 0 });
    await engine.insert("db", "mm", [{ v: huge }, { v: 1 }, { v: null }], true);
    expect(
      await engine.aggregate("db", "mm", [{ $group: { _id: null, lo: { $min: "$v" }, hi: { $max: "$v" } } }]),
    ).toEqual([{ _id: null, lo: huge, hi: 1 }]);
  });
});

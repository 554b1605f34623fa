import { type Collection, type Document, Long, MongoBulkWriteError, ObjectId } from "mongodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { failure, openTarget, type Target } from "./harness";

let target: Target;
let coll: Collection;
let n = 0;

beforeAll(async () => {
  target = await openTarget("crud");
});
afterAll(() => target?.close());
beforeEach(() => {
  coll = target.client.db(target.dbName).collection(`c${++n}`);
});

const db = () => target.client.db(target.dbName);

const people = [
  { _id: 1, name: "Anna", age: 31, city: "Aarhus", tags: ["a", "b"] },
  { _id: 2, name: "Bo", age: 25, city: "Odense", tags: ["b"] },
  { _id: 3, name: "Carl", age: 40, city: "Aarhus", tags: [] },
  { _id: 4, name: "Dorte", age: 25, city: "København", tags: ["a", "c"] },
  { _id: 5, name: "Erik", age: 52, city: "Odense" },
];

describe("insert", () => {
  it("should insert one and many, adding _id when absent", async () => {
    const one = await coll.insertOne({ a: 1 });
    expect(one.insertedId).toBeInstanceOf(ObjectId);
    const many = await coll.insertMany([{ a: 2 }, { a: 3 }]);
    expect(many.insertedCount).toBe(2);
    const raw = await db().command({ insert: coll.collectionName, documents: [{ x: 1 }] });
    expect(raw).toMatchObject({ ok: 1, n: 1 });
    const stored = await coll.find({ x: 1 }).toArray();
    expect(stored[0]._id).toBeInstanceOf(ObjectId);
    expect(await coll.countDocuments()).toBe(4);
  });

  it("should keep BSON types round-trip", async () => {
    const doc = {
      _id: new ObjectId(),
      s: "tekst æøå",
      d: new Date("2026-01-02T03:04:05.678Z"),
      n: 1.5,
      i: 42,
      b: true,
      nul: null,
      arr: [1, "two", { three: 3 }],
      nested: { deep: { deeper: "x" } },
    };
    await coll.insertOne(doc);
    expect(await coll.findOne({ _id: doc._id })).toEqual(doc);
  });

  it("should report duplicate _id in an ordered batch and stop there", async () => {
    await coll.insertOne({ _id: 2 } as Document);
    const err = (await coll
      .insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }] as Document[])
      .catch((e) => e)) as MongoBulkWriteError;
    expect(err).toBeInstanceOf(MongoBulkWriteError);
    expect(err.insertedCount).toBe(1);
    expect(err.writeErrors).toHaveLength(1);
    const we = Array.isArray(err.writeErrors) ? err.writeErrors[0] : err.writeErrors;
    expect(we.index).toBe(1);
    expect(we.code).toBe(11000);
    expect(await coll.countDocuments()).toBe(2);
  });

  it("should continue an unordered batch past errors and report each with its index", async () => {
    await coll.insertOne({ _id: 2 } as Document);
    const reply = await db().command({
      insert: coll.collectionName,
      documents: [{ _id: 1 }, { _id: 2 }, { _id: 3 }, { _id: 1 }],
      ordered: false,
    });
    expect(reply.ok).toBe(1);
    expect(reply.n).toBe(2);
    expect(reply.writeErrors.map((e: { index: number }) => e.index)).toEqual([1, 3]);
    expect(reply.writeErrors[0]).toMatchObject({ code: 11000, keyPattern: { _id: 1 }, keyValue: { _id: 2 } });
    expect(reply.writeErrors[0].errmsg).toMatch(
      /^E11000 duplicate key error collection: .*\.c\d+ index: _id_ dup key: \{ _id: 2 \}$/,
    );
  });

  it("should reject a document over 16 MiB with a too-large write error and keep the rest of the batch", async () => {
    const big = { _id: "big", blob: "x".repeat(16 * 1024 * 1024 + 10) };
    const err = await failure(coll.insertOne(big as Document));
    expect([2, 10334]).toContain(err.code);
    expect(err.message).toMatch(/object to insert too large\. size in bytes: \d+, max size: 16777216/);
    const reply = await db().command({
      insert: coll.collectionName,
      documents: [{ _id: "small1" }, big, { _id: "small2" }],
      ordered: false,
    });
    expect(reply.n).toBe(2);
    expect(reply.writeErrors).toHaveLength(1);
    expect(reply.writeErrors[0].index).toBe(1);
    expect(await coll.countDocuments()).toBe(2);
    // ordered: the batch stops at the oversized document
    const ordered = await db().command({
      insert: coll.collectionName,
      documents: [{ _id: "small3" }, big, { _id: "small4" }],
    });
    expect(ordered.n).toBe(1);
    expect(ordered.writeErrors.map((e: { index: number }) => e.index)).toEqual([1]);
    expect(await coll.countDocuments()).toBe(3);
  }, 60_000);
});

describe("find", () => {
  beforeEach(async () => {
    await coll.insertMany(people as Document[]);
  });

  it("should filter, sort, project, skip and limit", async () => {
    const docs = await coll
      .find({ age: { $gte: 25 } }, { projection: { name: 1, _id: 0 } })
      .sort({ age: -1, name: 1 })
      .skip(1)
      .limit(3)
      .toArray();
    expect(docs).toEqual([{ name: "Carl" }, { name: "Anna" }, { name: "Bo" }]);
  });

  it("should support exclusion projections, $in, $or, $regex, $exists, $elemMatch and dotted paths", async () => {
    expect(
      (
        await coll
          .find({ city: { $in: ["Odense"] } }, { projection: { tags: 0 } })
          .sort({ _id: 1 })
          .toArray()
      ).map((d) => d.name),
    ).toEqual(["Bo", "Erik"]);
    expect(await coll.countDocuments({ $or: [{ age: 25 }, { name: /^C/ }] })).toBe(3);
    expect(await coll.countDocuments({ tags: { $exists: false } })).toBe(1);
    expect(await coll.countDocuments({ tags: "a" })).toBe(2);
    expect(await coll.countDocuments({ tags: { $size: 0 } })).toBe(1);
    expect(await coll.countDocuments({ tags: { $elemMatch: { $in: ["c"] } } })).toBe(1);
    const nested = db().collection(`${coll.collectionName}_nested`);
    await nested.insertMany([
      { p: { q: { r: 1 } } },
      { p: [{ q: { r: 2 } }, { q: { r: 3 } }] },
      { p: { q: 5 } },
    ]);
    expect(await nested.countDocuments({ "p.q.r": { $gte: 2 } })).toBe(1);
    expect(await nested.countDocuments({ "p.q": { $exists: true } })).toBe(3);
    expect(await nested.findOne({ "p.q.r": 1 }, { projection: { "p.q.r": 1, _id: 0 } })).toEqual({
      p: { q: { r: 1 } },
    });
    const doc = await coll.findOne({ _id: 1 } as Document, { projection: { tags: { $slice: 1 }, name: 1 } });
    expect(doc).toEqual({ _id: 1, name: "Anna", tags: ["a"] });
  });

  it("should treat a lone $slice projection as keeping every other field", async () => {
    const doc = await coll.findOne({ _id: 1 } as Document, { projection: { tags: { $slice: -1 } } });
    expect(doc).toEqual({ _id: 1, name: "Anna", age: 31, city: "Aarhus", tags: ["b"] });
    const withExclusion = await coll.findOne({ _id: 4 } as Document, {
      projection: { tags: { $slice: [1, 1] }, city: 0, _id: 0 },
    });
    expect(withExclusion).toEqual({ name: "Dorte", age: 25, tags: ["c"] });
  });

  it("should honour a negative limit as a single batch", async () => {
    const docs = await coll.find({}).sort({ _id: 1 }).limit(-2).toArray();
    expect(docs.map((d) => d._id)).toEqual([1, 2]);
    const raw = await db().command({
      find: coll.collectionName,
      sort: { _id: 1 },
      limit: 2,
      singleBatch: true,
      batchSize: 1,
    });
    expect(raw.cursor.firstBatch).toHaveLength(1);
    expect(raw.cursor.id.toString()).toBe("0");
  });

  it("should return batchSize documents first and the rest with getMore", async () => {
    const first = await db().command({
      find: coll.collectionName,
      filter: {},
      sort: { _id: 1 },
      batchSize: 2,
    });
    expect(first.cursor.ns).toBe(`${target.dbName}.${coll.collectionName}`);
    expect(first.cursor.firstBatch.map((d: Document) => d._id)).toEqual([1, 2]);
    expect(first.cursor.id.toString()).not.toBe("0");
    const more = await db().command({
      getMore: first.cursor.id,
      collection: coll.collectionName,
      batchSize: 2,
    });
    expect(more.cursor.nextBatch.map((d: Document) => d._id)).toEqual([3, 4]);
    const last = await db().command({ getMore: first.cursor.id, collection: coll.collectionName });
    expect(last.cursor.nextBatch.map((d: Document) => d._id)).toEqual([5]);
    expect(last.cursor.id.toString()).toBe("0");
    const gone = await failure(db().command({ getMore: first.cursor.id, collection: coll.collectionName }));
    expect(gone.code).toBe(43);
    expect(gone.codeName).toBe("CursorNotFound");
  });

  it("should accept and ignore collation", async () => {
    const docs = await coll
      .find({ _id: { $lte: 2 } } as Document, { collation: { locale: "simple" } })
      .toArray();
    expect(docs).toHaveLength(2);
  });

  it("should reject an unknown query operator with BadValue", async () => {
    const err = await failure(coll.find({ age: { $fooBar: 1 } }).toArray());
    expect(err.code).toBe(2);
    expect(err.message).toMatch(/unknown operator: \$fooBar/);
    const top = await failure(coll.find({ $fooBar: 1 }).toArray());
    expect(top.code).toBe(2);
    expect(top.message).toMatch(/unknown top level operator: \$fooBar/);
  });

  it("should refuse $text without a text index (27 IndexNotFound)", async () => {
    const err = await failure(coll.find({ $text: { $search: "Anna" } }).toArray());
    expect(err.code).toBe(27);
    expect(err.message).toMatch(/text index required for \$text query/);
  });

  it("should reject a sort direction other than 1 or -1", async () => {
    const err = await failure(db().command({ find: coll.collectionName, sort: { age: 2 } }));
    expect(err.code).toBe(15975);
    expect(err.message).toBe("$sort key ordering must be 1 (for ascending) or -1 (for descending)");
  });

  it("should reject a wrongly typed filter with TypeMismatch", async () => {
    const err = await failure(db().command({ find: coll.collectionName, filter: "x" }));
    expect(err.code).toBe(14);
  });
});

describe("update", () => {
  beforeEach(async () => {
    await coll.insertMany(people as Document[]);
  });

  it("should apply operators to one or many documents and count n/nModified", async () => {
    const one = await coll.updateOne({ _id: 1 } as Document, { $set: { city: "Aalborg" }, $inc: { age: 1 } });
    expect(one).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    const many = await coll.updateMany({ age: 25 }, { $set: { young: true } });
    expect(many).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    const same = await coll.updateOne({ _id: 2 } as Document, { $set: { young: true } });
    expect(same).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    expect(await coll.findOne({ _id: 1 } as Document)).toMatchObject({ city: "Aalborg", age: 32 });
  });

  it("should upsert and report upserted ids", async () => {
    const res = await coll.updateOne(
      { _id: 99 } as Document,
      { $set: { name: "Nyt" }, $setOnInsert: { created: true } },
      { upsert: true },
    );
    expect(res).toMatchObject({ matchedCount: 0, upsertedCount: 1, upsertedId: 99 });
    expect(await coll.findOne({ _id: 99 } as Document)).toEqual({ _id: 99, name: "Nyt", created: true });
    const again = await coll.updateOne(
      { _id: 99 } as Document,
      { $set: { name: "Igen" }, $setOnInsert: { created: false } },
      { upsert: true },
    );
    expect(again).toMatchObject({ matchedCount: 1, upsertedCount: 0 });
    expect(await coll.findOne({ _id: 99 } as Document)).toEqual({ _id: 99, name: "Igen", created: true });
    const generated = await coll.updateOne({ name: "Ukendt" }, { $set: { age: 1 } }, { upsert: true });
    expect(generated.upsertedId).toBeInstanceOf(ObjectId);
    expect(await coll.findOne({ _id: generated.upsertedId } as Document)).toMatchObject({
      name: "Ukendt",
      age: 1,
    });
  });

  it("should replace a document keeping its _id", async () => {
    await coll.replaceOne({ _id: 3 } as Document, { name: "Carla" });
    expect(await coll.findOne({ _id: 3 } as Document)).toEqual({ _id: 3, name: "Carla" });
  });

  it("should support $push, $pull, $addToSet, $unset, $rename and arrayFilters", async () => {
    await coll.updateOne({ _id: 1 } as Document, { $push: { tags: { $each: ["x", "y"] } } } as Document);
    await coll.updateOne({ _id: 1 } as Document, { $pull: { tags: "a" } } as Document);
    await coll.updateOne({ _id: 1 } as Document, { $addToSet: { tags: "b" } });
    await coll.updateOne({ _id: 1 } as Document, { $unset: { city: "" }, $rename: { name: "fullName" } });
    expect(await coll.findOne({ _id: 1 } as Document)).toEqual({
      _id: 1,
      fullName: "Anna",
      age: 31,
      tags: ["b", "x", "y"],
    });
    await coll.updateOne(
      { _id: 4 } as Document,
      { $set: { "tags.$[t]": "Z" } },
      { arrayFilters: [{ t: "c" }] },
    );
    expect((await coll.findOne({ _id: 4 } as Document))?.tags).toEqual(["a", "Z"]);
  });

  it("should reject an unknown update operator", async () => {
    const err = await failure(coll.updateOne({ _id: 1 } as Document, { $fooBar: { a: 1 } } as Document));
    expect(err.code).toBe(9);
    expect(err.message).toMatch(/Unknown modifier: \$fooBar/);
  });
});

describe("delete", () => {
  it("should delete one or many", async () => {
    await coll.insertMany(people as Document[]);
    expect((await coll.deleteOne({ city: "Odense" })).deletedCount).toBe(1);
    expect((await coll.deleteMany({ age: { $lt: 35 } })).deletedCount).toBe(2);
    expect(await coll.countDocuments()).toBe(2);
    const err = await failure(db().command({ delete: coll.collectionName, deletes: [{ q: {}, limit: 5 }] }));
    expect(err.code).toBe(9);
  });
});

describe("findAndModify", () => {
  beforeEach(async () => {
    await coll.insertMany(people as Document[]);
  });

  it("should return the document before or after an update, honouring sort and projection", async () => {
    const before = await coll.findOneAndUpdate(
      { city: "Odense" },
      { $inc: { age: 1 } },
      { sort: { age: -1 }, projection: { age: 1 } },
    );
    expect(before).toEqual({ _id: 5, age: 52 });
    const after = await coll.findOneAndUpdate(
      { _id: 5 } as Document,
      { $inc: { age: 1 } },
      { returnDocument: "after" },
    );
    expect(after?.age).toBe(54);
    const raw = await db().command({
      findAndModify: coll.collectionName,
      query: { _id: 2 },
      update: { $set: { x: 1 } },
      new: true,
    });
    expect(raw.lastErrorObject).toEqual({ n: 1, updatedExisting: true });
    expect(raw.value).toMatchObject({ _id: 2, x: 1 });
  });

  it("should upsert with $setOnInsert and report it in lastErrorObject", async () => {
    const raw = await db().command({
      findAndModify: coll.collectionName,
      query: { email: "ny@x.dk" },
      update: { $set: { seen: 1 }, $setOnInsert: { created: "yes" } },
      upsert: true,
      new: true,
    });
    expect(raw.lastErrorObject.n).toBe(1);
    expect(raw.lastErrorObject.updatedExisting).toBe(false);
    expect(raw.lastErrorObject.upserted).toBeInstanceOf(ObjectId);
    expect(raw.value).toMatchObject({ email: "ny@x.dk", seen: 1, created: "yes" });
    const none = await db().command({
      findAndModify: coll.collectionName,
      query: { _id: 404 },
      update: { $set: { a: 1 } },
    });
    expect(none.value).toBeNull();
    expect(none.lastErrorObject).toEqual({ n: 0, updatedExisting: false });
  });

  it("should remove and return the removed document", async () => {
    const removed = await coll.findOneAndDelete({ _id: 3 } as Document);
    expect(removed?.name).toBe("Carl");
    expect(await coll.countDocuments()).toBe(4);
    const replaced = await coll.findOneAndReplace(
      { _id: 4 } as Document,
      { name: "D" },
      { returnDocument: "after" },
    );
    expect(replaced).toEqual({ _id: 4, name: "D" });
  });

  it("should refuse contradictory options like mongod", async () => {
    const both = await failure(
      db().command({
        findAndModify: coll.collectionName,
        query: {},
        remove: true,
        update: { $set: { a: 1 } },
      }),
    );
    expect(both.code).toBe(9);
    const neither = await failure(db().command({ findAndModify: coll.collectionName, query: {} }));
    expect(neither.code).toBe(9);
  });
});

describe("count, distinct and aggregate", () => {
  beforeEach(async () => {
    await coll.insertMany(people as Document[]);
  });

  it("should count with query, skip and limit", async () => {
    expect((await db().command({ count: coll.collectionName })).n).toBe(5);
    expect((await db().command({ count: coll.collectionName, query: { city: "Aarhus" } })).n).toBe(2);
    expect((await db().command({ count: coll.collectionName, skip: 1, limit: 2 })).n).toBe(2);
    expect(await coll.estimatedDocumentCount()).toBe(5);
    expect(await coll.countDocuments({ age: 25 })).toBe(2);
    expect((await db().command({ count: "missingCollection" })).n).toBe(0);
  });

  it("should return distinct values, unwinding arrays", async () => {
    expect((await coll.distinct("city")).sort()).toEqual(["Aarhus", "København", "Odense"]);
    expect((await coll.distinct("tags")).sort()).toEqual(["a", "b", "c"]);
    expect(await coll.distinct("name", { age: 25 })).toEqual(expect.arrayContaining(["Bo", "Dorte"]));
  });

  it("should aggregate with $match, $group, $sort, $project and batches", async () => {
    const groups = await coll
      .aggregate([
        { $match: { age: { $gte: 25 } } },
        { $group: { _id: "$city", n: { $sum: 1 }, avgAge: { $avg: "$age" } } },
        { $sort: { n: -1, _id: 1 } },
      ])
      .toArray();
    expect(groups).toEqual([
      { _id: "Aarhus", n: 2, avgAge: 35.5 },
      { _id: "Odense", n: 2, avgAge: 38.5 },
      { _id: "København", n: 1, avgAge: 25 },
    ]);
    const batched = await db().command({
      aggregate: coll.collectionName,
      pipeline: [{ $sort: { _id: 1 } }],
      cursor: { batchSize: 2 },
    });
    expect(batched.cursor.firstBatch).toHaveLength(2);
    const rest = await db().command({ getMore: batched.cursor.id, collection: coll.collectionName });
    expect(rest.cursor.nextBatch).toHaveLength(3);
    const noCursor = await failure(db().command({ aggregate: coll.collectionName, pipeline: [] }));
    expect(noCursor.code).toBe(9);
  });

  it("should compute running totals with $setWindowFields", async () => {
    const docs = await coll
      .aggregate([
        { $match: { city: "Odense" } },
        {
          $setWindowFields: {
            sortBy: { _id: 1 },
            output: { running: { $sum: "$age", window: { documents: ["unbounded", "current"] } } },
          },
        },
        { $project: { running: 1 } },
      ])
      .toArray();
    expect(docs).toEqual([
      { _id: 2, running: 25 },
      { _id: 5, running: 77 },
    ]);
  });

  it("should filter with $jsonSchema", async () => {
    const docs = await coll
      .find({ $jsonSchema: { required: ["tags"], properties: { age: { minimum: 30 } } } })
      .toArray();
    expect(docs.map((d) => d._id).sort()).toEqual([1, 3]);
  });

  it("should $sum 64-bit integers exactly", async () => {
    const big = db().collection(`${coll.collectionName}_long`);
    await big.insertMany([
      { v: Long.fromString("9007199254740993") },
      { v: 1 },
      { v: Long.fromString("10") },
    ]);
    const [sum] = await big
      .aggregate([{ $group: { _id: null, s: { $sum: "$v" } } }], { promoteLongs: false })
      .toArray();
    expect(sum.s).toBeInstanceOf(Long);
    expect(sum.s.toString()).toBe("9007199254741004");
  });

  it("should return no document from $count over an empty input", async () => {
    expect(await coll.aggregate([{ $match: { city: "Roskilde" } }, { $count: "n" }]).toArray()).toEqual([]);
    expect(await coll.aggregate([{ $match: { city: "Odense" } }, { $count: "n" }]).toArray()).toEqual([
      { n: 2 },
    ]);
  });

  it("should $lookup from another collection and write with $out", async () => {
    const orders = db().collection(`${coll.collectionName}_orders`);
    await orders.insertMany([
      { person: 1, total: 10 },
      { person: 1, total: 5 },
      { person: 2, total: 7 },
    ]);
    const joined = await coll
      .aggregate([
        { $match: { _id: { $in: [1, 2] } } },
        { $lookup: { from: orders.collectionName, localField: "_id", foreignField: "person", as: "orders" } },
        { $project: { name: 1, spent: { $sum: "$orders.total" } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(joined).toEqual([
      { _id: 1, name: "Anna", spent: 15 },
      { _id: 2, name: "Bo", spent: 7 },
    ]);
    const outName = `${coll.collectionName}_out`;
    await coll.aggregate([{ $match: { city: "Odense" } }, { $out: outName }]).toArray();
    expect(await db().collection(outName).countDocuments()).toBe(2);
  });
});

describe("bulkWrite", () => {
  it("should run mixed ordered operations", async () => {
    const res = await coll.bulkWrite([
      { insertOne: { document: { _id: 1, v: 1 } } },
      { insertOne: { document: { _id: 2, v: 2 } } },
      { updateOne: { filter: { _id: 1 }, update: { $set: { v: 10 } } } },
      { updateMany: { filter: {}, update: { $inc: { v: 1 } } } },
      { replaceOne: { filter: { _id: 2 }, replacement: { v: 20 } } },
      { updateOne: { filter: { _id: 3 }, update: { $set: { v: 3 } }, upsert: true } },
      { deleteOne: { filter: { _id: 1 } } },
    ] as never);
    expect(res).toMatchObject({
      insertedCount: 2,
      matchedCount: 4,
      modifiedCount: 4,
      deletedCount: 1,
      upsertedCount: 1,
    });
    expect(await coll.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 2, v: 20 },
      { _id: 3, v: 3 },
    ]);
  });

  it("should stop an ordered bulk at the first error and continue an unordered one", async () => {
    await coll.insertOne({ _id: 1 } as Document);
    const ordered = (await coll
      .bulkWrite([{ insertOne: { document: { _id: 1 } } }, { insertOne: { document: { _id: 2 } } }] as never)
      .catch((e) => e)) as MongoBulkWriteError;
    expect(ordered).toBeInstanceOf(MongoBulkWriteError);
    expect(await coll.countDocuments()).toBe(1);
    const unordered = (await coll
      .bulkWrite(
        [
          { insertOne: { document: { _id: 1 } } },
          { insertOne: { document: { _id: 2 } } },
          { insertOne: { document: { _id: 3 } } },
        ] as never,
        { ordered: false },
      )
      .catch((e) => e)) as MongoBulkWriteError;
    expect(unordered).toBeInstanceOf(MongoBulkWriteError);
    expect(unordered.insertedCount).toBe(2);
    expect(await coll.countDocuments()).toBe(3);
  });
});

describe("update semantics and errors", () => {
  beforeEach(async () => {
    await coll.insertMany(people as Document[]);
  });

  it("should refuse to change _id (66 ImmutableField)", async () => {
    const err = await failure(coll.updateOne({ _id: 1 } as Document, { $set: { _id: 100 } }));
    expect(err.code).toBe(66);
  });

  it("should refuse conflicting operators on one path (40)", async () => {
    const err = await failure(coll.updateOne({ _id: 1 } as Document, { $set: { age: 1 }, $inc: { age: 1 } }));
    expect(err.code).toBe(40);
  });

  it("should refuse $inc on a non-number (14 TypeMismatch)", async () => {
    const err = await failure(coll.updateOne({ _id: 1 } as Document, { $inc: { name: 1 } }));
    expect(err.code).toBe(14);
  });

  it("should refuse a multi update with a replacement document", async () => {
    const reply = await db().command({
      update: coll.collectionName,
      updates: [{ q: {}, u: { a: 1 }, multi: true }],
    });
    expect(reply).toMatchObject({ ok: 1, n: 0, nModified: 0 });
    expect(reply.writeErrors).toEqual([
      { index: 0, code: 9, errmsg: "multi update is not supported for replacement-style update" },
    ]);
    expect(await coll.countDocuments({ a: 1 })).toBe(0);
  });

  it("should build an upserted document from the equality parts of the query", async () => {
    await coll.updateOne(
      { _id: 77, "profile.kind": "x", age: { $gt: 5 } } as Document,
      { $set: { v: 1 } },
      { upsert: true },
    );
    expect(await coll.findOne({ _id: 77 } as Document)).toEqual({ _id: 77, profile: { kind: "x" }, v: 1 });
  });

  it("should refuse mixing inclusion and exclusion in a projection", async () => {
    const err = await failure(coll.find({}, { projection: { name: 1, age: 0 } }).toArray());
    expect(err.code).toBe(31254);
    expect(err.message).toBe("Cannot do exclusion on field age in inclusion projection");
  });

  it("should run a pipeline-style update", async () => {
    await coll.updateOne({ _id: 2 } as Document, [{ $set: { next: { $add: ["$age", 1] } } }]);
    expect((await coll.findOne({ _id: 2 } as Document))?.next).toBe(26);
  });

  it("should return documents in reverse insertion order for $natural: -1", async () => {
    const order = (
      await coll
        .find({}, { projection: { _id: 1 } })
        .sort({ $natural: -1 })
        .toArray()
    ).map((d) => d._id);
    expect(order).toEqual([5, 4, 3, 2, 1]);
  });

  it("should refuse a $rename onto the same field (2 BadValue)", async () => {
    const err = await failure(coll.updateOne({ _id: 1 } as Document, { $rename: { name: "name" } }));
    expect(err.code).toBe(2);
    expect(err.message).toMatch(/The source and target field for \$rename must differ/);
  });

  it("should refuse to $set a field inside a null value (28 PathNotViable)", async () => {
    await coll.insertOne({ _id: 40, parent: null } as Document);
    const err = await failure(coll.updateOne({ _id: 40 } as Document, { $set: { "parent.child": 1 } }));
    expect(err.code).toBe(28);
    expect(err.message).toMatch(/Cannot create field 'child' in element \{parent: null\}/);
    expect(await coll.findOne({ _id: 40 } as Document)).toEqual({ _id: 40, parent: null });
  });

  it("should refuse an array-filter update on a missing array (2 BadValue)", async () => {
    const err = await failure(
      coll.updateOne({ _id: 5 } as Document, { $set: { "tags.$[t]": "x" } }, { arrayFilters: [{ t: "a" }] }),
    );
    expect(err.code).toBe(2);
    expect(err.message).toMatch(/The path 'tags' must exist in the document in order to apply array updates/);
  });

  it("should match $mod only on numbers", async () => {
    await coll.insertMany([
      { _id: 41, m: null },
      { _id: 42, m: 10 },
      { _id: 43, m: "10" },
      { _id: 44 },
    ] as Document[]);
    const ids = (await coll.find({ m: { $mod: [5, 0] } }).toArray()).map((d) => d._id);
    expect(ids).toEqual([42]);
  });

  it("should compare strings by UTF-8 bytes (code points), also beyond the BMP", async () => {
    const strings = db().collection(`${coll.collectionName}_utf8`);
    await strings.insertMany([
      { _id: 1, s: "\uFF5E" },
      { _id: 2, s: "😀" },
      { _id: 3, s: "å" },
      { _id: 4, s: "z" },
      { _id: 5, s: "Z" },
      { _id: 6, s: "ø" },
    ] as Document[]);
    const order = async () => (await strings.find().sort({ s: 1 }).toArray()).map((d) => d._id);
    expect(await order()).toEqual([5, 4, 3, 6, 1, 2]);
    expect((await strings.find({ s: { $gt: "\uFF5E" } }).toArray()).map((d) => d._id)).toEqual([2]);
    await strings.createIndex({ s: 1 });
    expect(await order()).toEqual([5, 4, 3, 6, 1, 2]);
    expect((await strings.find({ s: { $gt: "\uFF5E" } }).toArray()).map((d) => d._id)).toEqual([2]);
  });

  it("should sort values of mixed types in BSON order", async () => {
    const mixed = db().collection(`${coll.collectionName}_mixed`);
    await mixed.insertMany([
      { _id: 1, v: "b" },
      { _id: 2, v: 10 },
      { _id: 3, v: null },
      { _id: 4, v: { x: 1 } },
      { _id: 5, v: 2.5 },
      { _id: 6 },
      { _id: 7, v: new Date(0) },
      { _id: 8, v: true },
    ] as Document[]);
    const order = (await mixed.find().sort({ v: 1, _id: 1 }).toArray()).map((d) => d._id);
    expect(order).toEqual([3, 6, 5, 2, 1, 4, 8, 7]);
  });
});

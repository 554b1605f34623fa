import { type Collection, type Document } from "mongodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { againstRealMongo, failure, openTarget, type Target } from "./harness";

let target: Target;
let coll: Collection;
let n = 0;

beforeAll(async () => {
  target = await openTarget("indexes");
});
afterAll(() => target?.close());
beforeEach(() => {
  coll = target.client.db(target.dbName).collection(`i${++n}`);
});

const db = () => target.client.db(target.dbName);

describe("indexes", () => {
  it("should create, list and drop indexes with mongod's replies", async () => {
    const created = await db().command({
      createIndexes: coll.collectionName,
      indexes: [
        { key: { email: 1 }, name: "email_1", unique: true },
        { key: { org: 1, createdAt: -1 }, name: "org_1_createdAt_-1" },
      ],
    });
    expect(created).toMatchObject({
      ok: 1,
      createdCollectionAutomatically: true,
      numIndexesBefore: 1,
      numIndexesAfter: 3,
    });
    const again = await db().command({
      createIndexes: coll.collectionName,
      indexes: [{ key: { email: 1 }, name: "email_1", unique: true }],
    });
    expect(again).toMatchObject({
      ok: 1,
      numIndexesBefore: 3,
      numIndexesAfter: 3,
      note: "all indexes already exist",
    });
    const list = await coll.listIndexes().toArray();
    expect(list).toEqual([
      { v: 2, key: { _id: 1 }, name: "_id_" },
      { v: 2, key: { email: 1 }, name: "email_1", unique: true },
      { v: 2, key: { org: 1, createdAt: -1 }, name: "org_1_createdAt_-1" },
    ]);
    expect(await coll.indexExists("email_1")).toBe(true);
    const dropped = await db().command({ dropIndexes: coll.collectionName, index: "email_1" });
    expect(dropped).toMatchObject({ ok: 1, nIndexesWas: 3 });
    await coll.dropIndex({ org: 1, createdAt: -1 } as never);
    expect((await coll.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_"]);
    const missing = await failure(coll.dropIndex("nope_1"));
    expect(missing.code).toBe(27);
    const listMissing = await failure(db().collection("doesNotExist").listIndexes().toArray());
    expect(listMissing.code).toBe(26);
  });

  it("should refuse an index with the same name and different options (85/86)", async () => {
    await coll.createIndex({ a: 1 }, { name: "a_1" });
    const err = await failure(coll.createIndex({ a: 1 }, { name: "a_1", unique: true }));
    expect([85, 86]).toContain(err.code);
    const err2 = await failure(coll.createIndex({ b: 1 }, { name: "a_1" }));
    expect([85, 86]).toContain(err2.code);
  });

  it("should answer duplicate keys in MongoDB's exact shape", async () => {
    await coll.createIndex({ email: 1 }, { unique: true });
    await coll.insertOne({ email: "a@x.dk" });
    const err = await failure(coll.insertOne({ email: "a@x.dk" }));
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ email: 1 });
    expect(err.keyValue).toEqual({ email: "a@x.dk" });
    expect(err.message).toBe(
      `E11000 duplicate key error collection: ${target.dbName}.${coll.collectionName} index: email_1 dup key: { email: "a@x.dk" }`,
    );
    const raw = await db().command({
      insert: coll.collectionName,
      documents: [{ email: "b@x.dk" }, { email: "a@x.dk" }],
    });
    expect(raw.n).toBe(1);
    expect(raw.writeErrors).toEqual([
      {
        index: 1,
        code: 11000,
        errmsg: `E11000 duplicate key error collection: ${target.dbName}.${coll.collectionName} index: email_1 dup key: { email: "a@x.dk" }`,
        keyPattern: { email: 1 },
        keyValue: { email: "a@x.dk" },
      },
    ]);
    const update = await failure(coll.updateOne({ email: "b@x.dk" }, { $set: { email: "a@x.dk" } }));
    expect(update.code).toBe(11000);
    const fam = await failure(coll.findOneAndUpdate({ email: "b@x.dk" }, { $set: { email: "a@x.dk" } }));
    expect(fam.code).toBe(11000);
    expect(fam.keyValue).toEqual({ email: "a@x.dk" });
  });

  it("should refuse a unique index over existing duplicates", async () => {
    await coll.insertMany([{ k: 1 }, { k: 1 }]);
    const err = await failure(coll.createIndex({ k: 1 }, { unique: true }));
    expect(err.code).toBe(11000);
    expect((await coll.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_"]);
  });

  it("should enforce compound unique indexes on the combination", async () => {
    await coll.createIndex({ org: 1, slug: 1 }, { unique: true });
    await coll.insertMany([
      { org: 1, slug: "a" },
      { org: 2, slug: "a" },
      { org: 1, slug: "b" },
    ]);
    const err = await failure(coll.insertOne({ org: 2, slug: "a" }));
    expect(err.keyPattern).toEqual({ org: 1, slug: 1 });
    expect(err.keyValue).toEqual({ org: 2, slug: "a" });
    expect(await coll.countDocuments({ org: 1 })).toBe(2);
  });

  it("should let a sparse unique index skip documents without the field", async () => {
    await coll.createIndex({ nick: 1 }, { unique: true, sparse: true });
    await coll.insertMany([{ a: 1 }, { a: 2 }, { nick: "x" }]);
    const err = await failure(coll.insertOne({ nick: "x" }));
    expect(err.code).toBe(11000);
    // without sparse, two missing values collide as null
    const other = db().collection(`${coll.collectionName}_dense`);
    await other.createIndex({ nick: 1 }, { unique: true });
    await other.insertOne({ a: 1 });
    const dense = await failure(other.insertOne({ a: 2 }));
    expect(dense.keyValue).toEqual({ nick: null });
  });

  it("should apply a partial unique index only to matching documents", async () => {
    await coll.createIndex({ email: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await coll.insertMany([
      { email: "a", active: false },
      { email: "a", active: false },
      { email: "a", active: true },
    ]);
    const err = await failure(coll.insertOne({ email: "a", active: true }));
    expect(err.code).toBe(11000);
    const [spec] = (await coll.listIndexes().toArray()).filter((i) => i.name === "email_1");
    expect(spec.partialFilterExpression).toEqual({ active: true });
  });

  it("should use indexes for lookups and still give the same answers as a scan", async () => {
    const docs = Array.from({ length: 2000 }, (_, i) => ({ _id: i, k: i % 100, s: `v${i % 10}` }));
    await coll.insertMany(docs as Document[]);
    const unindexed = await coll
      .find({ k: { $gte: 10, $lt: 13 }, s: "v1" })
      .sort({ _id: 1 })
      .toArray();
    await coll.createIndex({ k: 1 });
    await coll.createIndex({ s: 1, k: -1 });
    const indexed = await coll
      .find({ k: { $gte: 10, $lt: 13 }, s: "v1" })
      .sort({ _id: 1 })
      .toArray();
    expect(indexed).toEqual(unindexed);
    expect(indexed).toHaveLength(20);
    expect(await coll.countDocuments({ k: { $in: [1, 2, 300] } })).toBe(40);
    expect((await coll.find({ s: "v3" }).sort({ k: -1 }).limit(1).toArray())[0].k).toBe(93);
  });

  it("should remove expired documents with a TTL index", async () => {
    await coll.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    const spec = (await coll.listIndexes().toArray()).find((i) => i.name === "expiresAt_1");
    expect(spec?.expireAfterSeconds).toBe(0);
    await coll.insertMany([
      { name: "gone", expiresAt: new Date(Date.now() - 1000) },
      { name: "stays", expiresAt: new Date(Date.now() + 3_600_000) },
      { name: "no date", expiresAt: "not a date" },
    ]);
    // mongod's TTL monitor runs every 60 s; the embedded store in tests every 200 ms
    const deadline = Date.now() + (againstRealMongo ? 70_000 : 5_000);
    while (Date.now() < deadline && (await coll.countDocuments({ name: "gone" })) > 0) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await coll.find().toArray()).map((d) => d.name).sort()).toEqual(["no date", "stays"]);
  }, 80_000);
});

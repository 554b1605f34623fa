import { MongoServerError } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTarget, type Target } from "./harness";

let target: Target;

beforeAll(async () => {
  // durable: concurrent writes interleave with the write-ahead log there
  target = await openTarget("concurrency", { durable: true });
});
afterAll(() => target?.close());

const db = () => target.client.db(target.dbName);

describe("concurrent clients", () => {
  it("should let exactly one of many concurrent inserts of a unique key win", async () => {
    const coll = db().collection("uniq");
    await coll.createIndex({ email: 1 }, { unique: true });
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => coll.insertOne({ email: "same@x.dk", i })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) {
      if (r.status === "rejected") expect((r.reason as MongoServerError).code).toBe(11000);
    }
    expect(await coll.countDocuments()).toBe(1);
  });

  it("should not lose concurrent $inc updates", async () => {
    const coll = db().collection("counter");
    await coll.insertOne({ _id: "c" as never, n: 0 });
    await Promise.all(
      Array.from({ length: 100 }, () => coll.updateOne({ _id: "c" as never }, { $inc: { n: 1 } })),
    );
    await Promise.all(
      Array.from({ length: 50 }, () =>
        coll.findOneAndUpdate({ _id: "c" as never }, { $inc: { n: 1 } }, { returnDocument: "after" }),
      ),
    );
    expect((await coll.findOne({ _id: "c" as never }))?.n).toBe(150);
  });

  it("should create one document for concurrent upserts on a unique key", async () => {
    const coll = db().collection("upserts");
    await coll.createIndex({ key: 1 }, { unique: true });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        coll.findOneAndUpdate(
          { key: "k" },
          { $setOnInsert: { created: true }, $inc: { hits: 1 } },
          { upsert: true },
        ),
      ),
    );
    for (const r of results) {
      if (r.status === "rejected") expect((r.reason as MongoServerError).code).toBe(11000);
    }
    const docs = await coll.find({ key: "k" }).toArray();
    expect(docs).toHaveLength(1);
    expect(docs[0].hits).toBe(results.filter((r) => r.status === "fulfilled").length);
  });

  it("should serve many connections at once", async () => {
    const coll = db().collection("parallel");
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => coll.insertMany(Array.from({ length: 50 }, (_, j) => ({ i, j })))),
    );
    const counts = await Promise.all(Array.from({ length: 40 }, (_, i) => coll.countDocuments({ i })));
    expect(counts.every((c) => c === 50)).toBe(true);
    expect(await coll.countDocuments()).toBe(2000);
  });
});

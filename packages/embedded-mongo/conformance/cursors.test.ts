import { type Collection, type Document, MongoServerError } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTarget, type Target } from "./harness";

let target: Target;
let coll: Collection;
const TOTAL = 10_000;

beforeAll(async () => {
  target = await openTarget("cursors");
  coll = target.client.db(target.dbName).collection("many");
  const docs = Array.from({ length: TOTAL }, (_, i) => ({
    _id: i,
    group: i % 7,
    text: `dokument nummer ${i}`,
  }));
  await coll.insertMany(docs as Document[]);
});
afterAll(() => target?.close());

const db = () => target.client.db(target.dbName);

describe("cursors", () => {
  it("should stream 10,000 documents through several getMore batches in order", async () => {
    const seen: number[] = [];
    for await (const doc of coll.find({}, { sort: { _id: 1 }, batchSize: 1000 }))
      seen.push(doc._id as unknown as number);
    expect(seen).toHaveLength(TOTAL);
    expect(seen.every((id, i) => id === i)).toBe(true);
  });

  it("should return 101 documents in the default first batch and the rest in getMore", async () => {
    const first = await db().command({ find: "many", filter: {}, sort: { _id: 1 } });
    expect(first.cursor.firstBatch).toHaveLength(101);
    let id = first.cursor.id;
    let total = first.cursor.firstBatch.length;
    let batches = 0;
    while (id.toString() !== "0") {
      const more = await db().command({ getMore: id, collection: "many", batchSize: 2500 });
      expect(more.cursor.nextBatch.length).toBeLessThanOrEqual(2500);
      total += more.cursor.nextBatch.length;
      id = more.cursor.id;
      batches++;
    }
    expect(total).toBe(TOTAL);
    expect(batches).toBe(4);
  });

  it("should page an aggregate result through getMore", async () => {
    const docs = await coll
      .aggregate([{ $match: { group: 3 } }, { $project: { _id: 1 } }], { batchSize: 200 })
      .toArray();
    expect(docs).toHaveLength(Math.ceil((TOTAL - 3) / 7));
  });

  it("should kill a cursor and then answer CursorNotFound (43) for it", async () => {
    const first = await db().command({ find: "many", batchSize: 10 });
    const killed = await db().command({ killCursors: "many", cursors: [first.cursor.id] });
    expect(killed.cursorsKilled.map(String)).toEqual([first.cursor.id.toString()]);
    expect(killed.cursorsNotFound).toEqual([]);
    const err = await db()
      .command({ getMore: first.cursor.id, collection: "many" })
      .catch((e: unknown) => e as MongoServerError);
    expect(err).toBeInstanceOf(MongoServerError);
    expect((err as MongoServerError).code).toBe(43);
    const again = await db().command({ killCursors: "many", cursors: [first.cursor.id] });
    expect(again.cursorsNotFound.map(String)).toEqual([first.cursor.id.toString()]);
  });

  it("should free the server cursor when the driver closes one early", async () => {
    const openCursors = async () =>
      (await target.client.db("admin").command({ serverStatus: 1 })).metrics.cursor.open.total as number;
    const before = await openCursors();
    const cursor = coll.find({}, { batchSize: 5 });
    for (let i = 0; i < 7; i++) expect(await cursor.next()).not.toBeNull();
    expect(await openCursors()).toBe(before + 1);
    await cursor.close();
    expect(await openCursors()).toBe(before);
  });

  it("should refuse a getMore on another collection than the cursor's", async () => {
    const first = await db().command({ find: "many", batchSize: 1 });
    const err = (await db()
      .command({ getMore: first.cursor.id, collection: "other" })
      .catch((e: unknown) => e)) as MongoServerError;
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(13);
    await db().command({ killCursors: "many", cursors: [first.cursor.id] });
  });

  it("should list collections and indexes through cursors", async () => {
    const names = (await db().listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names).toContain("many");
    const filtered = await db().listCollections({ name: "many" }).toArray();
    expect(filtered).toHaveLength(1);
    expect(filtered[0]).toMatchObject({ name: "many", type: "collection" });
    const indexes = await coll.listIndexes().toArray();
    expect(indexes).toEqual([{ v: 2, key: { _id: 1 }, name: "_id_" }]);
  });
});

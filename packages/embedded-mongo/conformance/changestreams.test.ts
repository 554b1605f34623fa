/**
 * Change streams through the official driver: event shapes, fullDocument, the stages after $changeStream,
 * resuming, invalidation. Runs against the embedded store, or a real replica set when MONGODB_URI is set.
 */
import { type ChangeStreamDocument, type Collection, type Document, Timestamp } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AWAIT_MS, drain, failure, opened, take } from "./changestream-support";
import { againstRealMongo, openTarget, type Target } from "./harness";

let target: Target;

beforeAll(async () => {
  target = await openTarget("changestreams");
});
afterAll(() => target?.close());

const db = () => target.client.db(target.dbName);
let n = 0;
/** a fresh collection per test */
const fresh = (): Collection<Document> => db().collection(`c${++n}`);
type Ev = ChangeStreamDocument & Document;

describe("change streams", () => {
  it("should report insert, update, replace and delete with MongoDB's event shapes", async () => {
    const coll = fresh();
    const stream = await opened(coll.watch<Document, Ev>([], { maxAwaitTimeMS: AWAIT_MS }));
    await coll.insertOne({ _id: 1 as never, a: 1, sub: { x: 1, y: 1 }, arr: [1, 2, 3] });
    await coll.updateOne({ _id: 1 as never }, { $set: { b: 2, "sub.x": 5 }, $unset: { a: "" } });
    await coll.updateOne({ _id: 1 as never }, { $push: { arr: 4 } } as never);
    await coll.updateOne({ _id: 1 as never }, { $set: { arr: [1, 2] } });
    await coll.replaceOne({ _id: 1 as never }, { z: 1 });
    await coll.deleteOne({ _id: 1 as never });
    const events = await take(stream, 6);
    await stream.close();
    expect(events.map((e) => e.operationType)).toEqual([
      "insert",
      "update",
      "update",
      "update",
      "replace",
      "delete",
    ]);
    const ns = { db: target.dbName, coll: coll.collectionName };
    expect(events[0]).toMatchObject({
      ns,
      documentKey: { _id: 1 },
      fullDocument: { _id: 1, a: 1, sub: { x: 1, y: 1 }, arr: [1, 2, 3] },
    });
    expect(events[1]).toMatchObject({
      ns,
      documentKey: { _id: 1 },
      updateDescription: { updatedFields: { b: 2, "sub.x": 5 }, removedFields: ["a"], truncatedArrays: [] },
    });
    expect("fullDocument" in events[1]).toBe(false);
    expect(events[2].updateDescription.updatedFields).toEqual({ "arr.3": 4 });
    expect(events[3].updateDescription).toMatchObject({
      updatedFields: {},
      truncatedArrays: [{ field: "arr", newSize: 2 }],
    });
    expect(events[4]).toMatchObject({ ns, documentKey: { _id: 1 }, fullDocument: { _id: 1, z: 1 } });
    expect(events[5]).toMatchObject({ ns, documentKey: { _id: 1 } });
    expect("fullDocument" in events[5]).toBe(false);
    for (const e of events) {
      expect(typeof (e._id as { _data: unknown })._data).toBe("string");
      expect(e.clusterTime).toBeInstanceOf(Timestamp);
      expect(e.wallTime).toBeInstanceOf(Date);
    }
    // tokens and operation times grow with every change
    const times = events.map((e) => (e.clusterTime as Timestamp).toBigInt());
    expect(times).toEqual([...times].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(times).size).toBe(times.length);
  });

  it("should look up the current document with fullDocument: updateLookup", async () => {
    const coll = fresh();
    await coll.insertOne({ _id: 1 as never, v: 0, keep: "x" });
    const stream = await opened(
      coll.watch<Document, Ev>([], { fullDocument: "updateLookup", maxAwaitTimeMS: AWAIT_MS }),
    );
    await coll.updateOne({ _id: 1 as never }, { $set: { v: 1 } });
    const [event] = await take(stream, 1);
    expect(event).toMatchObject({ operationType: "update", fullDocument: { _id: 1, v: 1, keep: "x" } });
    // the lookup happens when the event is read: a document deleted since then comes back as null
    await coll.updateOne({ _id: 1 as never }, { $set: { v: 2 } });
    await coll.deleteOne({ _id: 1 as never });
    const [updated, deleted] = await take(stream, 2);
    await stream.close();
    expect(updated).toMatchObject({ operationType: "update", fullDocument: null });
    expect(deleted.operationType).toBe("delete");
  });

  it.skipIf(againstRealMongo)("should give each update's own post-image with whenAvailable", async () => {
    // a real MongoDB needs changeStreamPreAndPostImages on the collection for this; the store always has them
    const coll = fresh();
    await coll.insertOne({ _id: 1 as never, v: 0 });
    const stream = await opened(
      coll.watch<Document, Ev>([], { fullDocument: "whenAvailable", maxAwaitTimeMS: AWAIT_MS }),
    );
    await coll.updateOne({ _id: 1 as never }, { $set: { v: 1 } });
    await coll.updateOne({ _id: 1 as never }, { $set: { v: 2 } });
    const events = await take(stream, 2);
    await stream.close();
    expect(events.map((e) => e.fullDocument)).toEqual([
      { _id: 1, v: 1 },
      { _id: 1, v: 2 },
    ]);
  });

  it.skipIf(againstRealMongo)("should refuse fullDocumentBeforeChange clearly", async () => {
    const stream = fresh().watch([], { fullDocumentBeforeChange: "whenAvailable" });
    const err = await failure(stream.tryNext());
    await stream.close();
    expect(err?.code).toBe(115);
    expect(err?.message).toMatch(/fullDocumentBeforeChange/);
  });

  it("should apply $match and $project after $changeStream, and refuse a changed _id (280)", async () => {
    const coll = fresh();
    const pipeline = [
      { $match: { operationType: "insert", "fullDocument.keep": true } },
      { $project: { "fullDocument.secret": 0 } },
    ];
    const stream = await opened(coll.watch<Document, Ev>(pipeline, { maxAwaitTimeMS: AWAIT_MS }));
    await coll.insertMany([
      { _id: 1, keep: false, secret: "a" },
      { _id: 2, keep: true, secret: "b" },
    ] as never[]);
    await coll.deleteOne({ _id: 2 as never });
    const events = await drain(stream, 1000);
    await stream.close();
    expect(events).toHaveLength(1);
    expect(events[0].fullDocument).toEqual({ _id: 2, keep: true });

    const bad = await opened(
      coll.watch<Document, Ev>([{ $project: { _id: 0 } }], { maxAwaitTimeMS: AWAIT_MS }),
    );
    await coll.insertOne({ _id: 3 as never });
    const err = await failure(take(bad, 1));
    await bad.close();
    expect(err?.code).toBe(280);
  });

  it("should resume after a token with exactly the events it missed", async () => {
    const coll = fresh();
    const first = await opened(coll.watch<Document, Ev>([], { maxAwaitTimeMS: AWAIT_MS }));
    await coll.insertOne({ _id: 1 as never });
    const [seen] = await take(first, 1);
    await first.close();
    await coll.insertOne({ _id: 2 as never });
    await coll.updateOne({ _id: 2 as never }, { $set: { x: 1 } });
    await db()
      .collection("other")
      .insertOne({ _id: 9 as never });

    const resumed = coll.watch<Document, Ev>([], { resumeAfter: seen._id, maxAwaitTimeMS: AWAIT_MS });
    const missed = await drain(resumed, 1000);
    await resumed.close();
    expect(missed.map((e) => [e.operationType, e.documentKey?._id])).toEqual([
      ["insert", 2],
      ["update", 2],
    ]);

    // startAfter from the same token gives the same; startAtOperationTime starts at a write's time
    const after = coll.watch<Document, Ev>([], { startAfter: seen._id, maxAwaitTimeMS: AWAIT_MS });
    expect((await drain(after, 1000)).map((e) => e.documentKey?._id)).toEqual([2, 2]);
    await after.close();
    const at = missed[0].clusterTime as Timestamp;
    const fromTime = coll.watch<Document, Ev>([], { startAtOperationTime: at, maxAwaitTimeMS: AWAIT_MS });
    expect((await drain(fromTime, 1000)).map((e) => e.operationType)).toEqual(["insert", "update"]);
    await fromTime.close();
  });

  it("should hand out a postBatchResumeToken that resumes where the stream stood", async () => {
    const coll = fresh();
    const stream = await opened(coll.watch<Document, Ev>([], { maxAwaitTimeMS: AWAIT_MS }));
    await coll.insertOne({ _id: 1 as never });
    await take(stream, 1);
    await db().collection("unrelated").insertOne({});
    await drain(stream, 2 * AWAIT_MS);
    const token = stream.resumeToken;
    await stream.close();
    expect(token).toBeDefined();
    await coll.insertOne({ _id: 2 as never });
    const resumed = coll.watch<Document, Ev>([], { resumeAfter: token, maxAwaitTimeMS: AWAIT_MS });
    expect((await drain(resumed, 1000)).map((e) => e.documentKey?._id)).toEqual([2]);
    await resumed.close();
  });

  it("should end a collection stream with drop and invalidate when the collection is dropped", async () => {
    const coll = fresh();
    await coll.insertOne({ _id: 0 as never });
    const stream = await opened(coll.watch<Document, Ev>([], { maxAwaitTimeMS: AWAIT_MS }));
    await coll.insertOne({ _id: 1 as never });
    await coll.drop();
    const events = await take(stream, 3);
    expect(events.map((e) => e.operationType)).toEqual(["insert", "drop", "invalidate"]);
    expect(events[1].ns).toEqual({ db: target.dbName, coll: coll.collectionName });
    expect(stream.closed).toBe(true);
    const invalidate = events[2]._id;

    // resumeAfter an invalidate is refused; startAfter it opens a new stream on the namespace
    const refused = coll.watch([], { resumeAfter: invalidate });
    expect((await failure(refused.tryNext()))?.code).toBe(260);
    await refused.close();
    const again = await opened(
      coll.watch<Document, Ev>([], { startAfter: invalidate, maxAwaitTimeMS: AWAIT_MS }),
    );
    await coll.insertOne({ _id: 2 as never });
    expect((await take(again, 1)).map((e) => e.documentKey?._id)).toEqual([2]);
    await again.close();
    // resuming from the drop itself gives the invalidate that followed it
    const fromDrop = coll.watch<Document, Ev>([], { resumeAfter: events[1]._id, maxAwaitTimeMS: AWAIT_MS });
    expect((await take(fromDrop, 1)).map((e) => e.operationType)).toEqual(["invalidate"]);
    await fromDrop.close();
  });

  it("should watch a whole database: every collection, renames, and its drop", async () => {
    const dbName = `${target.dbName}_w`;
    const other = target.client.db(dbName);
    await other.collection("a").insertOne({ _id: 0 as never });
    const stream = await opened(other.watch<Document, Ev>([], { maxAwaitTimeMS: AWAIT_MS }));
    await other.collection("a").insertOne({ _id: 1 as never });
    await other.collection("b").insertOne({ _id: 2 as never });
    await other.renameCollection("a", "c");
    await other.collection("c").deleteOne({ _id: 1 as never });
    const events = await take(stream, 4);
    expect(events.map((e) => [e.operationType, e.ns])).toEqual([
      ["insert", { db: dbName, coll: "a" }],
      ["insert", { db: dbName, coll: "b" }],
      ["rename", { db: dbName, coll: "a" }],
      ["delete", { db: dbName, coll: "c" }],
    ]);
    expect(events[2].to).toEqual({ db: dbName, coll: "c" });
    await other.dropDatabase();
    const end = await take(stream, 4);
    expect(end.slice(0, 2).map((e) => e.operationType)).toEqual(["drop", "drop"]);
    expect(end.slice(2).map((e) => e.operationType)).toEqual(["dropDatabase", "invalidate"]);
    expect(stream.closed).toBe(true);
  });

  it("should deliver only acknowledged writes, in commit order", async () => {
    const coll = fresh();
    await coll.createIndex({ u: 1 }, { unique: true });
    const stream = await opened(coll.watch<Document, Ev>([], { maxAwaitTimeMS: AWAIT_MS }));
    // an ordered insertMany that stops at a duplicate key: only what was inserted is reported
    const err = await failure(coll.insertMany([{ u: 1 }, { u: 2 }, { u: 1 }, { u: 3 }]));
    expect(err).toBeDefined();
    await Promise.all(Array.from({ length: 40 }, (_, i) => coll.insertOne({ u: 100 + i })));
    const events = await take(stream, 42);
    expect(await drain(stream)).toEqual([]);
    await stream.close();
    expect(events.slice(0, 2).map((e) => e.fullDocument?.u)).toEqual([1, 2]);
    expect(new Set(events.slice(2).map((e) => e.fullDocument?.u)).size).toBe(40);
    const stored = await coll.find({}, { sort: { $natural: 1 } }).toArray();
    expect(events.map((e) => e.documentKey?._id.toString())).toEqual(stored.map((d) => d._id.toString()));
  });
});

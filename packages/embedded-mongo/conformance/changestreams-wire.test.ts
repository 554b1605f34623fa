/**
 * Change streams as separate processes use them: getMore with awaitData (blocks, wakes on a commit, honours
 * maxTimeMS), killCursors, two clients, a replica set URI, and resume points lost from the history (286).
 * Runs against the embedded store, or a real replica set when MONGODB_URI is set (store-only parts skipped).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type ChangeStreamDocument, type Document, Long, MongoClient, Timestamp } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedStore } from "../src";
import { AWAIT_MS, drain, failure, opened, take } from "./changestream-support";
import { againstRealMongo, openTarget, type Target } from "./harness";

let target: Target;

beforeAll(async () => {
  target = await openTarget("changestreams_wire");
});
afterAll(() => target?.close());

const db = () => target.client.db(target.dbName);
type Ev = ChangeStreamDocument & Document;

/** aggregate { $changeStream } by hand: the cursor id and namespace for getMore */
async function openRaw(coll: string): Promise<{ id: Long; collection: string }> {
  const reply = await db().command({ aggregate: coll, pipeline: [{ $changeStream: {} }], cursor: {} });
  expect(reply.cursor.firstBatch).toEqual([]);
  expect(reply.cursor.postBatchResumeToken?._data).toEqual(expect.any(String));
  return { id: reply.cursor.id, collection: coll };
}

describe("change streams across connections", () => {
  it("should block getMore until a write commits, then answer at once", async () => {
    const { id, collection } = await openRaw("await");
    const started = Date.now();
    const pending = db().command({ getMore: id, collection, maxTimeMS: 10_000 });
    setTimeout(
      () =>
        void db()
          .collection("await")
          .insertOne({ _id: 1 as never }),
      300,
    );
    const reply = await pending;
    const waited = Date.now() - started;
    expect(reply.cursor.nextBatch.map((e: Document) => e.documentKey._id)).toEqual([1]);
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(5000);
    await db().command({ killCursors: collection, cursors: [id] });
  });

  it("should return an empty batch with a postBatchResumeToken when maxTimeMS passes", async () => {
    const { id, collection } = await openRaw("idle");
    const started = Date.now();
    const reply = await db().command({ getMore: id, collection, maxTimeMS: 400 });
    const waited = Date.now() - started;
    expect(reply.cursor.nextBatch).toEqual([]);
    expect(reply.cursor.id.toString()).toBe(id.toString());
    expect(reply.cursor.postBatchResumeToken._data).toEqual(expect.any(String));
    expect(waited).toBeGreaterThanOrEqual(350);
    expect(waited).toBeLessThan(3000);
    // writes elsewhere wake the getMore but do not end the wait early
    const { id: id2 } = await openRaw("idle");
    const busy = setInterval(() => void db().collection("elsewhere").insertOne({}), 50);
    const t2 = Date.now();
    const reply2 = await db().command({ getMore: id2, collection, maxTimeMS: 400 });
    clearInterval(busy);
    expect(reply2.cursor.nextBatch).toEqual([]);
    expect(Date.now() - t2).toBeGreaterThanOrEqual(350);
    // the high-water mark moved past those unrelated writes
    expect(reply2.cursor.postBatchResumeToken._data > reply.cursor.postBatchResumeToken._data).toBe(true);
    const killed = await db().command({ killCursors: collection, cursors: [id, id2] });
    expect(killed.cursorsKilled.map(String).sort()).toEqual([id, id2].map(String).sort());
    const gone = await failure(db().command({ getMore: id, collection, maxTimeMS: 100 }));
    expect(gone?.code).toBe(43);
  });

  it("should show each client the other's writes (two MongoClient instances)", async () => {
    const second = await MongoClient.connect(target.uri, { serverSelectionTimeoutMS: 5000 });
    try {
      const a = db().collection("shared");
      const b = second.db(target.dbName).collection("shared");
      const watchA = await opened(a.watch<Document, Ev>([], { maxAwaitTimeMS: AWAIT_MS }));
      const watchB = await opened(b.watch<Document, Ev>([], { maxAwaitTimeMS: AWAIT_MS }));
      await b.insertOne({ _id: "from-b" as never });
      await a.insertOne({ _id: "from-a" as never });
      const seenByA = await take(watchA, 2);
      const seenByB = await take(watchB, 2);
      await watchA.close();
      await watchB.close();
      expect(seenByA.map((e) => e.documentKey?._id)).toEqual(["from-b", "from-a"]);
      expect(seenByB.map((e) => e.documentKey?._id)).toEqual(["from-b", "from-a"]);
    } finally {
      await second.close();
    }
  });

  it("should watch the whole deployment from admin (client.watch)", async () => {
    const stream = await opened(target.client.watch<Document, Ev>([], { maxAwaitTimeMS: AWAIT_MS }));
    await db()
      .collection("x")
      .insertOne({ _id: 1 as never });
    await target.client
      .db(`${target.dbName}_y`)
      .collection("y")
      .insertOne({ _id: 2 as never });
    const events = await take(stream, 2);
    await stream.close();
    await target.client.db(`${target.dbName}_y`).dropDatabase();
    expect(events.map((e) => [e.ns?.db, e.documentKey?._id])).toEqual([
      [target.dbName, 1],
      [`${target.dbName}_y`, 2],
    ]);
  });

  it.skipIf(againstRealMongo)("should connect with ?replicaSet= and with directConnection", async () => {
    for (const options of ["replicaSet=rs0", "directConnection=true"]) {
      const client = await MongoClient.connect(
        `${target.uri}${target.uri.includes("?") ? "&" : "?"}${options}`,
        {
          serverSelectionTimeoutMS: 5000,
        },
      );
      try {
        const coll = client.db(target.dbName).collection(`uri_${options.split("=")[0]}`);
        const stream = await opened(coll.watch<Document, Ev>([], { maxAwaitTimeMS: AWAIT_MS }));
        await coll.insertOne({ _id: 1 as never });
        expect((await take(stream, 1)).map((e) => e.operationType)).toEqual(["insert"]);
        await stream.close();
      } finally {
        await client.close();
      }
    }
  });
});

describe.skipIf(againstRealMongo)("change stream history (store-only)", () => {
  it("should answer 286 ChangeStreamHistoryLost for a resume point that is no longer kept", async () => {
    const store = await startEmbeddedStore({ memory: true, changeStreamHistory: { maxEvents: 5 } });
    const client = await MongoClient.connect(store.uri, { serverSelectionTimeoutMS: 5000 });
    try {
      const coll = client.db("h").collection("c");
      const stream = await opened(coll.watch<Document, Ev>([], { maxAwaitTimeMS: AWAIT_MS }));
      const lagging = await opened(coll.watch<Document, Ev>([], { maxAwaitTimeMS: AWAIT_MS }));
      await coll.insertOne({ _id: 0 as never });
      const [first] = await take(stream, 1);
      await stream.close();
      // within the history: resumable
      const within = coll.watch<Document, Ev>([], { resumeAfter: first._id, maxAwaitTimeMS: AWAIT_MS });
      expect(await drain(within)).toEqual([]);
      await within.close();
      await coll.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i + 1 })) as never[]);
      const lost = coll.watch([], { resumeAfter: first._id });
      const err = await failure(lost.tryNext());
      await lost.close();
      expect(err?.code).toBe(286);
      expect((err as { codeName?: string }).codeName).toBe("ChangeStreamHistoryLost");
      const byTime = coll.watch([], { startAtOperationTime: first.clusterTime as Timestamp });
      expect((await failure(byTime.tryNext()))?.code).toBe(286);
      await byTime.close();
      // an open stream that fell behind the history fails the same way (not resumable: the driver gives up)
      expect((await failure(take(lagging, 1)))?.code).toBe(286);
      await lagging.close();
    } finally {
      await client.close();
      await store.close();
    }
  });

  it("should refuse a token from an earlier run of the store (286): the history is not kept across starts", async () => {
    const first = await startEmbeddedStore({ memory: true });
    const a = await MongoClient.connect(first.uri, { serverSelectionTimeoutMS: 5000 });
    const coll = a.db("h").collection("c");
    const stream = await opened(coll.watch<Document, Ev>([], { maxAwaitTimeMS: AWAIT_MS }));
    await coll.insertOne({ _id: 1 as never });
    const [event] = await take(stream, 1);
    await stream.close();
    await a.close();
    await first.close();
    const second = await startEmbeddedStore({ memory: true });
    const b = await MongoClient.connect(second.uri, { serverSelectionTimeoutMS: 5000 });
    try {
      const resumed = b.db("h").collection("c").watch([], { resumeAfter: event._id });
      expect((await failure(resumed.tryNext()))?.code).toBe(286);
      await resumed.close();
    } finally {
      await b.close();
      await second.close();
    }
  });

  it("should let a client with two waiting streams find the restarted store: both fail with 286, writes work", async () => {
    // The store closes idle connections (the driver's monitor) before busy ones (the awaitData getMores):
    // closed in the same instant, the driver's monitor could hang forever on a dead socket and the client
    // never reconnected (both next() pending, every operation failing server selection).
    const dir = await mkdtemp(path.join(os.tmpdir(), "em-restart-"));
    // the restarted store takes the same login, as a deployment's fixed password would give it
    const credentials = { password: "restart-test" };
    let store = await startEmbeddedStore({ dbpath: dir, credentials });
    const port = store.port;
    const client = await MongoClient.connect(store.uri, { serverSelectionTimeoutMS: 10_000 });
    try {
      const db = client.db("h");
      await db.collection("x").insertOne({ _id: 1 as never });
      const streams = ["a", "b"].map((c) => db.collection(c).watch([], { maxAwaitTimeMS: 500 }));
      const outcomes = streams.map((s) => failure(s.next()));
      await new Promise((r) => setTimeout(r, 700)); // both streams wait in a getMore
      await store.close();
      store = await startEmbeddedStore({ dbpath: dir, port, credentials });
      const started = Date.now();
      const within = (p: Promise<unknown>, ms: number) =>
        Promise.race([p, new Promise((r) => setTimeout(() => r("timeout"), ms))]);
      const errors = (await within(Promise.all(outcomes), 8_000)) as Array<{ code?: number }> | "timeout";
      expect(errors).not.toBe("timeout");
      expect((errors as Array<{ code?: number }>).map((e) => e?.code)).toEqual([286, 286]);
      expect(await within(db.collection("x").countDocuments(), 8_000)).toBe(1);
      expect(Date.now() - started).toBeLessThan(8_000);
      for (const s of streams) await s.close();
    } finally {
      await client.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

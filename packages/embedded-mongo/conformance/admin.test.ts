import { Long, MongoClient, MongoServerError, UUID } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { againstRealMongo, openTarget, type Target } from "./harness";
import { opMsg, RawConnection } from "./wire-client";

let target: Target;

beforeAll(async () => {
  target = await openTarget("admin");
});
afterAll(() => target?.close());

const adminDb = () => target.client.db("admin");
const db = () => target.client.db(target.dbName);

/** Run a command and return the MongoServerError it fails with (the test fails if it succeeds). */
async function commandError(command: Record<string, unknown>, dbName?: string): Promise<MongoServerError> {
  const err = await target.client
    .db(dbName ?? target.dbName)
    .command(command)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(MongoServerError);
  return err as MongoServerError;
}

describe("admin commands", () => {
  it("should answer hello, isMaster and ismaster", async () => {
    const hello = await adminDb().command({ hello: 1 });
    expect(hello).toMatchObject({ ok: 1, isWritablePrimary: true, logicalSessionTimeoutMinutes: 30 });
    expect(typeof hello.connectionId).toBe("number");
    expect((await adminDb().command({ isMaster: 1 })).ismaster).toBe(true);
    expect((await adminDb().command({ ismaster: 1 })).ismaster).toBe(true);
  });

  it("should answer ping, buildInfo, hostInfo and whatsmyuri", async () => {
    expect(await db().command({ ping: 1 })).toMatchObject({ ok: 1 });
    const info = await adminDb().command({ buildInfo: 1 });
    expect(info.ok).toBe(1);
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.versionArray).toHaveLength(4);
    expect(info.maxBsonObjectSize).toBe(16 * 1024 * 1024);
    const host = await adminDb().command({ hostInfo: 1 });
    expect(host.system.hostname).toEqual(expect.any(String));
    expect(host.system.numCores).toBeGreaterThan(0);
    const me = await adminDb().command({ whatsmyuri: 1 });
    expect(me.you).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it("should answer getParameter for featureCompatibilityVersion and reject unknown parameters", async () => {
    const fcv = await adminDb().command({ getParameter: 1, featureCompatibilityVersion: 1 });
    expect(fcv.featureCompatibilityVersion.version).toMatch(/^\d+\.\d+$/);
    const err = await commandError({ getParameter: 1, noSuchParameterAnywhere: 1 }, "admin");
    expect(err.code).toBe(72);
  });

  it("should list databases with sizes, and only on admin", async () => {
    await db().collection("c").insertOne({ a: 1 });
    const list = await adminDb().command({ listDatabases: 1 });
    const mine = list.databases.find((d: { name: string }) => d.name === target.dbName);
    expect(mine).toMatchObject({ name: target.dbName, empty: false });
    expect(typeof mine.sizeOnDisk).toBe("number");
    expect(typeof list.totalSize).toBe("number");
    const names = await adminDb().command({ listDatabases: 1, nameOnly: true });
    expect(names.databases.map((d: { name: string }) => d.name)).toContain(target.dbName);
    const err = await commandError({ listDatabases: 1 });
    expect(err.code).toBe(13);
  });

  it("should answer dbStats and collStats with counts", async () => {
    await db()
      .collection("stats")
      .insertMany([{ a: 1 }, { a: 2 }, { a: 3 }]);
    const dbStats = await db().command({ dbStats: 1 });
    expect(dbStats).toMatchObject({ ok: 1, db: target.dbName });
    expect(dbStats.collections).toBeGreaterThanOrEqual(1);
    expect(dbStats.objects).toBeGreaterThanOrEqual(3);
    const collStats = await db().command({ collStats: "stats" });
    expect(collStats).toMatchObject({ ok: 1, ns: `${target.dbName}.stats`, count: 3, nindexes: 1 });
    expect(collStats.size).toBeGreaterThan(0);
    expect(Object.keys(collStats.indexSizes)).toEqual(["_id_"]);
  });

  it("should accept endSessions for sessions it never saw", async () => {
    expect(await adminDb().command({ endSessions: [{ id: new UUID() }] })).toMatchObject({ ok: 1 });
    const session = target.client.startSession();
    await db().collection("c").findOne({}, { session });
    await session.endSession();
  });

  it("should serve a client that asks for compression (the store negotiates none)", async () => {
    const client = await MongoClient.connect(target.uri, { compressors: ["zlib"] });
    try {
      const coll = client.db(target.dbName).collection("compressed");
      await coll.insertOne({ text: "x".repeat(100_000) });
      expect((await coll.findOne())?.text).toHaveLength(100_000);
    } finally {
      await client.close();
    }
  });

  it("should answer an unknown command with 59 CommandNotFound", async () => {
    const err = await commandError({ fooBarBaz: 1 });
    expect(err.code).toBe(59);
    expect(err.codeName).toBe("CommandNotFound");
    expect(err.message).toBe("no such command: 'fooBarBaz'");
  });

  it.skipIf(againstRealMongo)("should refuse transactions (20 IllegalOperation)", async () => {
    await db().collection("txn").insertOne({ a: 1 });
    const session = target.client.startSession();
    try {
      session.startTransaction();
      const readErr = await db()
        .collection("txn")
        .findOne({}, { session })
        .then(
          () => undefined,
          (e: unknown) => e as MongoServerError,
        );
      expect(readErr?.code).toBe(20);
      expect(readErr?.codeName).toBe("IllegalOperation");
      expect(readErr?.message).toBe("Transactions are not supported by the embedded store");
      await session.abortTransaction().catch(() => {});
    } finally {
      await session.endSession();
    }
    const raw = await commandError({
      find: "txn",
      lsid: { id: new UUID() },
      txnNumber: Long.fromNumber(1),
      startTransaction: true,
      autocommit: false,
    });
    expect(raw.code).toBe(20);
    expect(await db().collection("txn").countDocuments()).toBe(1);
  });

  it("should apply a retried write once (retryable writes: same lsid and txnNumber)", async () => {
    // over a raw connection: the driver would put its own (pooled, reused) session id on the command
    const conn = await RawConnection.open(target.uri);
    const lsid = { id: new UUID() };
    const send = async (txnNumber: number, _id: number) => {
      const doc = { insert: "retry", documents: [{ _id }], lsid, txnNumber: Long.fromNumber(txnNumber) };
      return conn.command(opMsg([{ kind: 0, doc: { ...doc, $db: target.dbName } }]));
    };
    expect(await send(1, 1)).toMatchObject({ ok: 1, n: 1 });
    // the same write sent again (a driver retrying after a network error): answered, not applied twice
    expect(await send(1, 1)).toMatchObject({ ok: 1, n: 1 });
    expect(await send(2, 2)).toMatchObject({ ok: 1, n: 1 });
    expect(await send(1, 3)).toMatchObject({ ok: 0, code: 225 });
    conn.close();
    expect(await db().collection("retry").countDocuments()).toBe(2);
    // the driver's own retryable writes (on by default against a replica set)
    await db()
      .collection("retry")
      .insertOne({ _id: 4 } as never);
    expect(await db().collection("retry").countDocuments()).toBe(3);
  });

  it("should accept and ignore comment, maxTimeMS, readConcern and writeConcern", async () => {
    const coll = db().collection("opts");
    await coll.insertOne({ a: 1 }, { writeConcern: { w: 1, j: true }, comment: "hello" });
    await coll.insertOne({ a: 2 }, { writeConcern: { w: "majority" } });
    const docs = await coll
      .find({}, { readConcern: { level: "local" }, maxTimeMS: 5000, comment: "c" })
      .toArray();
    expect(docs).toHaveLength(2);
  });

  it("should answer replSetGetStatus as the primary of its replica set", async () => {
    const status = await adminDb().command({ replSetGetStatus: 1 });
    const hello = await adminDb().command({ hello: 1 });
    expect(status).toMatchObject({ ok: 1, set: hello.setName, myState: 1 });
    expect(status.members.find((m: { self?: boolean }) => m.self)).toMatchObject({
      stateStr: "PRIMARY",
      name: hello.me,
    });
  });

  it.skipIf(againstRealMongo)(
    "should refuse commands it does not implement with 115 and a clear message",
    async () => {
      const err = await commandError({ explain: { find: "c" } });
      expect(err.code).toBe(115);
      expect(err.codeName).toBe("CommandNotSupported");
      expect(err.message).toBe("the 'explain' command is not supported by the embedded store");
      const agg = await commandError({ aggregate: "c", pipeline: [], cursor: {}, explain: true });
      expect(agg.code).toBe(115);
      const capped = await commandError({ create: "capped", capped: true, size: 4096 });
      expect(capped.code).toBe(115);
      expect(capped.message).toMatch(/capped/);
    },
  );

  it.skipIf(againstRealMongo)("should report itself as MongoDB 7.0 (wire version 21)", async () => {
    const hello = await adminDb().command({ hello: 1 });
    expect(hello.maxWireVersion).toBe(21);
    expect((await adminDb().command({ buildInfo: 1 })).version).toBe("7.0.0");
  });
});

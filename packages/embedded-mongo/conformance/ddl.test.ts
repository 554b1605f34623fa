import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, openTarget, type Target } from "./harness";

let target: Target;

beforeAll(async () => {
  target = await openTarget("ddl");
});
afterAll(() => target?.close());

const db = () => target.client.db(target.dbName);
const names = async () =>
  (await db().listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();

describe("collections and databases", () => {
  it("should create a collection once and answer 48 NamespaceExists after", async () => {
    expect(await db().command({ create: "made" })).toMatchObject({ ok: 1 });
    const err = await failure(db().command({ create: "made" }));
    expect(err.code).toBe(48);
    expect(err.codeName).toBe("NamespaceExists");
    const [info] = await db().listCollections({ name: "made" }).toArray();
    expect(info).toMatchObject({ name: "made", type: "collection", options: {}, info: { readOnly: false } });
    expect((info as Record<string, unknown>).idIndex).toMatchObject({ key: { _id: 1 }, name: "_id_" });
  });

  it("should create collections implicitly on first insert and drop them", async () => {
    await db().collection("implicit").insertOne({ a: 1 });
    expect(await names()).toContain("implicit");
    const dropped = await db().command({ drop: "implicit" });
    expect(dropped).toMatchObject({ ok: 1, nIndexesWas: 1, ns: `${target.dbName}.implicit` });
    expect(await names()).not.toContain("implicit");
    expect(await db().collection("implicit").countDocuments()).toBe(0);
    // dropping a missing collection is not an error for the driver
    expect(await db().collection("neverExisted").drop()).toBe(true);
  });

  it("should rename a collection with its documents and indexes", async () => {
    const from = db().collection("renFrom");
    await from.insertMany([{ k: 1 }, { k: 2 }]);
    await from.createIndex({ k: 1 }, { unique: true });
    await from.rename("renTo");
    const to = db().collection("renTo");
    expect(await to.countDocuments()).toBe(2);
    expect((await to.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_", "k_1"]);
    expect(await names()).not.toContain("renFrom");
    await db().collection("renOther").insertOne({ other: true });
    const exists = await failure(db().collection("renOther").rename("renTo"));
    expect(exists.code).toBe(48);
    await db().collection("renOther").rename("renTo", { dropTarget: true });
    expect(await to.find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ other: true }]);
    const missing = await failure(db().collection("renMissing").rename("renX"));
    expect(missing.code).toBe(26);
    const notAdmin = await failure(
      db().command({ renameCollection: `${target.dbName}.renTo`, to: `${target.dbName}.y` }),
    );
    expect(notAdmin.code).toBe(13);
    const otherDb = target.client.db(`${target.dbName}_ren`);
    await target.client
      .db("admin")
      .command({ renameCollection: `${target.dbName}.renTo`, to: `${otherDb.databaseName}.moved` });
    expect(await otherDb.collection("moved").countDocuments()).toBe(1);
    expect(await names()).not.toContain("renTo");
    await otherDb.dropDatabase();
  });

  it("should drop a whole database", async () => {
    const other = target.client.db(`${target.dbName}_drop`);
    await other.collection("a").insertOne({ a: 1 });
    await other.collection("b").insertOne({ b: 1 });
    const before = (
      await target.client.db("admin").command({ listDatabases: 1, nameOnly: true })
    ).databases.map((d: { name: string }) => d.name);
    expect(before).toContain(other.databaseName);
    expect(await other.dropDatabase()).toBe(true);
    const after = (
      await target.client.db("admin").command({ listDatabases: 1, nameOnly: true })
    ).databases.map((d: { name: string }) => d.name);
    expect(after).not.toContain(other.databaseName);
    expect(await other.collection("a").countDocuments()).toBe(0);
  });

  it("should reject invalid collection names", async () => {
    const err = await failure(db().command({ find: 42 }));
    expect([2, 73]).toContain(err.code);
    const empty = await failure(db().command({ insert: "", documents: [{}] }));
    expect(empty.code).toBe(73);
  });
});

/** The durable engine end to end: everything comes back after a restart or a kill -9. */
import { Long, ObjectId } from "bson";
import { describe, expect, it } from "vitest";
import { spawnEngineScript, useDataDir } from "./testkit";

describe("engine durability", () => {
  const data = useDataDir();

  it("should bring back documents, bson types, indexes and collection metadata after reopening", async () => {
    const e = await data.open();
    const oid = new ObjectId();
    await e.createCollection("app", "empty");
    await e.createIndexes("app", "users", [{ name: "email_1", key: { email: 1 }, unique: true }]);
    await e.insert(
      "app",
      "users",
      [
        { _id: oid, email: "a@b.dk", at: new Date(5), big: Long.fromString("9007199254740993") },
        { email: "b@b.dk" },
      ],
      true,
    );
    await e.update("app", "users", [{ q: { email: "b@b.dk" }, u: { $set: { name: "B" } } }], true);
    await e.insert("app", "gone", [{ x: 1 }], true);
    await e.dropCollection("app", "gone");
    await e.delete("app", "users", [{ q: { email: "nobody" }, limit: 1 }], true);
    await e.close();

    const r = await data.open();
    expect(
      r
        .listCollections("app")
        .map((c) => c.name)
        .sort(),
    ).toEqual(["empty", "users"]);
    const a = r.find("app", "users", { filter: { _id: oid } })[0];
    expect(a._id).toBeInstanceOf(ObjectId);
    expect(a.at).toEqual(new Date(5));
    expect(String(a.big)).toBe("9007199254740993");
    expect(r.find("app", "users", { filter: { email: "b@b.dk" } })[0].name).toBe("B");
    expect(r.lastPlan?.index).toBe("email_1");
    expect(r.listIndexes("app", "users").map((i) => i.name)).toEqual(["_id_", "email_1"]);
    const dup = await r.insert("app", "users", [{ email: "a@b.dk" }], true);
    expect(dup.writeErrors[0].code).toBe(11000);
  });

  it("should survive kill -9 right after acknowledged writes", async () => {
    const writer = spawnEngineScript(
      data.dir,
      "writer",
      `
      const e = await createEngine({ dbpath: ${JSON.stringify(data.dir)} });
      for (let i = 0; i < 50; i++) await e.insert("db", "c", [{ _id: i }], true);
      await e.update("db", "c", [{ q: { _id: 7 }, u: { $set: { seven: true } } }], true);
      process.stdout.write("acked\\n");
      setInterval(() => {}, 1000);
    `,
    );
    try {
      const { child } = writer;
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (d) => {
          if (String(d).includes("acked")) resolve();
        });
        child.on("exit", (code) => reject(new Error(`writer exited early with ${code}`)));
      });
      child.kill("SIGKILL");
      await new Promise((r) => child.on("exit", r));
    } finally {
      writer.cleanup();
    }
    // the dead writer's lock is stale and is taken over
    const r = await data.open();
    expect(r.count("db", "c")).toBe(50);
    expect(r.find("db", "c", { filter: { _id: 7 } })[0].seven).toBe(true);
  });
});

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Long, ObjectId } from "bson";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEngine, type Engine, StoreError } from "./index";

let dir: string;
const open: Engine[] = [];

async function openEngine(extra: object = {}): Promise<Engine> {
  const e = await createEngine({ dbpath: dir, ...extra });
  open.push(e);
  return e;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-durability-"));
});
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function journal(): string {
  const f = fs.readdirSync(dir).find((n) => n.endsWith(".wal"));
  if (!f) throw new Error("no journal");
  return path.join(dir, f);
}

describe("engine durability", () => {
  it("should bring back documents, bson types, indexes and collection metadata after reopening", async () => {
    const e = await openEngine();
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

    const r = await openEngine();
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

  it("should fsync acknowledged writes when asked and read them back", async () => {
    const e = await openEngine({ fsync: true });
    await e.insert("db", "c", [{ _id: "a" }], true);
    await e.findAndModify("db", "c", { query: { _id: "b" }, update: { $set: { v: 1 } }, upsert: true });
    await e.close();
    const r = await openEngine();
    expect(r.find("db", "c", { filter: {} })).toEqual([{ _id: "a" }, { _id: "b", v: 1 }]);
  });

  it("should ignore a torn record at the end of the log and keep appending after it", async () => {
    const e = await openEngine();
    await e.insert("db", "c", [{ _id: 1 }, { _id: 2 }], true);
    await e.close();
    // a crash in the middle of writing a record: a header promising more bytes than were written
    const torn = Buffer.alloc(20);
    torn.writeUInt32LE(500, 0);
    torn.writeUInt32LE(12345, 4);
    fs.appendFileSync(journal(), torn);
    const r = await openEngine();
    expect(r.find("db", "c", { filter: {} }).map((d) => d._id)).toEqual([1, 2]);
    await r.insert("db", "c", [{ _id: 3 }], true);
    await r.close();
    const r2 = await openEngine();
    expect(r2.find("db", "c", { filter: {} }).map((d) => d._id)).toEqual([1, 2, 3]);
  });

  it("should drop a record whose checksum does not match", async () => {
    const e = await openEngine();
    await e.insert("db", "c", [{ _id: 1 }], true);
    await e.insert("db", "c", [{ _id: 2, v: "abcdef" }], true);
    await e.close();
    const buf = fs.readFileSync(journal());
    const i = buf.lastIndexOf(Buffer.from("abcdef"));
    buf[i] = "x".charCodeAt(0);
    fs.writeFileSync(journal(), buf);
    const r = await openEngine();
    expect(r.find("db", "c", { filter: {} }).map((d) => d._id)).toEqual([1]);
  });

  it("should compact the log into a snapshot and recover from snapshot plus log", async () => {
    const e = await openEngine({ compactAfterBytes: 4096 });
    await e.createIndexes("db", "c", [{ name: "n_1", key: { n: 1 }, unique: true }]);
    for (let i = 0; i < 20; i++) await e.insert("db", "c", [{ _id: i, n: i, pad: "x".repeat(300) }], true);
    expect(fs.existsSync(path.join(dir, "snapshot.bson"))).toBe(true);
    await e.update("db", "c", [{ q: { _id: 19 }, u: { $set: { last: true } } }], true);
    await e.delete("db", "c", [{ q: { _id: 0 }, limit: 1 }], true);
    expect(fs.statSync(journal()).size).toBeLessThan(4096 + 1000);
    await e.close();
    const r = await openEngine();
    expect(r.count("db", "c")).toBe(19);
    expect(r.find("db", "c", { filter: { _id: 19 } })[0].last).toBe(true);
    expect(r.find("db", "c", { filter: { n: 5 } }).length).toBe(1);
    expect(r.lastPlan?.index).toBe("n_1");
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".wal")).length).toBe(1);
  });

  it("should ignore the leftovers of a compaction that crashed before its snapshot was renamed", async () => {
    const e = await openEngine();
    await e.insert("db", "c", [{ _id: 1 }, { _id: 2 }], true);
    await e.close();
    // a crash mid-compaction leaves a partial snapshot.tmp and the next (empty) log generation
    fs.writeFileSync(path.join(dir, "snapshot.tmp"), Buffer.from("partial"));
    fs.writeFileSync(path.join(dir, "journal.2.wal"), Buffer.alloc(0));
    const r = await openEngine();
    expect(r.find("db", "c", { filter: {} }).map((d) => d._id)).toEqual([1, 2]);
    expect(fs.readdirSync(dir).sort()).toEqual(["journal.1.wal", "mongod.lock"]);
  });

  it("should survive kill -9 right after acknowledged writes", async () => {
    const script = `
      import { createEngine } from ${JSON.stringify(path.resolve(__dirname, "index.ts"))};
      const e = await createEngine({ dbpath: ${JSON.stringify(dir)} });
      for (let i = 0; i < 50; i++) await e.insert("db", "c", [{ _id: i }], true);
      await e.update("db", "c", [{ q: { _id: 7 }, u: { $set: { seven: true } } }], true);
      process.stdout.write("acked\\n");
      setInterval(() => {}, 1000);
    `;
    const file = path.join(dir, "..", `${path.basename(dir)}-writer.mts`);
    fs.writeFileSync(file, script);
    try {
      const child = spawn(process.execPath, ["--import", "tsx", file], {
        cwd: path.resolve(__dirname, "../../../../.."),
      });
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (d) => {
          if (String(d).includes("acked")) resolve();
        });
        child.on("exit", (code) => reject(new Error(`writer exited early with ${code}`)));
      });
      child.kill("SIGKILL");
      await new Promise((r) => child.on("exit", r));
    } finally {
      fs.rmSync(file, { force: true });
    }
    // the dead writer's lock is stale and is taken over
    const r = await openEngine();
    expect(r.count("db", "c")).toBe(50);
    expect(r.find("db", "c", { filter: { _id: 7 } })[0].seven).toBe(true);
  });

  it("should refuse a data directory locked by a live process, naming the directory and pid", async () => {
    await openEngine();
    let err: unknown;
    try {
      await createEngine({ dbpath: dir });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).message).toContain(dir);
    expect((err as StoreError).message).toContain(`pid ${process.pid}`);
  });

  it("should take over a stale lock left by a dead process", async () => {
    // a pid that is not running: spawn a process and wait for it to end
    const child = spawn(process.execPath, ["-e", ""]);
    const deadPid = child.pid as number;
    await new Promise((r) => child.on("exit", r));
    fs.writeFileSync(path.join(dir, "mongod.lock"), `${deadPid}\n`);
    const e = await openEngine();
    expect(fs.readFileSync(path.join(dir, "mongod.lock"), "utf8").trim()).toBe(String(process.pid));
    await e.close();
    expect(fs.existsSync(path.join(dir, "mongod.lock"))).toBe(false);
  });
});

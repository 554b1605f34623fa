import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Long, ObjectId } from "bson";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEngine, type Engine, StoreError } from "./index";
import { encodeRecord } from "./storage";

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
    await e.compacted();
    expect(fs.existsSync(path.join(dir, "snapshot.bson"))).toBe(true);
    await e.update("db", "c", [{ q: { _id: 19 }, u: { $set: { last: true } } }], true);
    await e.delete("db", "c", [{ q: { _id: 0 }, limit: 1 }], true);
    expect(fs.statSync(journal()).size).toBeLessThan(4096 + 1000);
    await e.compacted();
    await e.close();
    const r = await openEngine();
    expect(r.count("db", "c")).toBe(19);
    expect(r.find("db", "c", { filter: { _id: 19 } })[0].last).toBe(true);
    expect(r.find("db", "c", { filter: { n: 5 } }).length).toBe(1);
    expect(r.lastPlan?.index).toBe("n_1");
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".wal")).length).toBe(1);
  });

  it("should recover a compaction cut short: old snapshot, its log and the next log, no partial snapshot", async () => {
    const e = await openEngine();
    await e.insert("db", "c", [{ _id: 1 }, { _id: 2 }], true);
    await e.close();
    // a crash mid-compaction leaves a partial snapshot.tmp and the next log generation, with the writes
    // acknowledged after the compaction began; a log that does not follow on is not part of the history
    fs.writeFileSync(path.join(dir, "snapshot.tmp"), Buffer.from("partial"));
    fs.writeFileSync(
      path.join(dir, "journal.2.wal"),
      Buffer.concat([
        encodeRecord({ o: "i", db: "db", c: "c", d: { _id: 3 } }),
        encodeRecord({ o: "r", db: "db", c: "c", id: 1 }),
      ]),
    );
    fs.writeFileSync(
      path.join(dir, "journal.4.wal"),
      encodeRecord({ o: "i", db: "db", c: "c", d: { _id: 4 } }),
    );
    const r = await openEngine();
    expect(r.find("db", "c", { filter: {} }).map((d) => d._id)).toEqual([2, 3]);
    expect(fs.readdirSync(dir).sort()).toEqual(["journal.1.wal", "journal.2.wal", "mongod.lock"]);
    // and the next write goes to the newest log
    await r.insert("db", "c", [{ _id: 5 }], true);
    await r.close();
    const again = await openEngine();
    expect(again.find("db", "c", { filter: {} }).map((d) => d._id)).toEqual([2, 3, 5]);
  });

  it("should keep serving and logging writes while a compaction is written, and recover all of them", async () => {
    const e = await openEngine({ compactAfterBytes: 64 * 1024 });
    await e.createIndexes("db", "c", [{ name: "k_1", key: { k: 1 }, unique: true }]);
    const pad = "x".repeat(1000);
    for (let i = 0; i < 5000; i += 100) {
      await e.insert(
        "db",
        "c",
        Array.from({ length: 100 }, (_, j) => ({ _id: i + j, k: i + j, pad })),
        true,
      );
    }
    // a compaction of ~5 MB is under way now or starts with the next writes; these land beside it
    await e.update("db", "c", [{ q: { _id: 7 }, u: { $set: { k: -7 } } }], true);
    await e.delete("db", "c", [{ q: { _id: 8 }, limit: 1 }], true);
    await e.insert("db", "c", [{ _id: 8, k: 8, again: true }], true);
    await e.compacted();
    await e.update("db", "c", [{ q: { _id: 9 }, u: { $set: { nine: true } } }], true);
    await e.close();
    const r = await openEngine();
    expect(r.count("db", "c")).toBe(5000);
    expect(r.find("db", "c", { filter: { _id: 7 } })[0].k).toBe(-7);
    expect(r.find("db", "c", { filter: { _id: 8 } })[0].again).toBe(true);
    expect(r.find("db", "c", { filter: { _id: 9 } })[0].nine).toBe(true);
    expect(r.find("db", "c", { filter: { k: 4999 } }).length).toBe(1);
    expect(fs.existsSync(path.join(dir, "snapshot.bson"))).toBe(true);
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
        cwd: path.resolve(__dirname, "../.."), // the package root (tsx resolves from there)
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

  it("should keep every acknowledged write when killed -9 while a compaction is being written", async () => {
    // the writer prints each acknowledged batch; compactions of a growing store run all the time
    const script = `
      import { createEngine } from ${JSON.stringify(path.resolve(__dirname, "index.ts"))};
      const e = await createEngine({ dbpath: ${JSON.stringify(dir)}, compactAfterBytes: 2 * 1024 * 1024 });
      const pad = "y".repeat(2000);
      for (let b = 0; ; b++) {
        await e.insert("db", "c", Array.from({ length: 50 }, (_, j) => ({ _id: b * 50 + j, pad })), true);
        process.stdout.write("acked " + b + "\\n");
      }
    `;
    const file = path.join(dir, "..", `${path.basename(dir)}-compacting.mts`);
    fs.writeFileSync(file, script);
    let acked = -1;
    let sawCompaction = false;
    try {
      const child = spawn(process.execPath, ["--import", "tsx", file], {
        cwd: path.resolve(__dirname, "../.."), // the package root (tsx resolves from there)
      });
      await new Promise<void>((resolve, reject) => {
        const poll = setInterval(() => {
          // kill once a snapshot is being written and the store holds a few compactions' worth
          if (acked >= 300 && fs.existsSync(path.join(dir, "snapshot.tmp"))) {
            sawCompaction = true;
            clearInterval(poll);
            child.kill("SIGKILL");
          }
        }, 1);
        let out = "";
        child.stdout.on("data", (d) => {
          out += String(d);
          const lines = out.split("\n");
          out = lines.pop() ?? "";
          for (const l of lines) if (l.startsWith("acked ")) acked = Number(l.slice(6));
        });
        child.on("exit", (_code, signal) => {
          clearInterval(poll);
          if (signal === "SIGKILL") resolve();
          else reject(new Error("writer exited early"));
        });
        setTimeout(() => {
          clearInterval(poll);
          child.kill("SIGKILL");
        }, 60_000);
      });
    } finally {
      fs.rmSync(file, { force: true });
    }
    expect(sawCompaction).toBe(true);
    const r = await openEngine();
    // every acknowledged batch is there (a batch in flight at the kill may be there too)
    const n = r.count("db", "c");
    expect(n).toBeGreaterThanOrEqual((acked + 1) * 50);
    expect(n % 50).toBe(0);
    expect(r.find("db", "c", { filter: { _id: acked * 50 + 49 } }).length).toBe(1);
  }, 90_000);

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

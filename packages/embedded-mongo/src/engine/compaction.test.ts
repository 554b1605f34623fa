/** Compaction: the logs folded into a snapshot in the background, while writes go on, and across kill -9. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { spawnEngineScript, useDataDir } from "./testkit";

/** the size of a file, 0 when it is not there (a snapshot.tmp comes and goes) */
function snapshotBytes(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

describe("compaction", () => {
  const data = useDataDir();

  it("should compact the log into a snapshot and recover from snapshot plus log", async () => {
    const e = await data.open({ compactAfterBytes: 4096 });
    await e.createIndexes("db", "c", [{ name: "n_1", key: { n: 1 }, unique: true }]);
    for (let i = 0; i < 20; i++) await e.insert("db", "c", [{ _id: i, n: i, pad: "x".repeat(300) }], true);
    await e.compacted();
    expect(fs.existsSync(path.join(data.dir, "snapshot.bson"))).toBe(true);
    await e.update("db", "c", [{ q: { _id: 19 }, u: { $set: { last: true } } }], true);
    await e.delete("db", "c", [{ q: { _id: 0 }, limit: 1 }], true);
    expect(fs.statSync(data.journal()).size).toBeLessThan(4096 + 1000);
    await e.compacted();
    await e.close();
    const r = await data.open();
    expect(r.count("db", "c")).toBe(19);
    expect(r.find("db", "c", { filter: { _id: 19 } })[0].last).toBe(true);
    expect(r.find("db", "c", { filter: { n: 5 } }).length).toBe(1);
    expect(r.lastPlan?.index).toBe("n_1");
    expect(fs.readdirSync(data.dir).filter((f) => f.endsWith(".wal")).length).toBe(1);
  });

  it("should keep serving and logging writes while a compaction is written, and recover all of them", async () => {
    const e = await data.open({ compactAfterBytes: 64 * 1024 });
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
    const r = await data.open();
    expect(r.count("db", "c")).toBe(5000);
    expect(r.find("db", "c", { filter: { _id: 7 } })[0].k).toBe(-7);
    expect(r.find("db", "c", { filter: { _id: 8 } })[0].again).toBe(true);
    expect(r.find("db", "c", { filter: { _id: 9 } })[0].nine).toBe(true);
    expect(r.find("db", "c", { filter: { k: 4999 } }).length).toBe(1);
    expect(fs.existsSync(path.join(data.dir, "snapshot.bson"))).toBe(true);
  });

  it("should keep every acknowledged write when killed -9 while a compaction is being written", async () => {
    // the writer prints each acknowledged batch; compactions of a growing store run all the time. It gives the
    // event loop a turn between batches, as the wire server does between requests: the snapshot's slices are
    // written in those turns (a loop that never yields would leave snapshot.tmp empty until the kill)
    const writer = spawnEngineScript(
      data.dir,
      "compacting",
      `
      const e = await createEngine({ dbpath: ${JSON.stringify(data.dir)}, compactAfterBytes: 512 * 1024 });
      const pad = "y".repeat(500);
      for (let b = 0; ; b++) {
        await e.insert("db", "c", Array.from({ length: 50 }, (_, j) => ({ _id: b * 50 + j, pad })), true);
        process.stdout.write("acked " + b + "\\n");
        await new Promise((r) => setImmediate(r));
      }
    `,
    );
    let acked = -1;
    let sawCompaction = false;
    try {
      const { child } = writer;
      await new Promise<void>((resolve, reject) => {
        const poll = setInterval(() => {
          // kill once part of a snapshot is written and the store holds a few compactions' worth
          if (acked >= 200 && snapshotBytes(path.join(data.dir, "snapshot.tmp")) > 0) {
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
      writer.cleanup();
    }
    expect(sawCompaction).toBe(true);
    // earlier compactions finished: recovery goes through a snapshot, its logs and the next one's leftovers
    expect(fs.existsSync(path.join(data.dir, "snapshot.bson"))).toBe(true);
    const r = await data.open();
    // every acknowledged batch is there. The batch in flight at the kill may be there in part: SIGKILL can end
    // its write() of the log between two of its records, and insertMany is not atomic (as in MongoDB; README,
    // durability model). What comes back is still in order, with no holes: exactly the _ids 0..n-1.
    const n = r.count("db", "c");
    expect(n).toBeGreaterThanOrEqual((acked + 1) * 50);
    expect(r.count("db", "c", { _id: { $gte: 0, $lt: n } })).toBe(n);
    expect(r.find("db", "c", { filter: { _id: acked * 50 + 49 } }).length).toBe(1);
  }, 90_000);
});

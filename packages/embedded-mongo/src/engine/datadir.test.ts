/** The data directory: one owner (the lock) and owner-only permissions. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeSnapshot } from "./compaction";
import { DIR_MODE, FILE_MODE } from "./datadir";
import { createEngine } from "./index";
import { encodeRecord } from "./records";
import { useDataDir } from "./testkit";
import { StoreError } from "./types";

/** permission bits (with setuid/setgid/sticky) of a file or directory */
function mode(p: string): number {
  return fs.statSync(p).mode & 0o7777;
}

/** runs `fn` with umask 0, so only the modes the store asks for decide (restored afterwards) */
async function withoutUmask<T>(fn: () => Promise<T>): Promise<T> {
  const previous = process.umask(0);
  try {
    return await fn();
  } finally {
    process.umask(previous);
  }
}

describe("data directory", () => {
  const data = useDataDir();

  it("should refuse a data directory locked by a live process, naming the directory and pid", async () => {
    await data.open();
    let err: unknown;
    try {
      await createEngine({ dbpath: data.dir });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).message).toContain(data.dir);
    expect((err as StoreError).message).toContain(`pid ${process.pid}`);
  });

  it("should take over a stale lock left by a dead process", async () => {
    // a pid that is not running: spawn a process and wait for it to end
    const child = spawn(process.execPath, ["-e", ""]);
    const deadPid = child.pid as number;
    await new Promise((r) => child.on("exit", r));
    fs.writeFileSync(path.join(data.dir, "mongod.lock"), `${deadPid}\n`);
    const e = await data.open();
    expect(fs.readFileSync(path.join(data.dir, "mongod.lock"), "utf8").trim()).toBe(String(process.pid));
    await e.close();
    expect(fs.existsSync(path.join(data.dir, "mongod.lock"))).toBe(false);
  });

  it("should keep everything it writes owner-only: directory 0700; log, lock and snapshot 0600", async () => {
    const dbpath = path.join(data.dir, "new", "db");
    await withoutUmask(async () => {
      const e = await createEngine({ dbpath, compactAfterBytes: 4096 });
      try {
        await e.createIndexes("db", "c", [{ name: "n_1", key: { n: 1 } }]);
        for (let i = 0; i < 40; i++)
          await e.insert("db", "c", [{ _id: i, n: i, pad: "x".repeat(300) }], true);
        await e.compacted();
        await e.insert("db", "c", [{ _id: "after" }], true);
        const files = fs.readdirSync(dbpath).sort();
        expect(files).toContain("snapshot.bson");
        expect(files).toContain("mongod.lock");
        expect(files.some((f) => f.endsWith(".wal"))).toBe(true);
        expect(mode(dbpath)).toBe(DIR_MODE);
        expect(Object.fromEntries(files.map((f) => [f, mode(path.join(dbpath, f))]))).toEqual(
          Object.fromEntries(files.map((f) => [f, FILE_MODE])),
        );
      } finally {
        await e.close();
      }
    });
  });

  it("should write a snapshot owner-only while it is being written (snapshot.tmp)", async () => {
    const tmpModes: number[] = [];
    const state = (function* () {
      for (let i = 0; i < 5000; i++) yield { o: "i", db: "db", c: "c", d: { _id: i } };
    })();
    // a leftover snapshot.tmp with loose bits does not lend them to the new one
    fs.writeFileSync(path.join(data.dir, "snapshot.tmp"), "old", { mode: 0o644 });
    fs.chmodSync(path.join(data.dir, "snapshot.tmp"), 0o644);
    await withoutUmask(() =>
      writeSnapshot(data.dir, 1, state, () => {
        tmpModes.push(mode(path.join(data.dir, "snapshot.tmp")));
        return false;
      }),
    );
    expect(tmpModes.length).toBeGreaterThan(0);
    expect(new Set(tmpModes)).toEqual(new Set([FILE_MODE]));
    expect(mode(path.join(data.dir, "snapshot.bson"))).toBe(FILE_MODE);
  });

  it("should tighten an existing 0755 directory and the store's 0644 files in it, and keep their data", async () => {
    const dbpath = path.join(data.dir, "db");
    fs.mkdirSync(dbpath);
    fs.chmodSync(dbpath, 0o755);
    const journal = path.join(dbpath, "journal.1.wal");
    fs.writeFileSync(journal, encodeRecord({ o: "i", db: "db", c: "c", d: { _id: 1 } }));
    fs.chmodSync(journal, 0o644);
    const other = path.join(dbpath, "notes.txt"); // not the store's: left alone
    fs.writeFileSync(other, "x");
    fs.chmodSync(other, 0o644);
    const e = await createEngine({ dbpath });
    try {
      expect(mode(dbpath)).toBe(DIR_MODE);
      expect(mode(journal)).toBe(FILE_MODE);
      expect(mode(other)).toBe(0o644);
      expect(e.count("db", "c")).toBe(1);
    } finally {
      await e.close();
    }
  });

  it("should leave a shared sticky directory's mode alone but still write its files owner-only", async () => {
    const shared = path.join(data.dir, "shared");
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o1777);
    const e = await createEngine({ dbpath: shared });
    try {
      await e.insert("db", "c", [{ _id: 1 }], true);
      expect(mode(shared)).toBe(0o1777);
      for (const f of fs.readdirSync(shared)) expect(mode(path.join(shared, f))).toBe(FILE_MODE);
    } finally {
      await e.close();
    }
  });
});

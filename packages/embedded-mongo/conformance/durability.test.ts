/**
 * Durability of the embedded store's data directory (embedded only: these tests start and kill store processes).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { MongoClient, MongoServerError } from "mongodb";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startEmbeddedStore } from "../src";
import { againstRealMongo } from "./harness";

const BIN = fileURLToPath(new URL("../bin/embedded-mongo.js", import.meta.url));
const tmpDirs: string[] = [];
const children = new Set<ChildProcess>();

function tmpDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-store-"));
  tmpDirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  children.clear();
});
afterAll(() => {
  for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
});

interface StoreProcess {
  child: ChildProcess;
  uri: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Run the package's bin as its own process (one node process: tsx registered inside, so a signal reaches the store). */
function spawnStore(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): {
  child: ChildProcess;
  firstLine: Promise<string | undefined>;
  exited: StoreProcess["exited"];
} {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  children.add(child);
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const lines = createInterface({ input: child.stdout! });
  const firstLine = new Promise<string | undefined>((resolve) => {
    lines.once("line", resolve);
    child.once("exit", () => resolve(undefined));
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.once("exit", (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, firstLine, exited };
}

async function startStoreProcess(dbpath: string): Promise<StoreProcess> {
  const { child, firstLine, exited } = spawnStore(["--port", "0", "--dbpath", dbpath]);
  const uri = await firstLine;
  if (!uri) throw new Error(`store process did not start: ${(await exited).stderr}`);
  expect(uri).toMatch(
    /^mongodb:\/\/vidensbank:[^@]+@127\.0\.0\.1:\d+\/\?authSource=admin&authMechanism=SCRAM-SHA-256$/,
  );
  return { child, uri, exited };
}

describe.skipIf(againstRealMongo)("embedded store durability", () => {
  it("should keep data and indexes across close and restart on the same dbpath", async () => {
    const dbpath = tmpDir();
    let store = await startEmbeddedStore({ dbpath });
    let client = await MongoClient.connect(store.uri);
    const coll = () => client.db("app").collection("users");
    await coll().createIndex({ email: 1 }, { unique: true });
    await coll().insertMany(Array.from({ length: 500 }, (_, i) => ({ email: `u${i}@x.dk`, n: i })));
    await coll().updateOne({ email: "u1@x.dk" }, { $set: { changed: true } });
    await coll().deleteOne({ email: "u2@x.dk" });
    await client.db("app").collection("other").insertOne({ kept: true });
    await client.close();
    await store.close();

    store = await startEmbeddedStore({ dbpath });
    client = await MongoClient.connect(store.uri);
    try {
      expect(await coll().countDocuments()).toBe(499);
      expect(await coll().findOne({ email: "u1@x.dk" })).toMatchObject({ changed: true });
      expect(await coll().findOne({ email: "u2@x.dk" })).toBeNull();
      expect((await coll().listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_", "email_1"]);
      const dup = await coll()
        .insertOne({ email: "u3@x.dk" })
        .catch((e: unknown) => e);
      expect((dup as MongoServerError).code).toBe(11000);
      expect(await client.db("app").collection("other").countDocuments()).toBe(1);
    } finally {
      await client.close();
      await store.close();
    }
  });

  it("should keep every acknowledged write when the process is killed with SIGKILL", async () => {
    const dbpath = tmpDir();
    const first = await startStoreProcess(dbpath);
    const client = await MongoClient.connect(first.uri, {
      serverSelectionTimeoutMS: 2000,
      retryWrites: false,
    });
    const coll = client.db("app").collection("events");
    await coll.createIndex({ seq: 1 }, { unique: true });
    const acknowledged: number[] = [];
    let seq = 0;
    // four writers in parallel so the kill lands while writes are in flight
    const writer = async () => {
      for (;;) {
        const mine = seq++;
        try {
          await coll.insertOne({ seq: mine, payload: "x".repeat(200) });
          acknowledged.push(mine);
        } catch {
          return;
        }
      }
    };
    const writers = Promise.all([writer(), writer(), writer(), writer()]);
    while (acknowledged.length < 300) await new Promise((r) => setTimeout(r, 5));
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    await writers;
    await client.close(true);

    const second = await startStoreProcess(dbpath);
    const again = await MongoClient.connect(second.uri);
    try {
      const stored = new Set(
        (
          await again
            .db("app")
            .collection("events")
            .find({}, { projection: { seq: 1 } })
            .toArray()
        ).map((d) => d.seq),
      );
      const lost = acknowledged.filter((s) => !stored.has(s));
      expect(lost).toEqual([]);
      expect(acknowledged.length).toBeGreaterThanOrEqual(300);
      expect(
        (await again.db("app").collection("events").listIndexes().toArray()).map((i) => i.name),
      ).toContain("seq_1");
    } finally {
      await again.close();
      // the CLI shuts down cleanly on SIGINT / SIGTERM
      second.child.kill("SIGINT");
      expect((await second.exited).code).toBe(0);
    }
  }, 60_000);

  it("should refuse a second store on a dbpath in use, with a clear message", async () => {
    const dbpath = tmpDir();
    const store = await startEmbeddedStore({ dbpath });
    try {
      await expect(startEmbeddedStore({ dbpath })).rejects.toThrow(/in use/);
      const { exited, firstLine } = spawnStore(["--port", "0", "--dbpath", dbpath]);
      expect(await firstLine).toBeUndefined();
      const { code, stderr } = await exited;
      expect(code).toBe(1);
      expect(stderr).toMatch(/^Cannot start the embedded store: .*in use by another process/);
    } finally {
      await store.close();
    }
    // once released, the directory can be opened again
    const reopened = await startEmbeddedStore({ dbpath });
    await reopened.close();
  }, 30_000);
});

describe.skipIf(againstRealMongo)("npm run db: the login", () => {
  it("should take the login from the environment, print the URI once on stdout and never the password in its logs", async () => {
    const password = "cli-Secret/42";
    const { child, firstLine, exited } = spawnStore(["--port", "0", "--memory"], {
      ...process.env,
      EMBEDDED_MONGO_USER: "ops",
      EMBEDDED_MONGO_PASSWORD: password,
    });
    const uri = await firstLine;
    expect(uri).toMatch(/^mongodb:\/\/ops:cli-Secret%2F42@127\.0\.0\.1:\d+\/\?authSource=admin/);
    const client = await MongoClient.connect(uri ?? "", { serverSelectionTimeoutMS: 5000 });
    await client.db("a").command({ ping: 1 });
    await client.close();
    const wrong = (uri ?? "").replace("cli-Secret%2F42", "nope");
    await expect(MongoClient.connect(wrong, { serverSelectionTimeoutMS: 5000 })).rejects.toMatchObject({
      code: 18,
    });
    child.kill("SIGTERM");
    const { stderr } = await exited;
    expect(stderr).toContain("embedded store listening on mongodb://ops:***@127.0.0.1:");
    expect(stderr).toMatch(/warning: embedded store: authentication failed for user 'ops'/);
    expect(stderr).not.toContain("cli-Secret");
  });

  it("should pick a random password per start when EMBEDDED_MONGO_PASSWORD is unset", async () => {
    const env = { ...process.env };
    delete env.EMBEDDED_MONGO_USER;
    delete env.EMBEDDED_MONGO_PASSWORD;
    const passwords = [];
    for (let i = 0; i < 2; i++) {
      const { child, firstLine, exited } = spawnStore(["--port", "0", "--memory"], env);
      const uri = await firstLine;
      passwords.push(new URL((uri ?? "").replace("mongodb:", "http:")).password);
      child.kill("SIGTERM");
      const { stderr } = await exited;
      expect(stderr).not.toContain(passwords[i]);
    }
    expect(passwords[0]).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(passwords[1]).not.toBe(passwords[0]);
  });
});

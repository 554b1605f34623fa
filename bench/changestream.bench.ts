/**
 * Change streams of the embedded store: how soon a write reaches a watcher, and what watchers cost plain inserts.
 *   npx tsx bench/changestream.bench.ts             the store in its own process (durable, temp dir), as in a
 *                                                    deployment of several API processes on one store
 *   npx tsx bench/changestream.bench.ts --memory    in-memory store
 *   MONGODB_URI=mongodb://.../?replicaSet=rs0 ...   against a real replica set instead
 * Latency: one writer inserts a document and waits until the watcher (another MongoClient, as another process
 * would be) has it; write→event is measured from sending the insert. Throughput: 8 concurrent insertOne loops
 * and insertMany batches of 1,000, with 0, 1 and 10 open watchers consuming every event, twice (sizes:
 * BENCH_CS_SAMPLES, BENCH_CS_OPS, BENCH_CS_DOCS).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { type ChangeStream, type Collection, MongoClient } from "mongodb";

const BIN = fileURLToPath(new URL("../packages/embedded-mongo/bin/embedded-mongo.js", import.meta.url));
const memory = process.argv.includes("--memory");
const LATENCY_SAMPLES = Number(process.env.BENCH_CS_SAMPLES ?? 1000);
const INSERT_ONE_OPS = Number(process.env.BENCH_CS_OPS ?? 3000);
const INSERT_ONE_CONCURRENCY = 8;
const INSERT_MANY_DOCS = Number(process.env.BENCH_CS_DOCS ?? 20_000);
const INSERT_MANY_BATCH = 1000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

async function startStore(): Promise<{ uri: string; stop(): Promise<void> }> {
  if (process.env.MONGODB_URI) return { uri: process.env.MONGODB_URI, stop: async () => {} };
  const dbpath = memory ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-csbench-"));
  const args = ["--port", "0", ...(dbpath ? ["--dbpath", dbpath] : ["--memory"])];
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const uri = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the store exited (${code})`)));
    readline.createInterface({ input: child.stdout! }).once("line", resolve);
  });
  return {
    uri,
    async stop() {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
      if (dbpath) fs.rmSync(dbpath, { recursive: true, force: true });
    },
  };
}

/** a watcher that counts events and resolves waiters by _id */
function watcher(coll: Collection) {
  const stream: ChangeStream = coll.watch([], { maxAwaitTimeMS: 1000 });
  const waiting = new Map<string, (t: number) => void>();
  let seen = 0;
  stream.on("change", (e) => {
    seen++;
    const id = "documentKey" in e ? String(e.documentKey._id) : "";
    waiting.get(id)?.(performance.now());
    waiting.delete(id);
  });
  return {
    stream,
    get seen() {
      return seen;
    },
    arrival: (id: string) => new Promise<number>((resolve) => waiting.set(id, resolve)),
    /** resolves once the aggregate is answered (its postBatchResumeToken is the first token) */
    ready: new Promise<void>((resolve) => stream.once("resumeTokenChanged", () => resolve())),
  };
}

async function latency(writer: Collection, watched: Collection) {
  const w = watcher(watched);
  await w.ready;
  const eventMs: number[] = [];
  const ackMs: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES + 50; i++) {
    const id = `lat-${i}`;
    const arrived = w.arrival(id);
    const sent = performance.now();
    await writer.insertOne({ _id: id as never, i, text: "x".repeat(200) });
    const acked = performance.now();
    const at = await arrived;
    if (i < 50) continue; // warm-up
    eventMs.push(at - sent);
    ackMs.push(acked - sent);
  }
  await w.stream.close();
  eventMs.sort((a, b) => a - b);
  ackMs.sort((a, b) => a - b);
  return {
    "write→event p50 ms": round(percentile(eventMs, 50)),
    "write→event p95 ms": round(percentile(eventMs, 95)),
    "write→event p99 ms": round(percentile(eventMs, 99)),
    "insert ack p50 ms": round(percentile(ackMs, 50)),
    "insert ack p95 ms": round(percentile(ackMs, 95)),
  };
}

async function throughput(client: MongoClient, watcherClient: MongoClient, watchers: number, run: number) {
  const name = `tp_${watchers}_${run}`;
  const coll = client.db("csbench").collection(name);
  const ws = Array.from({ length: watchers }, () => watcher(watcherClient.db("csbench").collection(name)));
  await Promise.all(ws.map((w) => w.ready));
  let next = 0;
  const t1 = performance.now();
  await Promise.all(
    Array.from({ length: INSERT_ONE_CONCURRENCY }, async () => {
      while (next < INSERT_ONE_OPS) await coll.insertOne({ n: next++, text: "x".repeat(200) });
    }),
  );
  const oneSec = (performance.now() - t1) / 1000;
  const t2 = performance.now();
  for (let i = 0; i < INSERT_MANY_DOCS; i += INSERT_MANY_BATCH) {
    await coll.insertMany(
      Array.from({ length: INSERT_MANY_BATCH }, (_, j) => ({ n: i + j, text: "y".repeat(200) })),
    );
  }
  const manySec = (performance.now() - t2) / 1000;
  // every watcher must get every event (time to drain after the last write)
  const total = INSERT_ONE_OPS + INSERT_MANY_DOCS;
  const t3 = performance.now();
  while (ws.some((w) => w.seen < total) && performance.now() - t3 < 60_000)
    await new Promise((r) => setTimeout(r, 20));
  const drainMs = performance.now() - t3;
  await Promise.all(ws.map((w) => w.stream.close()));
  await coll.drop();
  return {
    watchers,
    "insertOne/s (8 concurrent)": Math.round(INSERT_ONE_OPS / oneSec),
    "insertMany docs/s": Math.round(INSERT_MANY_DOCS / manySec),
    "watchers got all": ws.every((w) => w.seen >= total),
    "drain after last write ms": Math.round(drainMs),
  };
}

async function main() {
  const store = await startStore();
  const writer = await MongoClient.connect(store.uri);
  const reader = await MongoClient.connect(store.uri);
  try {
    console.log(
      `change stream bench: ${process.env.MONGODB_URI ? "MONGODB_URI" : memory ? "in memory" : "durable"}`,
    );
    const lat = await latency(writer.db("csbench").collection("lat"), reader.db("csbench").collection("lat"));
    console.table([lat]);
    const rows = [];
    for (let run = 0; run < 2; run++) {
      for (const watchers of [0, 1, 10])
        rows.push({ run, ...(await throughput(writer, reader, watchers, run)) });
    }
    console.table(rows);
    await writer.db("csbench").dropDatabase();
  } finally {
    await writer.close();
    await reader.close();
    await store.stop();
  }
}

await main();

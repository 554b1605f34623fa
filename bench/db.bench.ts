/**
 * Benchmark of the embedded store, in-process, over the wire with the real driver.
 *   npm run bench:db                       10k, 100k and 1M documents (durable store in a temp dir)
 *   npm run bench:db -- --max 100000       quick run (or BENCH_DB_MAX=100000)
 *   npm run bench:db -- --memory           in-memory store instead of a data directory
 * Latencies are sequential round trips from one client; inserts are batched insertMany calls. `ping` is measured
 * at each size just before find-by-_id, so their ratio is taken under the same machine load.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedStore } from "@vidensbank/embedded-mongo";
import { type Collection, MongoClient, ObjectId } from "mongodb";

interface Row {
  size: string;
  op: string;
  opsPerSec: number;
  unit: string;
  p50: number;
  p99: number;
  max: number;
  count: number;
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  if (i >= 0) return process.argv[i + 1];
  const inline = process.argv.find((a) => a.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}

const max = Number(argValue("--max") ?? process.env.BENCH_DB_MAX ?? 1_000_000);
const memory = process.argv.includes("--memory");
const SIZES = [10_000, 100_000, 1_000_000].filter((n) => n <= max);
const INSERT_BATCH = 1000;
/** each latency measurement runs this many ops, or stops earlier after TIME_BUDGET_MS */
const OPS = 3000;
const TIME_BUDGET_MS = 4000;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);

/** Run `op` sequentially, return ops/s and latency percentiles in ms. */
async function measure(
  op: (i: number) => Promise<unknown>,
  ops = OPS,
): Promise<{ opsPerSec: number; p50: number; p99: number; max: number; count: number }> {
  for (let i = 0; i < 20; i++) await op(i); // warm-up
  const latencies: number[] = [];
  const start = performance.now();
  for (let i = 0; i < ops; i++) {
    const t = performance.now();
    await op(i);
    latencies.push(performance.now() - t);
    if (performance.now() - start > TIME_BUDGET_MS && latencies.length >= 20) break;
  }
  const total = performance.now() - start;
  latencies.sort((a, b) => a - b);
  return {
    opsPerSec: (latencies.length / total) * 1000,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
    count: latencies.length,
  };
}

function makeDoc(i: number, _id: ObjectId) {
  return {
    _id,
    email: `user${i}@example.dk`,
    group: i % 100,
    n: i,
    title: `Vidensartikel nummer ${i}`,
    body: "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.",
    createdAt: new Date(1_700_000_000_000 + i * 1000),
  };
}

async function benchSize(coll: Collection, size: number, rows: Row[]): Promise<void> {
  const ids: ObjectId[] = [];
  const batchLatencies: number[] = [];
  const insertStart = performance.now();
  for (let from = 0; from < size; from += INSERT_BATCH) {
    const docs = [];
    for (let i = from; i < Math.min(size, from + INSERT_BATCH); i++) {
      const id = new ObjectId();
      ids.push(id);
      docs.push(makeDoc(i, id));
    }
    const t = performance.now();
    await coll.insertMany(docs, { ordered: false });
    batchLatencies.push(performance.now() - t);
  }
  const insertMs = performance.now() - insertStart;
  batchLatencies.sort((a, b) => a - b);
  rows.push({
    size: label(size),
    op: `insertMany (${INSERT_BATCH}/batch)`,
    opsPerSec: (size / insertMs) * 1000,
    unit: "docs/s",
    p50: percentile(batchLatencies, 50),
    p99: percentile(batchLatencies, 99),
    max: batchLatencies[batchLatencies.length - 1] ?? Number.NaN,
    count: batchLatencies.length,
  });
  await coll.createIndex({ email: 1 }, { unique: true });
  await coll.createIndex({ group: 1 });

  const pick = (i: number) => (i * 7919) % size; // spread over the whole collection, deterministic
  // ping right before find-by-_id, so the ratio compares round trips taken under the same machine load
  const ping = await measure(() => coll.db.command({ ping: 1 }));
  rows.push({ size: label(size), op: "ping", unit: "ops/s", ...ping });
  const byId = await measure((i) => coll.findOne({ _id: ids[pick(i)] }));
  rows.push({ size: label(size), op: "find by _id", unit: "ops/s", ...byId });
  const byIndex = await measure((i) => coll.findOne({ email: `user${pick(i)}@example.dk` }));
  rows.push({ size: label(size), op: "find by indexed field", unit: "ops/s", ...byIndex });
  const update = await measure((i) => coll.updateOne({ _id: ids[pick(i)] }, { $inc: { n: 1 } }));
  rows.push({ size: label(size), op: "update by _id", unit: "ops/s", ...update });
  const agg = await measure(
    (i) =>
      coll
        .aggregate([
          { $match: { group: i % 100 } },
          { $group: { _id: "$group", count: { $sum: 1 }, total: { $sum: "$n" } } },
        ])
        .toArray(),
    300,
  );
  rows.push({ size: label(size), op: "aggregate $match(indexed)+$group", unit: "ops/s", ...agg });
}

/** other work on the machine skews latencies: print it with the figures */
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

function printTable(rows: Row[]): void {
  const header = ["size", "operation", "throughput", "p50 ms", "p99 ms", "max ms", "samples"];
  const lines = rows.map((r) => [
    r.size,
    r.op,
    `${Math.round(r.opsPerSec).toLocaleString("en-US")} ${r.unit}`,
    r.p50.toFixed(3),
    r.p99.toFixed(3),
    r.max.toFixed(1),
    String(r.count),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c].length)));
  const fmt = (cells: string[]) =>
    cells.map((cell, c) => (c >= 2 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join("  ");
  console.log(fmt(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.log(fmt(l));
}

async function main(): Promise<void> {
  if (SIZES.length === 0) throw new Error(`--max ${max} is below the smallest size (10000)`);
  const dbpath = memory ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-bench-"));
  const store = await startEmbeddedStore(memory ? { memory: true } : { dbpath });
  const client = await MongoClient.connect(store.uri);
  const rows: Row[] = [];
  try {
    console.log(
      `embedded store ${memory ? "in memory" : `in ${dbpath}`}; node ${process.version}; ${os.cpus().length} cores; load average ${loadAverage()}`,
    );
    const db = client.db("bench");
    for (const size of SIZES) {
      const started = performance.now();
      await benchSize(db.collection(`docs_${size}`), size, rows);
      console.error(`  ${label(size)} done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      await db.collection(`docs_${size}`).drop(); // keep memory for the next size
    }
    console.log(`load average at the end ${loadAverage()}`);
    console.log("");
    printTable(rows);
    console.log("");
    const p50 = (size: string, op: string) =>
      rows.find((r) => r.size === size && r.op === op)?.p50 ?? Number.NaN;
    const largest = label(SIZES[SIZES.length - 1]);
    const indexedRatio = p50(largest, "find by indexed field") / p50("10k", "find by indexed field");
    console.log(
      `indexed-find p50 at ${largest} / at 10k = ${indexedRatio.toFixed(2)} (goal <= 2)${largest === "1M" ? "" : " [quick run: largest size is not 1M]"}`,
    );
    for (const size of SIZES.map(label)) {
      const ratio = p50(size, "find by _id") / p50(size, "ping");
      console.log(`find-by-_id p50 at ${size} / ping p50 = ${ratio.toFixed(2)} (goal <= 2)`);
    }
  } finally {
    await client.close();
    await store.close();
    if (dbpath) fs.rmSync(dbpath, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

/**
 * Cold start of search (part of `npm run bench:search`; alone: `tsx --expose-gc bench/search-cold-start.ts 20000`):
 * a store in this process pre-seeded with N generated articles, and a child process that starts as the server
 * does (bench/search-cold-start.child.ts) against it. Measured: time from the child's process start to its first
 * answered search and its heap after start,
 *   - cold: no persisted index in DATA_DIR (what every start did before the index was persisted),
 *   - warm: the index the cold run persisted at shutdown,
 *   - warm after edits: 100 articles edited, 20 deleted and 20 added in the store while the child was down
 *     (the search answers from the persisted index and catches up in the background).
 * The child starts as `npm start` starts the server: bundled by api/scripts/bundle.mjs and run by plain node
 * (`--tsx`: through tsx, as starts did before the bundle). Each line shows the load average, and the start-up
 * split into spans (wall ms / CPU ms of the whole process) and the persisted index's phases.
 * `--warm-runs N` repeats the warm start N times (on a busy machine, the run at the lowest load counts);
 * `--cpu-prof DIR` has every child write a V8 CPU profile into DIR; `--ab "<node flags>"` runs each warm start
 * twice, back to back, without and with those flags.
 * Goal: warm ≤ 3 s at 20,000 articles.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withDatabase } from "@vidensbank/embedded-mongo/uri";
import mongoose from "mongoose";
import { generate, storeArticles, vocabulary } from "./search.corpus";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CHILD = path.join(ROOT, "bench/search-cold-start.child.ts");
const BUNDLED_CHILD = path.join(ROOT, "api/dist/cold-start-child.mjs");
const USE_TSX = process.argv.includes("--tsx");
const WARM_RUNS = Number(process.argv[process.argv.indexOf("--warm-runs") + 1]) || 1;
/** `--cpu-prof DIR`: each child writes a V8 CPU profile there (open in Chrome DevTools or speedscope) */
/** `--ab "<node flags>"`: each warm start is run twice, back to back, without and with these flags (A/B) */
const AB_FLAGS = process.argv.includes("--ab")
  ? (process.argv[process.argv.indexOf("--ab") + 1] ?? "").split(" ").filter(Boolean)
  : null;
const PROFILE_DIR = process.argv.includes("--cpu-prof")
  ? path.resolve(process.argv[process.argv.indexOf("--cpu-prof") + 1] ?? "profiles")
  : null;

interface ChildResult {
  firstSearchMs: number;
  hits: number;
  articles: number;
  heapUsed: number;
  rss: number;
  closeMs: number;
  /** the start-up warm-up after listening (api/src/warmup.ts); null with WARMUP=0 */
  warmup: { rounds: number; ms: number; cpuMs: number } | null;
  /** wall ms, CPU ms */
  spans: Record<string, [number, number]>;
  phases: Record<string, number>;
}

type Run = ChildResult & { wallMs: number; load: string };

function runChild(env: Record<string, string>, flags: string[] = []): Promise<Run> {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  const t0 = performance.now();
  const prof = PROFILE_DIR ? ["--cpu-prof", "--cpu-prof-dir", PROFILE_DIR] : [];
  const args = USE_TSX
    ? ["--expose-gc", ...flags, ...prof, "--import", "tsx", CHILD]
    : ["--expose-gc", ...flags, ...prof, "--enable-source-maps", BUNDLED_CHILD];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith('{"firstSearchMs"')) ?? "";
      try {
        resolve({ ...(JSON.parse(line) as ChildResult), wallMs: performance.now() - t0, load });
      } catch {
        reject(new Error(`child exited ${code}: ${out}`));
      }
    });
  });
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function measureColdStart(size: number, seed: number): Promise<void> {
  const { startEmbeddedStore } = await import("@vidensbank/embedded-mongo");
  const { EMBEDDED_DB_NAME } = await import("../api/src/db/connection");
  if (!USE_TSX)
    execFileSync(process.execPath, [path.join(ROOT, "api/scripts/bundle.mjs"), CHILD, BUNDLED_CHILD]);
  const store = await startEmbeddedStore({ memory: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-coldstart-"));
  try {
    await mongoose.connect(store.uri, { dbName: EMBEDDED_DB_NAME });
    const articles = generate(size, await vocabulary(), seed);
    await storeArticles(articles);
    await mongoose.connection.collection("knowledge_meta").insertOne({ _id: "sample-content" } as never);
    const env = { MONGODB_URI: withDatabase(store.uri, EMBEDDED_DB_NAME), DATA_DIR: dataDir };
    console.log(
      `\n== cold start: ${size.toLocaleString("da-DK")} articles in a store of their own; a child process starts as the server does and searches once`,
    );
    console.log(`child started ${USE_TSX ? "through tsx (--tsx)" : "bundled, by plain node (as npm start)"}`);
    const line = (label: string, r: Run) => {
      console.log(
        `${label.padEnd(18)} first search ${s(r.firstSearchMs)} after process start (${s(r.wallMs)} spawn to exit)  heap ${mb(r.heapUsed)}  rss ${mb(r.rss)}  (${r.articles} articles, ${r.hits} hits; shutdown incl. persisting ${s(r.closeMs)})  load ${r.load}`,
      );
      const spans = Object.entries(r.spans).map(([k, [wall, cpu]]) => `${k} ${wall}/${cpu}`);
      console.log(`${"".padEnd(18)} spans (ms wall/CPU): ${spans.join(", ")}`);
      const phases = Object.entries(r.phases).map(([k, ms]) => `${k} ${Math.round(ms)}`);
      if (phases.length) console.log(`${"".padEnd(18)} index phases (ms): ${phases.join(", ")}`);
      const w = r.warmup;
      if (w) {
        console.log(
          `${"".padEnd(18)} warm-up after listening (/readyz 503 meanwhile): ${w.rounds} rounds, ${w.ms} ms wall, ${w.cpuMs} ms CPU`,
        );
      }
    };
    line("cold (no file):", await runChild(env));
    const file = path.join(dataDir, "search-index.bin");
    console.log(
      `persisted index: ${fs.existsSync(file) ? mb(fs.statSync(file).size) : "not written"} (${file})`,
    );
    const warm = async () => {
      line("warm:", await runChild(env));
      if (AB_FLAGS) line(`warm ${AB_FLAGS.join(" ")}:`, await runChild(env, AB_FLAGS));
    };
    for (let i = 0; i < WARM_RUNS; i++) await warm();
    const Articles = mongoose.connection.collection("knowledge_articles");
    const ids = (
      await Articles.find({}, { projection: { _id: 1 } })
        .limit(140)
        .toArray()
    ).map((d) => d._id);
    await Articles.updateMany(
      { _id: { $in: ids.slice(0, 100) } },
      { $set: { content: "# Redigeret\n\nRedigeret afsnit om klagefrister.\n", updatedAt: new Date() } },
    );
    await Articles.deleteMany({ _id: { $in: ids.slice(100, 120) } });
    await storeArticles(generate(20, await vocabulary(), seed + 7).map((a) => ({ ...a, id: `new-${a.id}` })));
    line("warm after edits:", await runChild(env));
    for (let i = 1; i < WARM_RUNS; i++) await warm();
    console.log("goal: warm ≤ 3 s to the first answered search");
  } finally {
    await mongoose.disconnect();
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await measureColdStart(Number(process.argv[2] ?? 20_000), 20251122);
}

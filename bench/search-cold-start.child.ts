/**
 * Child process of the cold-start benchmark (bench/search-cold-start.ts): the server's start-up as main.ts does
 * it (api/src/start.ts: config from the environment, the database at MONGODB_URI while the persisted index is
 * read, services, the built-in admin, the sample-content check that loads the knowledge catalog and its search
 * index while the HTTP app is built, listening), then one search. Prints one JSON line: ms from process start to the first answered search, the start-up split into
 * spans (node and tsx up to this module, loading the server's modules, each start-up step, and the persisted
 * index's own phases from its performance marks), heap after start. Then writes the persisted index (as a
 * shutdown does) and reports how long that took.
 */
export {};

/** per span: wall ms, and CPU ms of the whole process (all threads; what the span costs on a quiet machine) */
const spans: Record<string, [number, number]> = {};
let last = 0;
let lastCpu = 0;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const span = (name: string) => {
  const now = performance.now();
  const cpu = cpuMs();
  spans[name] = [Math.round(now - last), Math.round(cpu - lastCpu)];
  last = now;
  lastCpu = cpu;
};
span("node start to the entry module (bundled: incl. loading the npm packages)");

// main.ts's start (api/src/start.ts), imported dynamically here to time loading it
const [{ loadConfig }, { startServer }] = await Promise.all([
  import("../api/src/config"),
  import("../api/src/start"),
]);
span("loading the server's modules");

const config = loadConfig();
const markFrom = performance.now();
const { db, services, app, warmed } = await startServer(config, { port: 0, host: "127.0.0.1" });
// start.ts's steps (performance marks with the CPU time at each), each from the previous one
for (const m of performance.getEntriesByType("mark")) {
  if (!m.name.startsWith("start:") || m.name === "start:modules loaded") continue;
  const cpu = (m as PerformanceMark).detail?.cpuMs as number;
  spans[m.name.slice("start:".length)] = [Math.round(m.startTime - last), Math.round(cpu - lastCpu)];
  last = m.startTime;
  lastCpu = cpu;
}
const res = await services.knowledge.search(null, { query: process.env.BENCH_QUERY ?? "klagefrist" });
span("first search");
const firstSearchMs = performance.now();
process.stdout.write(`first-search ${firstSearchMs}\n`);
// the warm-up (WARMUP=1, the default: after listening) ends before the heap is measured and the server closes
const warmup = await warmed;
// the persisted index's phases (knowledge.persisted-index.ts marks them), each from the previous mark
const phases: Record<string, number> = {};
let prev = markFrom;
for (const m of performance.getEntriesByType("mark")) {
  if (!m.name.startsWith("search-index:")) continue;
  phases[m.name.slice("search-index:".length)] = m.startTime - prev;
  prev = m.startTime;
}
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
gc?.();
const heap = process.memoryUsage();
const stats = await services.knowledge.stats();
const t0 = performance.now();
await app.close();
await services.close();
const closeMs = performance.now() - t0;
await db.close();
process.stdout.write(
  `${JSON.stringify({
    firstSearchMs,
    hits: res.total,
    articles: stats.articles,
    heapUsed: heap.heapUsed,
    rss: heap.rss,
    closeMs,
    warmup,
    spans,
    phases,
  })}\n`,
);
process.exit(0);

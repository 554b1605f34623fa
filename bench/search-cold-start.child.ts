/**
 * Child process of the cold-start benchmark (bench/search-cold-start.ts): the server's start-up as main.ts does
 * it (config from the environment, the database at MONGODB_URI, createServices, the built-in admin, the
 * sample-content check that loads the knowledge catalog and its search index, the HTTP app listening), then one
 * search. Prints one JSON line: ms from process start to the first answered search, the start-up split into
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

// what main.ts imports (dynamically here, to time it)
const [{ loadConfig }, { openDatabase }, { createServices, sharedStore }, { createApp }] = await Promise.all([
  import("../api/src/config"),
  import("../api/src/db/connection"),
  import("../api/src/services"),
  import("../api/src/app"),
]);
span("loading the server's modules");

const config = loadConfig();
const db = await openDatabase(config);
span("database connected");
const shared = await sharedStore(config);
const services = createServices(config, { shared });
await services.ready();
await services.users.ensureBuiltinAdmin();
span("services ready, built-in admin");
const markFrom = performance.now();
await services.knowledge.ensureSampleContent();
span("knowledge catalog + search index loaded");
const app = await createApp({ services });
await app.listen(0, "127.0.0.1");
span("HTTP app built and listening");
const res = await services.knowledge.search(null, { query: process.env.BENCH_QUERY ?? "klagefrist" });
span("first search");
const firstSearchMs = performance.now();
process.stdout.write(`first-search ${firstSearchMs}\n`);
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
    spans,
    phases,
  })}\n`,
);
process.exit(0);

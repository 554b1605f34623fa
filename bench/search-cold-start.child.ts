/**
 * Child process of the cold-start benchmark (bench/search-cold-start.ts): the server's start-up as main.ts does
 * it (config from the environment, the database at MONGODB_URI, createServices, the sample-content check that
 * loads the knowledge catalog and its search index), then one search. Prints one JSON line: ms from process
 * start to the first answered search, heap after start, whether the persisted index was used. Then writes the
 * persisted index (as a shutdown does) and reports how long that took.
 */
import { loadConfig } from "../api/src/config";
import { openDatabase } from "../api/src/db/connection";
import { createServices } from "../api/src/services";

const config = loadConfig();
const db = await openDatabase(config);
const services = createServices(config);
await services.knowledge.ensureSampleContent();
const res = await services.knowledge.search(null, { query: process.env.BENCH_QUERY ?? "klagefrist" });
const firstSearchMs = performance.now();
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
gc?.();
const heap = process.memoryUsage();
const stats = await services.knowledge.stats();
const t0 = performance.now();
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
  })}\n`,
);
process.exit(0);

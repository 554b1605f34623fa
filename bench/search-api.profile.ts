/**
 * Where the API's time goes on a search nobody asked before:
 * `LOG_LEVEL=warn npx tsx [--cpu-prof --cpu-prof-dir=/tmp/prof] bench/search-api.profile.ts [size] [rounds] [modes]`.
 *
 * Starts the server as bench/search.bench.ts does (startTestApp, the bench's generated articles stored and
 * loaded), then times each mode over the bench's queries, `rounds` times, each text sent once (the fresh texts of
 * bench/search.bench.ts: the same words, whitespace spelling a counter). Modes (comma-separated, default all):
 * - index:   the server's own KnowledgeIndex.search(), limit 10 (the ratio's base);
 * - index-after-rest: the same, each after a REST search of a cached text (not timed);
 * - service: KnowledgeService.search() as the transports call it, by the signed-in user (recorded), no HTTP;
 * - anon:    the same without a user (nothing recorded);
 * - floor:   a bare node:http server answering a body of the REST search's size;
 * - rest / gql: the REST and GraphQL searches over one keep-alive node:http client;
 * - rest-rep / gql-rep: the same texts every round (query-cache hits after the first).
 * Prints CPU per operation for the whole process (client, server and the in-process store share it; the
 * recorded searches are flushed inside each mode's measurement; also the median of each operation's own CPU, which
 * leaves out the batched writes and most garbage collection), garbage-collection time per operation, wall p50, and the store calls per
 * operation (every collection method called through mongoose, by collection), and each mode's window for a CPU
 * profile (µs of the monotonic clock: bench/cpu-stages.ts --windows).
 */
import http from "node:http";
import { PerformanceObserver } from "node:perf_hooks";
import mongoose from "mongoose";
import type { KnowledgeIndex } from "../api/src/search/search.index";
import { startTestApp } from "../api/src/testing/app";
import { createVerifiedUser } from "../api/src/testing/client";
import type { UserDoc } from "../api/src/users/user.model";
import { UserModel } from "../api/src/users/user.model";
import { generate, QUERIES, storeArticles, vocabulary } from "./search.corpus";
import { freshText, gqlSearchBody, keepAliveClient, restSearchUrl } from "./search-api.client";

const size = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[3] ?? 10);
const ALL = ["index", "index-after-rest", "service", "anon", "floor", "rest", "gql", "rest-rep", "gql-rep"];
const modes = (process.argv[4] ?? ALL.join(",")).split(",");
const SEED = 20251122;

const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;

/** milliseconds spent in garbage collection so far (major and minor) */
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ["gc"] });

const app = await startTestApp({ mail: "outbox" });
// every collection call made through mongoose (models and Model.collection), by collection and method
const commands = new Map<string, number>();
mongoose.set("debug", (collection: string, method: string) => {
  const name = `${method} ${collection}`;
  commands.set(name, (commands.get(name) ?? 0) + 1);
});
try {
  const { token, user } = await createVerifiedUser(app);
  const userDoc = (await UserModel.findById(user.id)) as unknown as UserDoc;
  const auth = { authorization: `Bearer ${token}` };
  const t0 = performance.now();
  await storeArticles(generate(size, await vocabulary(), SEED + 1));
  await app.services.knowledge.reload();
  // the persisted index is written now, not in the middle of the timed modes (PERSIST_AFTER_BUILD_MS later)
  await app.services.knowledge.close();
  console.log(
    `${(await app.services.knowledge.stats()).articles} articles stored and loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const index = (app.services.knowledge as unknown as { catalog: { index: KnowledgeIndex } }).catalog.index;

  const client = keepAliveClient(auth);
  const get = client.get;
  const restUrl = (q: string) => restSearchUrl(app.url, q);
  const floorBody = await get(restUrl(QUERIES[0]));
  const floor = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    res.end(floorBody);
  });
  await new Promise<void>((r) => floor.listen(0, "127.0.0.1", () => r()));
  const floorUrl = `http://127.0.0.1:${(floor.address() as { port: number }).port}/`;

  const ops: Record<
    string,
    { fresh: boolean; run: (q: string) => unknown; before?: () => Promise<unknown> }
  > = {
    index: { fresh: true, run: (q) => index.search(q, { limit: 10 }) },
    // the same, each after a REST search of a cached text (not timed): the index's caches as the server's find them
    "index-after-rest": {
      fresh: true,
      run: (q) => index.search(q, { limit: 10 }),
      before: () => get(restUrl(QUERIES[0])),
    },
    service: { fresh: true, run: (q) => app.services.knowledge.search(userDoc, { query: q, limit: 10 }) },
    anon: { fresh: true, run: (q) => app.services.knowledge.search(null, { query: q, limit: 10 }) },
    floor: { fresh: false, run: () => get(floorUrl) },
    rest: { fresh: true, run: (q) => get(restUrl(q)) },
    gql: { fresh: true, run: (q) => get(app.graphqlUrl, gqlSearchBody(q)) },
    "rest-rep": { fresh: false, run: (q) => get(restUrl(q)) },
    "gql-rep": { fresh: false, run: (q) => get(app.graphqlUrl, gqlSearchBody(q)) },
  };
  for (const mode of modes) {
    const op = ops[mode];
    if (!op) throw new Error(`unknown mode ${mode} (${ALL.join(", ")})`);
    for (const q of QUERIES) await op.run(q); // warm-up
    await app.services.knowledge.searchesRecorded();
    const before = new Map(commands);
    const wall: number[] = [];
    const cpu: number[] = [];
    const gc0 = gcMs;
    let untimed = 0;
    const c0 = process.cpuUsage();
    const from = process.hrtime.bigint() / 1000n;
    for (let r = 0; r < rounds; r++)
      for (const q of QUERIES) {
        if (op.before) {
          const c1 = process.cpuUsage();
          await op.before();
          untimed += cpuMs(process.cpuUsage(c1));
        }
        const w0 = performance.now();
        const o0 = process.cpuUsage();
        await op.run(op.fresh ? freshText(q) : q);
        const o = process.cpuUsage(o0);
        wall.push(performance.now() - w0);
        cpu.push(cpuMs(o));
      }
    await app.services.knowledge.searchesRecorded();
    const total = cpuMs(process.cpuUsage(c0)) - untimed;
    const n = wall.length;
    await new Promise((r) => setTimeout(r, 10)); // the last GC entries are delivered
    wall.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    const per = [...commands]
      .map(([k, v]) => [k, (v - (before.get(k) ?? 0)) / n] as const)
      .filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${v.toFixed(2)} ${k}`)
      .join(", ");
    console.log(
      `${mode.padEnd(9)} cpu ${(total / n).toFixed(3)} ms/op (p50 ${cpu[Math.floor(n / 2)].toFixed(3)})  gc ${((gcMs - gc0) / n).toFixed(3)} ms/op  wall p50 ${wall[Math.floor(n / 2)].toFixed(2)} ms  p95 ${wall[Math.floor(n * 0.95)].toFixed(2)} ms  (n=${n})  store: ${per || "none"}  window ${from}-${process.hrtime.bigint() / 1000n}`,
    );
  }
  client.close();
  await new Promise<void>((r) => floor.close(() => r()));
} finally {
  await app.close();
}

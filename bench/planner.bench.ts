/**
 * The embedded store's planner choosing between indexes: keys examined and CPU per query, in-process (the engine
 * without the wire), on chat messages shaped like the app's (chat.model.ts's indexes, in mongoose's order).
 *   npx tsx bench/planner.bench.ts                          this checkout's engine
 *   npx tsx bench/planner.bench.ts --engine DIR/src/engine  another checkout's (before/after comparisons)
 *   --wire                                                  the reads through the mongodb driver and the wire server
 *                                                           (in this process: CPU is the client's and the store's)
 *   --rounds 7 --ops 400                                    rounds of ops per query (median and best round shown)
 *   --plan-only                                             CPU of the planning alone (Collection.plan, its
 *                                                           candidates not read), on a Collection with the same data
 *   --query 2                                               only that query (e.g. under valgrind --tool=callgrind:
 *                                                           instructions per query = the difference of two --ops)
 * CPU is process.cpuUsage() (user + system) per query, so less noisy than wall time on a loaded machine; the load
 * average is printed beside it.
 */
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { MongoClient } from "mongodb";
import type * as CollectionModule from "../packages/embedded-mongo/src/engine/collection";
import type { FindOptions, IndexSpec } from "../packages/embedded-mongo/src/engine/types";
import type * as StoreModule from "../packages/embedded-mongo/src/index";

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const engineDir = argValue("--engine");
const ROUNDS = Number(argValue("--rounds") ?? 7);
const OPS = Number(argValue("--ops") ?? 400);
const ONLY = argValue("--query");
const WIRE = process.argv.includes("--wire");
const PLAN_ONLY = process.argv.includes("--plan-only");
/** users besides the heavy one, each with one session */
const OTHER_USERS = 100;
/** the heavy user's sessions (stop 29: 5,000 messages) */
const HEAVY_SESSIONS = 20;
const SESSION_MESSAGES = 250;
const T0 = Date.UTC(2026, 0, 1);

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

async function main() {
  const mod: typeof StoreModule = await import(
    engineDir
      ? pathToFileURL(path.resolve(engineDir, "../index.ts")).href
      : "../packages/embedded-mongo/src/index"
  );
  const store = await mod.startEmbeddedStore({ memory: true, port: 0 });
  const engine = store.engine;
  const client = WIRE ? await new MongoClient(store.uri).connect() : undefined;
  const coll = client?.db("db").collection("m");
  const docs = [];
  let i = 0;
  for (let u = 0; u <= OTHER_USERS; u++) {
    const sessions = u === 0 ? HEAVY_SESSIONS : 1;
    for (let s = 0; s < sessions; s++)
      for (let m = 0; m < SESSION_MESSAGES; m++, i++)
        docs.push({
          userId: `u${u}`,
          sessionId: `u${u}-s${s}`,
          role: m % 2 === 0 ? "user" : "assistant",
          content: `message ${i}`,
          timestamp: new Date(T0 + i * 1000),
          status: m % 2 === 0 ? null : "done",
        });
  }
  await engine.insert("db", "m", docs, true);
  // chat.model.ts: userId and sessionId (index: true), then the schema's compound and single indexes
  const specs: IndexSpec[] = [
    { v: 2, name: "userId_1", key: { userId: 1 } },
    { v: 2, name: "sessionId_1", key: { sessionId: 1 } },
    { v: 2, name: "sessionId_1_timestamp_1", key: { sessionId: 1, timestamp: 1 } },
    { v: 2, name: "status_1", key: { status: 1 } },
    { v: 2, name: "timestamp_1", key: { timestamp: 1 } },
  ];
  await engine.createIndexes("db", "m", specs);
  let planOnly: InstanceType<typeof CollectionModule.Collection> | undefined;
  if (PLAN_ONLY) {
    const { Collection }: typeof CollectionModule = await import(
      engineDir
        ? pathToFileURL(path.resolve(engineDir, "collection.ts")).href
        : "../packages/embedded-mongo/src/engine/collection"
    );
    planOnly = new Collection("db", "m");
    for (const d of engine.find("db", "m", { filter: {} })) planOnly.insert(d, 0);
    for (const spec of specs) planOnly.addIndex(spec);
  }

  const session = "u0-s7";
  const since = new Date(T0 + (7 * SESSION_MESSAGES + 200) * 1000);
  const queries: { name: string; find: FindOptions }[] = [
    { name: "tie: {sessionId, userId}", find: { filter: { sessionId: session, userId: "u0" } } },
    {
      name: "tie, sorted by timestamp (stop 29's workaround)",
      find: { filter: { sessionId: session, userId: "u0" }, sort: { timestamp: 1 } },
    },
    {
      name: "no tie: {sessionId, timestamp > t} newest 20",
      find: { filter: { sessionId: session, timestamp: { $gt: since } }, sort: { timestamp: -1 }, limit: 20 },
    },
    {
      name: "same keys: {sessionId} newest 20",
      find: { filter: { sessionId: session }, sort: { timestamp: -1 }, limit: 20 },
    },
    { name: "one candidate: {timestamp > t} 20", find: { filter: { timestamp: { $gt: since } }, limit: 20 } },
  ];

  console.log(
    `planner bench: ${docs.length} messages; engine ${engineDir ?? "this checkout"}` +
      `${WIRE ? " over the wire" : PLAN_ONLY ? ", planning only" : ""}; ` +
      `node ${process.version}; ` +
      `${os.cpus().length} cores; load average ${load()}`,
  );
  console.log(`${"query".padEnd(48)} ${"index".padEnd(24)} keys  docs  counted  µs CPU/query median (best)`);
  for (const q of ONLY === undefined ? queries : [queries[Number(ONLY)]]) {
    const { filter, sort, limit } = q.find;
    const viaWire = async (n: number) => {
      for (let k = 0; k < n; k++) await coll?.find(filter ?? {}, { sort, limit }).toArray();
    };
    const sortPairs = Object.entries(sort ?? {}) as [string, 1 | -1][];
    const direct = (n: number) => {
      if (planOnly) for (let k = 0; k < n; k++) planOnly.plan(filter, sortPairs);
      else for (let k = 0; k < n; k++) engine.find("db", "m", q.find);
    };
    if (WIRE) await viaWire(50);
    else direct(50);
    // planning only: the plan as chosen, nothing read (keys and docs 0)
    const plan = planOnly ? planOnly.plan(filter, sortPairs).plan : engine.lastPlan;
    const perRound: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const c0 = process.cpuUsage();
      if (WIRE) await viaWire(OPS);
      else direct(OPS);
      const c = process.cpuUsage(c0);
      perRound.push((c.user + c.system) / OPS);
    }
    perRound.sort((a, b) => a - b);
    const median = perRound[Math.floor(perRound.length / 2)];
    const counted = (plan as { planKeysCounted?: number } | undefined)?.planKeysCounted ?? 0;
    console.log(
      `${q.name.padEnd(48)} ${String(plan?.index).padEnd(24)} ${String(plan?.keysExamined).padStart(4)}  ` +
        `${String(plan?.docsExamined).padStart(4)}  ${String(counted).padStart(7)}  ` +
        `${median.toFixed(1)} (${perRound[0].toFixed(1)})`,
    );
  }
  console.log(`load average at the end ${load()}`);
  await client?.close();
  await store.close();
}

await main();

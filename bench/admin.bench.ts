/**
 * Benchmark of the admin statistics (issue 14): the store is seeded over the wire (insertMany batches through the
 * driver) with 1,000 users and 1,000,000 chat messages, then the whole statistics query is timed end to end
 * through the app's AdminService (mongoose → wire → embedded store), with each figure's time and the store's own
 * time for every command it ran (aggregate, count, distinct, find), measured inside the store.
 *   npm run bench:admin                     1,000 users, 1,000,000 messages (goal: stats ≤ 500 ms)
 *   npm run bench:admin -- --messages 100000   a quicker run
 * The store runs in this process, in memory; seeding time is reported on its own.
 */
import os from "node:os";
import { startEmbeddedStore } from "@vidensbank/embedded-mongo";
import mongoose from "mongoose";
import { ActivityModel } from "../api/src/activity/activity.model";
import { AdminService } from "../api/src/admin/stats.service";
import { BookmarkModel } from "../api/src/bookmarks/bookmark.model";
import { ChatMessageModel, ChatSessionModel, KnowledgeGapModel } from "../api/src/chat/chat.model";
import { CategoryViewModel } from "../api/src/knowledge/category-view.model";
import { UserModel } from "../api/src/users/user.model";

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const USERS = Number(argValue("--users") ?? 1_000);
const MESSAGES = Number(argValue("--messages") ?? 1_000_000);
const PER_SESSION = 10;
const BATCH = 10_000;
const RUNS = 5;
const GOAL_MS = 500;
const DAY = 86_400_000;
const now = Date.now();

// ---- the store's own time per command: wrap the engine's read methods
const store = await startEmbeddedStore({ memory: true });
type StoreCall = { what: string; ms: number };
let storeCalls: StoreCall[] | null = null;
const engine = store.engine as unknown as Record<string, (...args: unknown[]) => unknown>;
for (const method of ["aggregate", "count", "distinct", "find"]) {
  const original = engine[method].bind(store.engine);
  engine[method] = (...args: unknown[]) => {
    const started = performance.now();
    const describe = () => {
      const coll = String(args[1]);
      if (method === "aggregate") {
        const stages = (args[2] as Array<Record<string, unknown>>).map((s) => Object.keys(s)[0]).join(",");
        return `${coll}.aggregate[${stages}]`;
      }
      if (method === "distinct") return `${coll}.distinct(${String(args[2])})`;
      return `${coll}.${method}`;
    };
    const record = () => storeCalls?.push({ what: describe(), ms: performance.now() - started });
    const result = original(...args);
    if (result instanceof Promise) return result.finally(record);
    record();
    return result;
  };
}

await mongoose.connect(store.uri, { dbName: "bench_admin" });
const models = [
  UserModel,
  ChatSessionModel,
  ChatMessageModel,
  KnowledgeGapModel,
  ActivityModel,
  BookmarkModel,
];
await Promise.all([...models, CategoryViewModel].map((m) => m.init()));

// ---- seed
const oid = () => new mongoose.Types.ObjectId();
/** an id as the driver makes it when a document is written at `at` (seeded history was written over the year) */
const idAt = (at: Date, n: number) =>
  new mongoose.Types.ObjectId(
    Math.floor(at.getTime() / 1000)
      .toString(16)
      .padStart(8, "0") + n.toString(16).padStart(16, "0"),
  );
const userIds = Array.from({ length: USERS }, oid);
const raw = (m: mongoose.Model<never>) => m.collection;

async function insertAll(model: mongoose.Model<never>, total: number, make: (i: number) => object) {
  for (let start = 0; start < total; start += BATCH) {
    const docs = [];
    for (let i = start; i < Math.min(total, start + BATCH); i++) docs.push(make(i));
    await raw(model).insertMany(docs as never[], { ordered: false });
  }
}

const seedStarted = performance.now();
await insertAll(UserModel as never, USERS, (i) => ({
  _id: userIds[i],
  email: `bruger${i}@minksekretariatet.dk`,
  username: `bruger${i}`,
  usernameKey: `bruger${i}`,
  passwordHash: "x",
  name: `Bruger ${i}`,
  role: "user",
  verified: true,
  lastLogin: new Date(now - (i % 60) * DAY),
  createdAt: new Date(now - 400 * DAY),
  updatedAt: new Date(now - 400 * DAY),
}));
const sessions = Math.ceil(MESSAGES / PER_SESSION);
// sessions spread evenly over the last 365 days, each a user's 10 messages a minute apart
const sessionStart = (s: number) => now - Math.floor((s / sessions) * 365 * DAY) - 3_600_000;
await insertAll(ChatSessionModel as never, sessions, (s) => ({
  _id: idAt(new Date(sessionStart(s)), s),
  userId: userIds[s % USERS],
  sessionId: `s${s}`,
  title: null,
  createdAt: new Date(sessionStart(s)),
  lastUpdated: new Date(sessionStart(s) + PER_SESSION * 60_000),
}));
const seededSessions = performance.now();
await insertAll(ChatMessageModel as never, MESSAGES, (i) => {
  const s = Math.floor(i / PER_SESSION);
  const role = i % 2 === 0 ? "user" : "assistant";
  const at = new Date(sessionStart(s) + (i % PER_SESSION) * 60_000);
  const rated = role === "assistant" && i % 101 === 1;
  return {
    _id: idAt(at, i),
    userId: userIds[s % USERS],
    sessionId: `s${s}`,
    role,
    content: role === "user" ? "Hvordan registrerer jeg et udlæg?" : "Se artiklen om udlæg [1].",
    timestamp: at,
    status: role === "assistant" ? "complete" : null,
    feedback: rated
      ? { rating: i % 3 === 0 ? "down" : "up", comment: i % 7 === 0 ? "Tak" : undefined, at }
      : null,
  };
});
const seededMessages = performance.now();
await insertAll(ActivityModel as never, 50_000, (i) => ({
  action: i % 2 === 0 ? "login" : "search",
  description: i % 2 === 0 ? "Bruger loggede ind" : "Søgte efter udlæg",
  userEmail: `bruger${i % USERS}@minksekretariatet.dk`,
  userId: userIds[i % USERS],
  timestamp: new Date(now - Math.floor((i / 50_000) * 365 * DAY)),
  metadata: {},
}));
await insertAll(BookmarkModel as never, 5_000, (i) => ({
  userId: userIds[i % USERS],
  articleId: oid(),
  articleTitle: "Artikel",
  bookmarkedAt: new Date(now - i * 60_000),
}));
await insertAll(KnowledgeGapModel as never, 2_000, (i) => ({
  question: ["Hvor mange feriedage har en medarbejder?", "Hvordan bestiller jeg parkeringspladser?"][i % 2],
  userId: userIds[i % USERS],
  sessionId: `s${i}`,
  messageId: null,
  timestamp: new Date(now - i * 3_600_000),
}));
await raw(CategoryViewModel as never).insertMany(
  ["Økonomi", "Procedurer", "Roller", "Arrangementer"].map((category, i) => ({
    category,
    views: 1000 - i * 100,
    lastViewedAt: new Date(),
  })) as never[],
);
const seedMs = performance.now() - seedStarted;

// ---- measure
const admin = new AdminService({
  topCategories: async (limit) =>
    (
      await CategoryViewModel.find({ views: { $gt: 0 } })
        .sort({ views: -1 })
        .limit(limit)
        .lean()
    ).map((r) => ({
      category: r.category,
      count: r.views,
    })),
  recentGaps: async (limit) => KnowledgeGapModel.find({}).sort({ timestamp: -1 }).limit(limit).lean(),
});

// the first request builds the roll-ups (one-off; also the JIT warm-up)
const firstTimings: Record<string, number> = {};
const firstStarted = performance.now();
await admin.stats({ timings: firstTimings });
const firstMs = performance.now() - firstStarted;
const runs: number[] = [];
let timings: Record<string, number> = {};
let calls: StoreCall[] = [];
let result: Awaited<ReturnType<AdminService["stats"]>> | undefined;
let added = 0;
for (let r = 0; r < RUNS; r++) {
  // live traffic between requests: 10 new messages (a question and an answer in 5 recent sessions)
  await raw(ChatMessageModel as never).insertMany(
    Array.from({ length: 10 }, (_, k) => ({
      userId: userIds[(k >> 1) % USERS],
      sessionId: `s${k >> 1}`,
      role: k % 2 === 0 ? "user" : "assistant",
      content: "Ny besked",
      timestamp: new Date(),
      status: k % 2 === 0 ? null : "complete",
      feedback: null,
    })) as never[],
  );
  added += 10;
  timings = {};
  storeCalls = [];
  const started = performance.now();
  result = await admin.stats({ timings });
  runs.push(performance.now() - started);
  calls = storeCalls;
  storeCalls = null;
}
const gapsStarted = performance.now();
const gaps = await admin.knowledgeGaps(20);
const gapsMs = performance.now() - gapsStarted;

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");
const sorted = [...runs].sort((a, b) => a - b);
console.log(
  `\nbench:admin — ${USERS.toLocaleString("en")} users, ${MESSAGES.toLocaleString("en")} messages, ${sessions.toLocaleString("en")} sessions`,
);
console.log(
  `seeding: ${(seedMs / 1000).toFixed(1)} s total (messages ${((seededMessages - seededSessions) / 1000).toFixed(1)} s = ${Math.round(MESSAGES / ((seededMessages - seededSessions) / 1000)).toLocaleString("en")} docs/s, insertMany batches of ${BATCH.toLocaleString("en")})`,
);
console.log(`load average (1/5/15 min) after the runs: ${load()} on ${os.cpus().length} cores`);
console.log(
  `first request (builds the roll-ups): ${fmt(firstMs)}, of which the session roll-up build ${fmt(firstTimings["rollupBuild (one-off)"] ?? 0)}, per-day figures ${fmt(firstTimings.chatDays ?? 0)}`,
);
console.log(
  `adminStats end to end (${RUNS} runs after the first): median ${fmt(sorted[Math.floor(RUNS / 2)])}, min ${fmt(sorted[0])}, max ${fmt(sorted[RUNS - 1])} — goal ≤ ${GOAL_MS} ms: ${sorted[Math.floor(RUNS / 2)] <= GOAL_MS ? "MET" : "MISSED"}`,
);
console.log("\nper figure (wall time in the app, run side by side, last run):");
for (const [name, ms] of Object.entries(timings).sort((a, b) => b[1] - a[1]))
  console.log(`  ${name.padEnd(22)} ${fmt(ms)}`);
console.log("\nthe store's own time per command (inside the engine, last run):");
let storeTotal = 0;
for (const c of [...calls].sort((a, b) => b.ms - a.ms)) {
  storeTotal += c.ms;
  console.log(`  ${fmt(c.ms).padStart(10)}  ${c.what}`);
}
console.log(`  ${fmt(storeTotal).padStart(10)}  total in the store (${calls.length} commands)`);
console.log(`\nknowledgeGaps (2,000 recorded gaps grouped): ${fmt(gapsMs)} → ${gaps.length} groups`);
console.log(`(${added} messages were added between the timed runs, 10 before each)`);
console.log(
  `figures: totalMessages ${result?.totalMessages}, todayMessages ${result?.todayMessages}, activeUsers ${result?.activeUsers}, weeklyActiveUsers ${result?.weeklyActiveUsers}, avgSessionDuration ${result?.avgSessionDuration} s, feedback ${result?.feedback.up}/${result?.feedback.down}`,
);
await mongoose.disconnect();
await store.close();

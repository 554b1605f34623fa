/**
 * The statistics computed from roll-ups (stats/session-rollups.ts, stats/day-rollups.ts) stay exactly the
 * figures of their definitions while the data changes under them: new messages (in a new and in an old session),
 * a session deleted through the chat, a user's data removed, a day ending in Europe/Copenhagen with a message
 * arriving late for it, messages deleted behind the chat's back, and several statistics runs at once. After
 * each step the figures are checked against known values and against the definition's direct aggregation.
 */
import { randomBytes } from "node:crypto";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { copenhagenDayOf } from "./stats/chat-figures";
import { averageSessionDuration } from "./stats/session-rollups";

let app: TestApp;
let db: mongoose.mongo.Db;

// 23:30 on Monday 30 March 2026 in Copenhagen (summer time, +02:00), then 00:30 on Tuesday 31 March
const EVENING = new Date("2026-03-30T21:30:00Z");
const AFTER_MIDNIGHT = new Date("2026-03-30T22:30:00Z");
const t = (iso: string) => new Date(iso);
const oid = () => new mongoose.Types.ObjectId();
const [u1, u2, u3] = [oid(), oid(), oid()];
/** an id made an hour ago: a message written long before the roll-ups look at it */
const anHourAgo = () =>
  new mongoose.Types.ObjectId(
    (Math.floor(Date.now() / 1000) - 3600).toString(16).padStart(8, "0") + randomBytes(8).toString("hex"),
  );

const msg = (
  userId: mongoose.Types.ObjectId,
  sessionId: string,
  role: "user" | "assistant",
  iso: string,
) => ({
  userId,
  sessionId,
  role,
  content: "x",
  timestamp: t(iso),
});
const session = (sessionId: string, userId: mongoose.Types.ObjectId) => ({
  userId,
  sessionId,
  title: null,
  createdAt: t("2026-03-01T00:00:00Z"),
  lastUpdated: t("2026-03-01T00:00:00Z"),
});

/** The definitions' own aggregations over every message (what the roll-ups must reproduce). */
async function direct(since: Date) {
  const messages = db.collection("chat_messages");
  const [avg] = await messages
    .aggregate([
      {
        $group: {
          _id: "$sessionId",
          first: { $min: "$timestamp" },
          last: { $max: "$timestamp" },
          n: { $sum: 1 },
        },
      },
      { $match: { n: { $gte: 2 } } },
      { $group: { _id: null, avgMs: { $avg: { $subtract: ["$last", "$first"] } } } },
    ])
    .toArray();
  const perDay = await messages
    .aggregate([
      { $match: { timestamp: { $gte: since } } },
      { $group: { _id: copenhagenDayOf("$timestamp"), n: { $sum: 1 } } },
    ])
    .toArray();
  return {
    avgSessionDuration: Math.round((avg?.avgMs ?? 0) / 1000),
    perDay: new Map(perDay.map((r) => [String(r._id), r.n as number])),
  };
}

async function stats(now: Date) {
  const s = await app.services.admin.stats({ now });
  const d = await direct(new Date(`${s.messagesPerDay[0].date}T00:00:00+03:00`));
  expect(s.avgSessionDuration).toBe(d.avgSessionDuration);
  for (const { date, count } of s.messagesPerDay) expect(count, date).toBe(d.perDay.get(date) ?? 0);
  return s;
}

const nonZero = (days: Array<{ date: string; count: number }>) =>
  Object.fromEntries(days.filter((d) => d.count > 0).map((d) => [d.date, d.count]));

beforeAll(async () => {
  app = await startTestApp();
  db = mongoose.connection.db as mongoose.mongo.Db;
  await db.collection("users").insertMany(
    [u1, u2, u3].map((_id) => ({
      _id,
      email: `${_id}@minksekretariatet.dk`,
      username: String(_id),
      usernameKey: String(_id),
      passwordHash: "x",
      name: "Test",
      role: "user",
      verified: true,
      createdAt: t("2026-01-01T00:00:00Z"),
      updatedAt: t("2026-01-01T00:00:00Z"),
    })),
  );
  // a sign-in without a user id (never an active user)
  await db.collection("activity_logs").insertOne({
    action: "login",
    description: "Ukendt bruger loggede ind",
    userEmail: null,
    userId: null,
    timestamp: t("2026-03-30T09:30:00Z"),
    metadata: {},
  });
  await db
    .collection("chat_sessions")
    .insertMany([session("a", u1), session("b", u2), session("c", u3), session("e", u3)]);
  await db.collection("chat_messages").insertMany(
    [
      // a: 300 s, ten days ago
      msg(u1, "a", "user", "2026-03-20T10:00:00Z"),
      msg(u1, "a", "assistant", "2026-03-20T10:05:00Z"),
      // b: 60 s, five days ago
      msg(u2, "b", "user", "2026-03-25T12:00:00Z"),
      msg(u2, "b", "assistant", "2026-03-25T12:01:00Z"),
      // c: one question this morning
      msg(u3, "c", "user", "2026-03-30T08:00:00Z"),
      // e: 100 s, two days ago
      msg(u3, "e", "user", "2026-03-28T10:00:00Z"),
      msg(u3, "e", "assistant", "2026-03-28T10:01:40Z"),
    ].map((m) => ({ _id: anHourAgo(), ...m })),
  );
});
afterAll(async () => {
  await app?.close();
});

describe("admin statistics from roll-ups, while the data changes", () => {
  it("should build the roll-ups on the first run and give the seeded figures", async () => {
    const s = await stats(EVENING);
    expect(s.avgSessionDuration).toBe(153); // (300 + 60 + 100) / 3
    expect(s.totalMessages).toBe(7);
    expect(s.todayMessages).toBe(1);
    expect(nonZero(s.messagesPerDay)).toEqual({
      "2026-03-20": 2,
      "2026-03-25": 2,
      "2026-03-28": 2,
      "2026-03-30": 1,
    });
    expect(s.activeUsers).toBe(3);
    expect(s.weeklyActiveUsers).toBe(2); // u2 (25th) and u3; u1 asked ten days ago
    expect(nonZero(s.activeUsersPerDay)).toEqual({
      "2026-03-20": 1,
      "2026-03-25": 1,
      "2026-03-28": 1,
      "2026-03-30": 1,
    });
    // the roll-ups exist: on each session with messages, and one per past day of the window
    const a = await db.collection("chat_sessions").findOne({ sessionId: "a" });
    expect(a?.statsRollup).toMatchObject({ n: 2, dur: 300_000, multi: 1 });
    expect(await db.collection("stats_rollups").countDocuments({ kind: "day" })).toBe(29);
  });

  it("should count new messages, in a new session and in an old one", async () => {
    await db.collection("chat_messages").insertMany([
      msg(u3, "c", "assistant", "2026-03-30T08:10:00Z"), // c: 600 s
      msg(u1, "a", "user", "2026-03-30T09:00:00Z"), // a continues ten days later
    ]);
    const s = await stats(EVENING);
    // a: 2026-03-20T10:00 → 2026-03-30T09:00 = 860,400 s; (860,400 + 60 + 600 + 100) / 4
    expect(s.avgSessionDuration).toBe(215_290);
    expect(s.totalMessages).toBe(9);
    expect(s.todayMessages).toBe(3);
    expect(s.weeklyActiveUsers).toBe(3);
    expect(nonZero(s.activeUsersPerDay)).toEqual({
      "2026-03-20": 1,
      "2026-03-25": 1,
      "2026-03-28": 1,
      "2026-03-30": 2,
    });
  });

  it("should stop counting a session deleted through the chat, on past days too", async () => {
    await app.services.chat.deleteSession(String(u2), "b");
    const s = await stats(EVENING);
    expect(s.avgSessionDuration).toBe(287_033); // (860,400 + 600 + 100) / 3
    expect(s.totalMessages).toBe(7);
    expect(s.totalChatSessions).toBe(3);
    expect(nonZero(s.messagesPerDay)).toEqual({ "2026-03-20": 2, "2026-03-28": 2, "2026-03-30": 3 });
    expect(s.activeUsers).toBe(2); // u2 asked nothing any more
    expect(s.weeklyActiveUsers).toBe(2); // u1 (today) and u3
    expect(nonZero(s.activeUsersPerDay)).toEqual({ "2026-03-20": 1, "2026-03-28": 1, "2026-03-30": 2 });
  });

  it("should move to the next Copenhagen day at local midnight and take a late message for the day before", async () => {
    let s = await stats(AFTER_MIDNIGHT);
    expect(s.messagesPerDay.at(-1)).toEqual({ date: "2026-03-31", count: 0 });
    expect(s.messagesPerDay.at(-2)).toEqual({ date: "2026-03-30", count: 3 });
    expect(s.todayMessages).toBe(0);
    // the 30th is now a past day with a roll-up of its own
    expect(await db.collection("stats_rollups").findOne({ _id: "day:2026-03-30" as never })).toMatchObject({
      n: 3,
    });
    // a question written at 23:59:59.5 local time reaches the store after midnight
    await db.collection("chat_sessions").insertOne(session("d", u2));
    await db.collection("chat_messages").insertOne(msg(u2, "d", "user", "2026-03-30T21:59:59.500Z"));
    s = await stats(AFTER_MIDNIGHT);
    expect(s.messagesPerDay.at(-2)).toEqual({ date: "2026-03-30", count: 4 });
    expect(s.activeUsersPerDay.at(-2)).toEqual({ date: "2026-03-30", count: 3 });
    expect(s.weeklyActiveUsers).toBe(3);
    expect(s.todayMessages).toBe(0);
    expect(s.avgSessionDuration).toBe(287_033); // d has one message
  });

  it("should stop counting a removed user's sessions and messages", async () => {
    await app.services.chat.removeUserData(String(u1));
    await db.collection("users").deleteOne({ _id: u1 });
    const s = await stats(AFTER_MIDNIGHT);
    expect(s.avgSessionDuration).toBe(350); // (600 + 100) / 2: c and e
    expect(s.totalMessages).toBe(5);
    expect(nonZero(s.messagesPerDay)).toEqual({ "2026-03-28": 2, "2026-03-30": 3 });
    expect(s.activeUsers).toBe(2); // u2 and u3
  });

  it("should rebuild when messages are deleted behind the chat's back, and stay exact", async () => {
    // e's messages were written an hour ago: no incremental pass looks at e again, only the count check can
    await db.collection("chat_messages").deleteMany({ sessionId: "e", role: "assistant" });
    const s = await stats(AFTER_MIDNIGHT);
    expect(s.avgSessionDuration).toBe(600); // only c has two messages now
    expect(s.totalMessages).toBe(4);
    const e = await db.collection("chat_sessions").findOne({ sessionId: "e" });
    expect(e?.statsRollup).toMatchObject({ n: 1, dur: 0, multi: 0 });
  });

  it("should count messages whose session document is missing (orphans), as the definition does", async () => {
    await db
      .collection("chat_messages")
      .insertMany([
        msg(u3, "gone", "user", "2026-03-30T10:00:00Z"),
        msg(u3, "gone", "assistant", "2026-03-30T10:02:00Z"),
      ]);
    const s = await stats(AFTER_MIDNIGHT);
    expect(s.avgSessionDuration).toBe(360); // (600 + 120) / 2
    expect(await db.collection("stats_rollups").findOne({ _id: "orphan:gone" as never })).toMatchObject({
      n: 2,
    });
  });

  it("should give the same exact figures when several statistics runs maintain the roll-ups at once", async () => {
    await db.collection("chat_messages").insertMany([
      msg(u3, "c", "assistant", "2026-03-30T08:20:00Z"), // c: 1,200 s (three messages)
      msg(u2, "d", "assistant", "2026-03-30T22:00:30Z"), // d: 30.5 s, after midnight
    ]);
    const runs = await Promise.all([1, 2, 3, 4].map(() => stats(AFTER_MIDNIGHT)));
    for (const s of runs) {
      expect(s.avgSessionDuration).toBe(450); // (1,200 + 30.5 + 120) / 3 = 450.2
      expect(s.todayMessages).toBe(1);
      expect(s.totalMessages).toBe(8);
    }
    // and the roll-ups left behind are the exact ones
    const rolled = await db
      .collection("chat_sessions")
      .find({}, { projection: { sessionId: 1, statsRollup: 1 } })
      .sort({ sessionId: 1 })
      .toArray();
    expect(rolled.map((r) => [r.sessionId, r.statsRollup?.n, r.statsRollup?.dur])).toEqual([
      ["c", 3, 1_200_000],
      ["d", 2, 30_500],
      ["e", 1, 0],
    ]);
  });

  it("should answer directly while another process holds the rebuild lease, then rebuild once it is free", async () => {
    // e's last message (written an hour ago) goes behind the chat's back: the roll-ups disagree with the count
    await db.collection("chat_messages").deleteMany({ sessionId: "e" });
    const state = db.collection<{ _id: string; leaseUntil: Date | null }>("stats_rollups");
    await state.updateOne({ _id: "sessions" }, { $set: { leaseUntil: new Date(Date.now() + 3_600_000) } });
    const held = await averageSessionDuration();
    expect(held.via).toBe("direct");
    expect(Math.round(held.avgMs / 1000)).toBe(450);
    await state.updateOne({ _id: "sessions" }, { $set: { leaseUntil: null } });
    expect((await averageSessionDuration()).via).toBe("rebuilt");
    const again = await averageSessionDuration();
    expect(again).toEqual({ avgMs: held.avgMs, via: "rollups" });
    expect((await db.collection("chat_sessions").findOne({ sessionId: "e" }))?.statsRollup).toBeUndefined();
  });
});

/**
 * Every admin statistic against a store seeded with known data, at a fixed "now" just after the Copenhagen
 * midnight that follows the spring DST change (2026-03-30 00:00 CEST = 2026-03-29T22:00Z), then the same
 * figures through GraphQL and REST (admin only).
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { gql, loginAdmin, rest } from "../testing/client";

let app: TestApp;
let adminToken: string;

const NOW = new Date("2026-03-30T10:00:00Z");
const t = (iso: string) => new Date(iso);
const oid = () => new mongoose.Types.ObjectId();
const [u1, u2, u3, u4, u5, ghost] = [oid(), oid(), oid(), oid(), oid(), oid()];
const emailOf = (id: mongoose.Types.ObjectId) => `${id}@minksekretariatet.dk`;

function user(_id: mongoose.Types.ObjectId) {
  return {
    _id,
    email: emailOf(_id),
    username: String(_id),
    usernameKey: String(_id),
    passwordHash: "x",
    name: "Test",
    role: "user",
    verified: true,
    lastLogin: null,
    createdAt: t("2026-01-01T00:00:00Z"),
    updatedAt: t("2026-01-01T00:00:00Z"),
  };
}

function msg(
  userId: mongoose.Types.ObjectId,
  sessionId: string,
  role: "user" | "assistant",
  timestamp: Date,
  feedback?: { rating: "up" | "down"; comment?: string; at: Date },
) {
  return { userId, sessionId, role, content: "x", timestamp, feedback: feedback ?? null };
}

beforeAll(async () => {
  app = await startTestApp();
  adminToken = await loginAdmin(app);
  const db = mongoose.connection.db as mongoose.mongo.Db;
  for (const c of ["activity_logs", "chat_sessions", "chat_messages", "user_bookmarks", "category_views"]) {
    await db.collection(c).deleteMany({});
  }
  await db.collection("users").insertMany([u1, u2, u3, u4, u5].map(user));
  const session = (id: string, userId: mongoose.Types.ObjectId) => ({
    userId,
    sessionId: id,
    title: null,
    createdAt: t("2026-01-01T00:00:00Z"),
    lastUpdated: t("2026-01-01T00:00:00Z"),
  });
  await db
    .collection("chat_sessions")
    .insertMany([
      session("s1", u1),
      session("s2", u2),
      session("s3", u3),
      session("s4", u4),
      session("s5", u1),
      session("s6", ghost),
    ]);
  await db.collection("chat_messages").insertMany([
    // s1: today, 120 s
    msg(u1, "s1", "user", t("2026-03-30T09:00:00Z")),
    msg(u1, "s1", "assistant", t("2026-03-30T09:02:00Z"), {
      rating: "up",
      comment: "Godt svar",
      at: t("2026-03-30T09:10:00Z"),
    }),
    // s2 across the Copenhagen midnight: 23:59:59 on the 29th, then 00:00:00 on the 30th; 1 s
    msg(u2, "s2", "user", t("2026-03-29T21:59:59Z")),
    msg(u2, "s2", "assistant", t("2026-03-29T22:00:00Z"), {
      rating: "down",
      comment: "Forkert",
      at: t("2026-03-30T09:30:00Z"),
    }),
    // s3: one message 5 days ago (no duration)
    msg(u3, "s3", "user", t("2026-03-25T12:00:00Z")),
    // s4: 38 days ago, 600 s, rated without a comment
    msg(u4, "s4", "user", t("2026-02-20T12:00:00Z")),
    msg(u4, "s4", "assistant", t("2026-02-20T12:10:00Z"), { rating: "up", at: t("2026-02-20T12:11:00Z") }),
    // a question of a user who no longer exists: counted as a message, never as an active user
    msg(ghost, "s6", "user", t("2026-03-30T08:00:00Z")),
  ]);
  const entry = (
    action: string,
    userId: mongoose.Types.ObjectId | null,
    iso: string,
    description: string,
  ) => ({
    action,
    description,
    userEmail: userId ? emailOf(userId) : null,
    userId,
    timestamp: t(iso),
    metadata: {},
  });
  await db
    .collection("activity_logs")
    .insertMany([
      entry("login", u5, "2026-03-10T12:00:00Z", "u5 loggede ind"),
      entry("login", u4, "2026-01-01T12:00:00Z", "u4 loggede ind"),
      ...[1, 2, 3, 4, 5, 6, 7].map((h) => entry("search", u1, `2026-03-30T0${h}:00:00Z`, `Søgning ${h}`)),
    ]);
  await db.collection("user_bookmarks").insertMany(
    [u1, u2, u3].map((userId) => ({
      userId,
      articleId: oid(),
      articleTitle: "Artikel",
      bookmarkedAt: t("2026-03-01T00:00:00Z"),
    })),
  );
  await db.collection("category_views").insertMany([
    { category: "Procedurer", views: 3, lastViewedAt: NOW },
    { category: "Økonomi", views: 7, lastViewedAt: NOW },
    { category: "Roller", views: 0, lastViewedAt: null },
  ]);
});
afterAll(async () => {
  await app?.close();
});

const day = (date: string, count: number) => ({ date, count });

describe("admin statistics (seeded store, fixed now)", () => {
  it("should count users, sessions, messages, bookmarks and the session duration", async () => {
    const s = await app.services.admin.stats({ now: NOW });
    expect(s.totalUsers).toBe(6); // the built-in admin and u1..u5
    expect(s.totalChatSessions).toBe(6); // the empty s5 included
    expect(s.totalMessages).toBe(8);
    expect(s.totalBookmarks).toBe(3);
    // (120 + 1 + 600) / 3 = 240.3 s; s3 and s6 have one message each
    expect(s.avgSessionDuration).toBe(240);
  });

  it("should count today's messages from Copenhagen midnight (22:00 UTC in summer time)", async () => {
    const s = await app.services.admin.stats({ now: NOW });
    // s1 ×2, s2's answer at 00:00:00 local, the ghost's question; not s2's question at 23:59:59 the day before
    expect(s.todayMessages).toBe(4);
    expect(s.messagesPerDay).toHaveLength(30);
    expect(s.messagesPerDay[0].date).toBe("2026-03-01");
    expect(s.messagesPerDay.at(-1)).toEqual(day("2026-03-30", 4));
    expect(s.messagesPerDay.at(-2)).toEqual(day("2026-03-29", 1));
    expect(s.messagesPerDay.filter((d) => d.count > 0)).toEqual([
      day("2026-03-25", 1),
      day("2026-03-29", 1),
      day("2026-03-30", 4),
    ]);
    // in winter time the day starts at 23:00 UTC
    const winter = await app.services.admin.stats({ now: t("2026-02-20T23:30:00Z") });
    // (the counts look "forward" from that midnight: the six March messages; s4's two at noon are the day before)
    expect(winter.todayMessages).toBe(6);
    expect(winter.messagesPerDay.at(-1)).toEqual(day("2026-02-21", 0));
    expect(winter.messagesPerDay.at(-2)).toEqual(day("2026-02-20", 2));
    const lateEvening = await app.services.admin.stats({ now: t("2026-02-20T22:59:59Z") });
    expect(lateEvening.messagesPerDay.at(-1)).toEqual(day("2026-02-20", 2));
  });

  it("should count active users (login or question; 30 and 7 days; existing users only) and per day", async () => {
    const s = await app.services.admin.stats({ now: NOW });
    expect(s.activeUsers).toBe(4); // u1, u2, u3 asked; u5 logged in 20 days ago; u4 too long ago; ghost gone
    expect(s.weeklyActiveUsers).toBe(3); // u1, u2, u3
    expect(s.activeUsersPerDay).toHaveLength(30);
    expect(s.activeUsersPerDay.filter((d) => d.count > 0)).toEqual([
      day("2026-03-10", 1),
      day("2026-03-25", 1),
      day("2026-03-29", 1),
      day("2026-03-30", 1),
    ]);
  });

  it("should list the top categories, the 6 newest activities and the answer feedback", async () => {
    const s = await app.services.admin.stats({ now: NOW });
    expect(s.topCategories).toEqual([
      { category: "Økonomi", count: 7 },
      { category: "Procedurer", count: 3 },
    ]);
    expect(s.recentActivity.map((a) => a.description)).toEqual([
      "Søgning 7",
      "Søgning 6",
      "Søgning 5",
      "Søgning 4",
      "Søgning 3",
      "Søgning 2",
    ]);
    expect(s.recentActivity[0]).toEqual({
      description: "Søgning 7",
      // an entry from before the keys: its description is all it has
      messageKey: null,
      messageParams: null,
      userEmail: emailOf(u1),
      timestamp: t("2026-03-30T07:00:00Z"),
    });
    expect(s.feedback).toEqual({
      up: 2,
      down: 1,
      latestComments: [
        { rating: "down", comment: "Forkert", at: t("2026-03-30T09:30:00Z"), userEmail: emailOf(u2) },
        { rating: "up", comment: "Godt svar", at: t("2026-03-30T09:10:00Z"), userEmail: emailOf(u1) },
      ],
    });
  });

  it("should answer GET /api/admin/stats with the spec's fields plus the extras, for the admin only", async () => {
    const res = await rest(app, "GET", "/api/admin/stats", { token: adminToken });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        "totalUsers",
        "activeUsers",
        "totalChatSessions",
        "todayMessages",
        "totalMessages",
        "totalBookmarks",
        "weeklyActiveUsers",
        "avgSessionDuration",
        "topCategories",
        "recentActivity",
        "messagesPerDay",
        "activeUsersPerDay",
        "feedback",
      ].sort(),
    );
    expect(res.body).toMatchObject({
      totalUsers: 6,
      totalMessages: 8,
      totalBookmarks: 3,
      avgSessionDuration: 240,
    });
    expect(res.body.topCategories[0]).toEqual({ category: "Økonomi", count: 7 });
    // the spec's fields, and the text's key and parameters beside them
    expect(Object.keys(res.body.recentActivity[0]).sort()).toEqual([
      "description",
      "messageKey",
      "messageParams",
      "timestamp",
      "userEmail",
    ]);
    expect(res.body.messagesPerDay).toHaveLength(30);
    expect((await rest(app, "GET", "/api/admin/stats")).status).toBe(401);
  });

  it("should answer adminStats over GraphQL", async () => {
    const res = await gql(
      app,
      `{ adminStats { totalUsers activeUsers totalMessages avgSessionDuration topCategories { category count }
         recentActivity { description userEmail timestamp } messagesPerDay { date count }
         activeUsersPerDay { date count } feedback { up down latestComments { rating comment at userEmail } } } }`,
      {},
      adminToken,
    );
    expect(res.errors).toBeUndefined();
    const s = res.data.adminStats;
    expect(s).toMatchObject({ totalUsers: 6, totalMessages: 8, avgSessionDuration: 240 });
    expect(s.feedback).toMatchObject({ up: 2, down: 1 });
    expect(s.feedback.latestComments[0]).toEqual({
      rating: "down",
      comment: "Forkert",
      at: "2026-03-30T09:30:00.000Z",
      userEmail: emailOf(u2),
    });
    expect(s.activeUsersPerDay).toHaveLength(30);
  });
});

describe("knowledge gaps report", () => {
  it("should group recorded gaps over GraphQL: variants together, biggest group first, limit honoured", async () => {
    const db = mongoose.connection.db as mongoose.mongo.Db;
    const gap = (question: string, iso: string) => ({
      question,
      userId: u1,
      sessionId: "s1",
      messageId: null,
      timestamp: t(iso),
    });
    await db
      .collection("knowledge_gaps")
      .insertMany([
        gap("Hvor mange feriedage har en medarbejder?", "2026-03-28T10:00:00Z"),
        gap("Hvor mange feriedage har medarbejderne?", "2026-03-29T10:00:00Z"),
        gap("Hvad er opskriften på en god lagkage?", "2026-03-30T10:00:00Z"),
      ]);
    const q = "query($n: Int!) { knowledgeGaps(limit: $n) { question count lastAskedAt examples } }";
    const res = await gql(app, q, { n: 5 }, adminToken);
    expect(res.errors).toBeUndefined();
    expect(res.data.knowledgeGaps).toEqual([
      {
        question: "Hvor mange feriedage har medarbejderne?",
        count: 2,
        lastAskedAt: "2026-03-29T10:00:00.000Z",
        examples: ["Hvor mange feriedage har medarbejderne?", "Hvor mange feriedage har en medarbejder?"],
      },
      {
        question: "Hvad er opskriften på en god lagkage?",
        count: 1,
        lastAskedAt: "2026-03-30T10:00:00.000Z",
        examples: ["Hvad er opskriften på en god lagkage?"],
      },
    ]);
    expect((await gql(app, q, { n: 1 }, adminToken)).data.knowledgeGaps).toHaveLength(1);
  });
});

/** The admin's activity tab: server-side filters with offset paging and the total (GraphQL and REST). */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { gql, loginAdmin, rest } from "../testing/client";

let app: TestApp;
let adminToken: string;
const HOUR = 3600_000;

beforeAll(async () => {
  app = await startTestApp();
  adminToken = await loginAdmin(app);
  const db = mongoose.connection.db as mongoose.mongo.Db;
  await db.collection("activity_logs").deleteMany({});
  const now = Date.now();
  const entry = (i: number, action: string, hoursAgo: number, email: string, description: string) => ({
    action,
    description,
    userEmail: email,
    userId: null,
    timestamp: new Date(now - hoursAgo * HOUR - i), // i keeps the order strict
    metadata: { i },
  });
  await db.collection("activity_logs").insertMany([
    // 25 searches in the last hour (newest first: i = 0 .. 24)
    ...Array.from({ length: 25 }, (_, i) =>
      entry(i, "search", 0.5, "anna@minksekretariatet.dk", `Søgte ${i}`),
    ),
    entry(100, "login", 5, "bo@minksekretariatet.dk", "Bo loggede ind"),
    entry(101, "bookmark", 30, "bo@minksekretariatet.dk", "Gemte Ferieregler"),
    entry(102, "chat", 24 * 10, "carl@minksekretariatet.dk", "Startede en samtale"),
  ]);
});
afterAll(async () => {
  await app?.close();
});

const PAGE = `query($action: String, $time: String, $search: String, $offset: Int!, $limit: Int!) {
  activityPage(action: $action, time: $time, search: $search, offset: $offset, limit: $limit) {
    total hasMore entries { action description userEmail }
  }
}`;

async function page(vars: Record<string, unknown>) {
  const res = await gql(app, PAGE, { offset: 0, limit: 50, ...vars }, adminToken);
  expect(res.errors).toBeUndefined();
  return res.data.activityPage as {
    total: number;
    hasMore: boolean;
    entries: Array<{ action: string; description: string; userEmail: string }>;
  };
}

describe("activityPage", () => {
  it("should page newest first with the total and hasMore", async () => {
    const first = await page({ limit: 10 });
    expect(first.total).toBe(28);
    expect(first.hasMore).toBe(true);
    expect(first.entries.map((e) => e.description)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Søgte ${i}`),
    );
    const last = await page({ offset: 20, limit: 10 });
    expect(last.entries.map((e) => e.description)).toEqual([
      "Søgte 20",
      "Søgte 21",
      "Søgte 22",
      "Søgte 23",
      "Søgte 24",
      "Bo loggede ind",
      "Gemte Ferieregler",
      "Startede en samtale",
    ]);
    expect(last.hasMore).toBe(false);
    expect((await page({ offset: 40 })).entries).toEqual([]);
  });

  it("should filter by action, time window (1h, 24h, 7d) and search over description and e-mail", async () => {
    expect((await page({ action: "login" })).entries.map((e) => e.description)).toEqual(["Bo loggede ind"]);
    expect((await page({ time: "1h" })).total).toBe(25);
    expect((await page({ time: "24h" })).total).toBe(26);
    expect((await page({ time: "7d" })).total).toBe(27);
    expect((await page({ time: "all" })).total).toBe(28);
    expect((await page({ search: "FERIE" })).entries.map((e) => e.description)).toEqual([
      "Gemte Ferieregler",
    ]);
    expect((await page({ search: "carl@" })).entries.map((e) => e.action)).toEqual(["chat"]);
    const combined = await page({ search: "bo@minks", time: "24h", limit: 1 });
    expect(combined).toEqual({
      total: 1,
      hasMore: false,
      entries: [{ action: "login", description: "Bo loggede ind", userEmail: "bo@minksekretariatet.dk" }],
    });
  });

  it("should find an entry by its badge's name in either language, not only by the stored fields", async () => {
    // "Bogmærke" / "Bookmark" is the name of the action `bookmark`; neither is in the entry's description or e-mail
    expect((await page({ search: "bogmærke" })).entries.map((e) => e.description)).toEqual([
      "Gemte Ferieregler",
    ]);
    expect((await page({ search: "BOOKMARK" })).entries.map((e) => e.description)).toEqual([
      "Gemte Ferieregler",
    ]);
    // "Registrering" names no action here; "Sign-in" names `login` in English
    expect((await page({ search: "Registrering" })).total).toBe(0);
    expect((await page({ search: "sign-in" })).entries.map((e) => e.description)).toEqual(["Bo loggede ind"]);
  });

  it("should refuse an unknown time filter and a negative offset", async () => {
    const bad = await gql(app, PAGE, { time: "3d", offset: 0, limit: 5 }, adminToken);
    expect(bad.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    const neg = await gql(app, PAGE, { offset: -1, limit: 5 }, adminToken);
    expect(neg.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
  });
});

describe("GET /api/admin/activity-logs with paging", () => {
  it("should return the page as a list and the filter's total in X-Total-Count", async () => {
    const res = await fetch(`${app.url}/api/admin/activity-logs?offset=24&limit=2&time=7d`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe("27");
    const body = (await res.json()) as Array<{ description: string }>;
    expect(body.map((e) => e.description)).toEqual(["Søgte 24", "Bo loggede ind"]);
  });

  it("should refuse a malformed offset or limit", async () => {
    for (const q of ["offset=-1", "offset=x", "limit=0x10", "limit=5000"]) {
      const res = await rest(app, "GET", `/api/admin/activity-logs?${q}`, { token: adminToken });
      expect(res.status, q).toBe(400);
    }
  });
});

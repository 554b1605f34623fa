import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { gql, loginAdmin, rest } from "../testing/client";
import { ActivityModel } from "./activity.model";
import { ACTIVITY_BACKGROUND_WAIT_MS, listActivity, recordActivity } from "./activity.service";

let app: TestApp;
let adminToken: string;

beforeAll(async () => {
  app = await startTestApp();
  adminToken = await loginAdmin(app);
  await recordActivity({
    action: "search",
    description: "Søgte efter moms",
    userEmail: "a@minksekretariatet.dk",
    metadata: { query: "moms" },
  });
  await recordActivity({
    action: "bookmark",
    description: "Gemte artiklen Ferieregler",
    userEmail: "b@minksekretariatet.dk",
  });
  await ActivityModel.create({
    action: "chat",
    description: "Startede en samtale for længe siden",
    userEmail: "c@minksekretariatet.dk",
    timestamp: new Date(Date.now() - 3 * 24 * 3600_000),
  });
});
afterAll(async () => {
  await app?.close();
});

/** Run `work` counting the store writes to activity_logs (mongoose's debug hook sees every collection call). */
async function countingInserts(work: () => Promise<unknown>): Promise<number> {
  let inserts = 0;
  mongoose.set("debug", (collection: string, method: string) => {
    if (collection === "activity_logs" && method.startsWith("insert")) inserts++;
  });
  try {
    await work();
  } finally {
    mongoose.set("debug", false);
  }
  return inserts;
}

describe("activity log", () => {
  it("should list entries newest first with the spec's fields", async () => {
    const res = await rest(app, "GET", "/api/admin/activity-logs", { token: adminToken });
    expect(res.status).toBe(200);
    const actions = res.body.map((e: { action: string }) => e.action);
    expect(actions.indexOf("bookmark")).toBeLessThan(actions.indexOf("search"));
    expect(actions.at(-1)).toBe("chat");
    expect(res.body.find((e: { action: string }) => e.action === "search")).toEqual({
      id: expect.any(String),
      action: "search",
      description: "Søgte efter moms",
      userEmail: "a@minksekretariatet.dk",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      metadata: { query: "moms" },
    });
  });

  it("should filter by action, time window and search text (case-insensitive)", async () => {
    const byAction = await rest(app, "GET", "/api/admin/activity-logs?action=bookmark", {
      token: adminToken,
    });
    expect(byAction.body.map((e: { action: string }) => e.action)).toEqual(["bookmark"]);
    const lastDay = await rest(app, "GET", "/api/admin/activity-logs?time=24h", { token: adminToken });
    expect(lastDay.body.some((e: { action: string }) => e.action === "chat")).toBe(false);
    const week = await rest(app, "GET", "/api/admin/activity-logs?time=7d", { token: adminToken });
    expect(week.body.some((e: { action: string }) => e.action === "chat")).toBe(true);
    const search = await rest(app, "GET", "/api/admin/activity-logs?search=FERIE", { token: adminToken });
    expect(search.body.map((e: { description: string }) => e.description)).toEqual([
      "Gemte artiklen Ferieregler",
    ]);
    const byEmail = await gql(app, `{ activityLogs(search: "c@minks") { action } }`, {}, adminToken);
    expect(byEmail.data?.activityLogs).toEqual([{ action: "chat" }]);
    const regexChars = await listActivity({ search: "(.*" });
    expect(regexChars).toEqual([]);
  });

  it("should cap the number of entries", async () => {
    expect(await listActivity({ limit: 1 })).toHaveLength(1);
    const res = await gql(app, "{ activityLogs(limit: 2) { id } }", {}, adminToken);
    expect(res.data?.activityLogs).toHaveLength(2);
  });
});

// after the listing tests: these add entries newer than theirs
describe("activity log writes", () => {
  it("should write the entries recorded in the same moment with one insert, in order, each before it resolves", async () => {
    const tag = `batch-${Date.now()}`;
    const record = (i: number) =>
      recordActivity({ action: "search", description: `${tag} ${i}`, metadata: { tag } }).then(() =>
        ActivityModel.exists({ description: `${tag} ${i}` }),
      );
    let found: unknown[] = [];
    const inserts = await countingInserts(async () => {
      found = await Promise.all(Array.from({ length: 20 }, (_, i) => record(i)));
    });
    expect(inserts).toBe(1);
    expect(found.every(Boolean)).toBe(true);
    const docs = await ActivityModel.find({ "metadata.tag": tag }).sort({ _id: 1 }).lean();
    expect(docs.map((d) => d.description)).toEqual(Array.from({ length: 20 }, (_, i) => `${tag} ${i}`));
  });

  it("should write a background entry within its wait, sharing the insert with those of the moment", async () => {
    const tag = `background-${Date.now()}`;
    const t0 = Date.now();
    const inserts = await countingInserts(async () => {
      const first = recordActivity(
        { action: "message", description: tag },
        { waitMs: ACTIVITY_BACKGROUND_WAIT_MS },
      );
      await new Promise((r) => setTimeout(r, 10));
      // recorded 10 ms later: written together with the first
      await Promise.all([
        first,
        recordActivity({ action: "message", description: tag }, { waitMs: ACTIVITY_BACKGROUND_WAIT_MS }),
      ]);
    });
    expect(inserts).toBe(1);
    expect(await ActivityModel.countDocuments({ description: tag })).toBe(2);
    expect(Date.now() - t0).toBeLessThan(ACTIVITY_BACKGROUND_WAIT_MS + 500);
    // an entry someone waits for is not held back by a waiting background one
    const t1 = Date.now();
    void recordActivity({ action: "message", description: `${tag} late` }, { waitMs: 5_000 });
    await recordActivity({ action: "search", description: `${tag} now` });
    expect(Date.now() - t1).toBeLessThan(1_000);
    expect(await ActivityModel.countDocuments({ description: `${tag} late` })).toBe(1);
  });
});

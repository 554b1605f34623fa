import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { gql, loginAdmin, rest } from "../testing/client";
import { ActivityModel } from "./activity.model";
import { listActivity, recordActivity } from "./activity.service";

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

import { formatMessage, isMessageKey } from "@vidensbank/shared";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, loginAdmin, rest } from "../testing/client";
import { ActivityModel } from "./activity.model";
import { ACTIVITY_BACKGROUND_WAIT_MS, listActivity, recordActivity } from "./activity.service";

let app: TestApp;
let adminToken: string;

beforeAll(async () => {
  app = await startTestApp();
  adminToken = await loginAdmin(app);
  await recordActivity({
    action: "search",
    message: { key: "log.search", params: { name: "Anna", query: "moms" } },
    userEmail: "a@minksekretariatet.dk",
    metadata: { query: "moms" },
  });
  await recordActivity({
    action: "bookmark",
    message: { key: "log.bookmarkAdded", params: { name: "Bo", title: "Ferieregler" } },
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

/** A search entry's message, told apart by its query. */
const said = (query: string) => ({ key: "log.search" as const, params: { name: "Test", query } });

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
  it("should list entries newest first with the spec's fields and the text's key and parameters", async () => {
    const res = await rest(app, "GET", "/api/admin/activity-logs", { token: adminToken });
    expect(res.status).toBe(200);
    const actions = res.body.map((e: { action: string }) => e.action);
    expect(actions.indexOf("bookmark")).toBeLessThan(actions.indexOf("search"));
    expect(actions.at(-1)).toBe("chat");
    expect(res.body.find((e: { action: string }) => e.action === "search")).toEqual({
      id: expect.any(String),
      action: "search",
      description: 'Anna søgte efter "moms"',
      messageKey: "log.search",
      messageParams: { name: "Anna", query: "moms" },
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
      'Bo gemte artiklen "Ferieregler"',
    ]);
    const byEmail = await gql(app, `{ activityLogs(search: "c@minks") { action } }`, {}, adminToken);
    expect(byEmail.data?.activityLogs).toEqual([{ action: "chat" }]);
    // the English UI's words find the entries it shows them on (the stored description is Danish)
    const english = await listActivity({ search: "Searched FOR" });
    expect(english.map((e) => e.description)).toEqual(['Anna søgte efter "moms"']);
    expect(await listActivity({ search: "Anna searched for" })).toEqual([]);
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
      recordActivity({ action: "search", message: said(`${tag} ${i}`), metadata: { tag } }).then(() =>
        ActivityModel.exists({ "messageParams.query": `${tag} ${i}` }),
      );
    let found: unknown[] = [];
    const inserts = await countingInserts(async () => {
      found = await Promise.all(Array.from({ length: 20 }, (_, i) => record(i)));
    });
    expect(inserts).toBe(1);
    expect(found.every(Boolean)).toBe(true);
    const docs = await ActivityModel.find({ "metadata.tag": tag }).sort({ _id: 1 }).lean();
    expect(docs.map((d) => d.description)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Test søgte efter "${tag} ${i}"`),
    );
  });

  it("should write a background entry within its wait, sharing the insert with those of the moment", async () => {
    const tag = `background-${Date.now()}`;
    const t0 = Date.now();
    const inserts = await countingInserts(async () => {
      const first = recordActivity(
        { action: "message", message: said(tag) },
        { waitMs: ACTIVITY_BACKGROUND_WAIT_MS },
      );
      await new Promise((r) => setTimeout(r, 10));
      // recorded 10 ms later: written together with the first
      await Promise.all([
        first,
        recordActivity({ action: "message", message: said(tag) }, { waitMs: ACTIVITY_BACKGROUND_WAIT_MS }),
      ]);
    });
    expect(inserts).toBe(1);
    expect(await ActivityModel.countDocuments({ "messageParams.query": tag })).toBe(2);
    expect(Date.now() - t0).toBeLessThan(ACTIVITY_BACKGROUND_WAIT_MS + 500);
    // an entry someone waits for is not held back by a waiting background one
    const t1 = Date.now();
    void recordActivity({ action: "message", message: said(`${tag} late`) }, { waitMs: 5_000 });
    await recordActivity({ action: "search", message: said(`${tag} now`) });
    expect(Date.now() - t1).toBeLessThan(1_000);
    expect(await ActivityModel.countDocuments({ "messageParams.query": `${tag} late` })).toBe(1);
  });
});

describe("activity log texts by key", () => {
  it("should store what a real action did as a key with parameters, the description their Danish text", async () => {
    const { input } = await createVerifiedUser(app); // registers, follows the e-mailed link, logs in
    const docs = await ActivityModel.find({ userEmail: input.email }).sort({ timestamp: 1, _id: 1 }).lean();
    expect(docs.map((d) => [d.action, d.messageKey, d.messageParams])).toEqual([
      ["register", "log.register", { name: input.name }],
      ["verify_email", "log.verifyEmail", { email: input.email }],
      ["login", "log.login", { name: input.name }],
    ]);
    // the sentences the log has always written
    expect(docs.map((d) => d.description)).toEqual([
      `Ny bruger registreret: ${input.name}`,
      `Email bekræftet: ${input.email}`,
      `${input.name} loggede ind`,
    ]);
    for (const d of docs) {
      expect(isMessageKey(d.messageKey)).toBe(true);
      if (!isMessageKey(d.messageKey)) continue;
      expect(d.description).toBe(formatMessage(d.messageKey, d.messageParams as never, "da"));
    }
    // GraphQL gives the key and parameters beside the description
    const res = await gql(
      app,
      `query($s: String) { activityPage(search: $s, action: "login") { entries { description messageKey messageParams } } }`,
      { s: input.email },
      adminToken,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.activityPage.entries).toEqual([
      {
        description: `${input.name} loggede ind`,
        messageKey: "log.login",
        messageParams: { name: input.name },
      },
    ]);
    expect(formatMessage("log.login", { name: input.name }, "en")).toBe(`${input.name} signed in`);
  });

  it("should give an entry from before the keys no key, and bound the parameters it stores", async () => {
    const old = await gql(
      app,
      `{ activityPage(search: "for længe siden") { entries { description messageKey messageParams } } }`,
      {},
      adminToken,
    );
    expect(old.data.activityPage.entries).toEqual([
      { description: "Startede en samtale for længe siden", messageKey: null, messageParams: null },
    ]);
    const long = `bounded-${"x".repeat(300)}`;
    await recordActivity({
      action: "search",
      message: { key: "log.search", params: { name: "Test", query: long, extra: "not in the text" } },
    });
    const doc = await ActivityModel.findOne({ "messageParams.name": "Test", action: "search" })
      .sort({ _id: -1 })
      .lean();
    const params = doc?.messageParams as Record<string, string>;
    expect(Object.keys(params).sort()).toEqual(["name", "query"]);
    expect([...params.query]).toHaveLength(200);
    expect(params.query).toBe(`${long.slice(0, 199)}…`);
    expect(doc?.description).toBe(`Test søgte efter "${params.query}"`);
  });
});

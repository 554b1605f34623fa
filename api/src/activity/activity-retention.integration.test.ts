/**
 * The activity log's retention (ACTIVITY_RETENTION_DAYS, activity.retention.ts): the store removes entries
 * older than the retention through a TTL index; the test runs the embedded store's TTL monitor at once instead
 * of waiting its 60 s.
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser } from "../testing/client";
import { ActivityModel } from "./activity.model";
import { applyActivityRetention, RETENTION_INDEX } from "./activity.retention";

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ config: { activityRetentionDays: 365 } });
});
afterAll(async () => {
  await app?.close();
});

async function entry(description: string, timestamp: Date, extra: Record<string, unknown> = {}) {
  const doc = await ActivityModel.create({ action: "search", description, timestamp, ...extra });
  return doc._id;
}

const exists = async (id: unknown) => (await ActivityModel.exists({ _id: id })) !== null;

async function retentionSeconds(): Promise<number | undefined> {
  const indexes = await ActivityModel.collection.indexes();
  return indexes.find((i) => i.name === RETENTION_INDEX)?.expireAfterSeconds;
}

describe("activity log retention", () => {
  it("should remove an entry older than the retention and keep a younger one", async () => {
    const old = await entry("for 400 dage siden", daysAgo(400));
    const young = await entry("for 300 dage siden", daysAgo(300));
    const fresh = await entry("lige nu", new Date());
    expect(await app.sweepExpired()).toBeGreaterThanOrEqual(1);
    expect(await exists(old)).toBe(false);
    expect(await exists(young)).toBe(true);
    expect(await exists(fresh)).toBe(true);
  });

  it("should keep the statistics' sign-ins of the last 30 days at the shortest retention (30 days)", async () => {
    await applyActivityRetention(30);
    const { user } = await createVerifiedUser(app); // signs in: a login entry now
    const before = await app.services.admin.stats();
    const earlier = await entry("logget ind for 28 dage siden", daysAgo(28), {
      action: "login",
      userId: new mongoose.Types.ObjectId(user.id),
    });
    const gone = await entry("for 31 dage siden", daysAgo(31));
    await app.sweepExpired();
    expect(await exists(earlier)).toBe(true);
    expect(await exists(gone)).toBe(false);
    const after = await app.services.admin.stats();
    expect(after.activeUsers).toBe(before.activeUsers);
    // the sign-in 28 days ago adds that day to the chart
    const day = after.activeUsersPerDay.findIndex((d, i) => d.count > before.activeUsersPerDay[i]!.count);
    expect(day).toBeGreaterThanOrEqual(0);
  });

  it("should change the retention on the next start and keep entries forever with 0", async () => {
    await applyActivityRetention(365);
    expect(await retentionSeconds()).toBe(365 * 86_400);
    await applyActivityRetention(400);
    expect(await retentionSeconds()).toBe(400 * 86_400);
    // the same setting again (a second process starting) changes nothing
    await applyActivityRetention(400);
    expect(await retentionSeconds()).toBe(400 * 86_400);
    await applyActivityRetention(0);
    expect(await retentionSeconds()).toBeUndefined();
    const ancient = await entry("for 5000 dage siden", daysAgo(5000));
    await app.sweepExpired();
    expect(await exists(ancient)).toBe(true);
  });
});

import { formatMessage } from "@vidensbank/shared";
/**
 * Every string argument has a maximum length, enforced where its rule lives (the service), so GraphQL and REST
 * refuse an over-long one alike with BAD_USER_INPUT and a Danish field message — never a 500 from the store
 * (an escaped search of 100,000 characters is a regular expression too large to compile).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ACTIVITY_ACTION_MAX_LENGTH, ACTIVITY_SEARCH_MAX_LENGTH } from "../activity/activity.limits";
import { logger } from "../logger";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, loginAdmin, rest } from "../testing/client";
import { USER_SEARCH_MAX_LENGTH } from "../users/users.service";

let app: TestApp;
let adminToken: string;
let userEmail: string;
const errorLogs: unknown[] = [];

beforeAll(async () => {
  app = await startTestApp();
  adminToken = await loginAdmin(app);
  userEmail = (await createVerifiedUser(app, { name: "Søge Bruger" })).input.email;
});
afterAll(async () => {
  await app?.close();
});
beforeEach(() => {
  errorLogs.length = 0;
  vi.spyOn(logger, "error").mockImplementation(((...args: unknown[]) => {
    errorLogs.push(args);
  }) as never);
});
afterEach(() => {
  vi.restoreAllMocks();
  expect(errorLogs).toEqual([]);
});

// plain, regular-expression metacharacters (escaped to twice the length), and non-ASCII
const overLong = (max: number) => [
  "a".repeat(max + 1),
  "(".repeat(max + 1),
  "æ".repeat(10_000),
  "x".repeat(100_000),
];

describe("admin user search", () => {
  const adminUsers = (search: string) =>
    gql(app, "query U($s: String) { adminUsers(search: $s) { email } }", { s: search }, adminToken);

  it("should refuse an over-long search over GraphQL with BAD_USER_INPUT", async () => {
    for (const search of overLong(USER_SEARCH_MAX_LENGTH)) {
      const res = await adminUsers(search);
      const label = `${search.length} × ${search[0]}`;
      expect(res.errors?.[0].extensions?.code, label).toBe("BAD_USER_INPUT");
      expect(res.errors?.[0].message, label).toBe("Søgningen må højst være 200 tegn");
      expect(res.errors?.[0].extensions?.fields, label).toEqual([
        { field: "search", message: "Søgningen må højst være 200 tegn" },
      ]);
    }
  });

  it("should refuse an over-long search over REST with 400", async () => {
    // (a URL holds at most 16 KB: longer searches are refused at the HTTP edge with 431)
    const max = USER_SEARCH_MAX_LENGTH;
    for (const search of ["a".repeat(max + 1), "(".repeat(max + 1), "æ".repeat(max + 1), "x".repeat(9_000)]) {
      const res = await rest(app, "GET", `/api/admin/users?search=${encodeURIComponent(search)}`, {
        token: adminToken,
      });
      expect(res.status, `${search.length}`).toBe(400);
      expect(res.body).toMatchObject({ code: "BAD_USER_INPUT", message: "Søgningen må højst være 200 tegn" });
    }
  });

  it("should still search with the longest allowed text, padding trimmed", async () => {
    const padded = `   ${userEmail}${" ".repeat(USER_SEARCH_MAX_LENGTH)}`;
    const res = await adminUsers(padded);
    expect(res.errors).toBeUndefined();
    expect(res.data?.adminUsers).toEqual([{ email: userEmail }]);
    const longest = await adminUsers("(".repeat(USER_SEARCH_MAX_LENGTH));
    expect(longest.data?.adminUsers).toEqual([]);
    const viaRest = await rest(app, "GET", `/api/admin/users?search=${"b".repeat(USER_SEARCH_MAX_LENGTH)}`, {
      token: adminToken,
    });
    expect(viaRest).toMatchObject({ status: 200, body: [] });
  });
});

describe("activity log filters", () => {
  const activity = (vars: { search?: string; action?: string }) =>
    gql(
      app,
      "query A($s: String, $a: String) { activityLogs(search: $s, action: $a) { action } }",
      { s: vars.search, a: vars.action },
      adminToken,
    );

  it("should refuse an over-long search or action over GraphQL and REST", async () => {
    for (const search of overLong(ACTIVITY_SEARCH_MAX_LENGTH)) {
      const res = await activity({ search });
      expect(res.errors?.[0].extensions?.code, `${search.length}`).toBe("BAD_USER_INPUT");
      expect(res.errors?.[0].message).toBe("Søgningen må højst være 200 tegn");
    }
    const action = await activity({ action: "x".repeat(ACTIVITY_ACTION_MAX_LENGTH + 1) });
    expect(action.errors?.[0]).toMatchObject({
      message: formatMessage("activity.actionInvalid"),
      extensions: { code: "BAD_USER_INPUT" },
    });
    const viaRest = await rest(
      app,
      "GET",
      `/api/admin/activity-logs?search=${"(".repeat(ACTIVITY_SEARCH_MAX_LENGTH + 1)}`,
      { token: adminToken },
    );
    expect(viaRest).toMatchObject({
      status: 400,
      body: { code: "BAD_USER_INPUT", message: "Søgningen må højst være 200 tegn" },
    });
  });

  it("should accept the longest allowed search and action", async () => {
    const res = await activity({ search: "(".repeat(ACTIVITY_SEARCH_MAX_LENGTH), action: "login" });
    expect(res.errors).toBeUndefined();
    expect(res.data?.activityLogs).toEqual([]);
  });
});

/**
 * Hostile and malformed input on every route: each gets a 4xx with a clear message and code, the process
 * stays up, and nothing is written.
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, loginAdmin, type RestResponse, rest } from "../testing/client";

let app: TestApp;
let userToken: string;
let adminToken: string;
let victimId: string;

const WATCHED = ["users", "sessions", "user_preferences", "activity_logs", "rate_limits"];

async function snapshot(): Promise<string> {
  const parts: unknown[] = [];
  for (const c of WATCHED) {
    parts.push(await mongoose.connection.collection(c).find({}).sort({ _id: 1 }).toArray());
  }
  return JSON.stringify(parts);
}

beforeAll(async () => {
  app = await startTestApp();
  const u = await createVerifiedUser(app);
  userToken = u.token;
  victimId = (await createVerifiedUser(app)).user.id;
  adminToken = await loginAdmin(app);
});
afterAll(async () => {
  await app?.close();
});

type Who = "anon" | "user" | "admin";
interface Route {
  method: string;
  path: string;
  who: Who;
  fields: string[];
  valid: Record<string, unknown>;
}

const ROUTES: Route[] = [
  {
    method: "POST",
    path: "/api/auth/login",
    who: "anon",
    fields: ["email", "password"],
    valid: { email: "x@minksekretariatet.dk", password: "hemmeligt" },
  },
  {
    method: "POST",
    path: "/api/auth/register",
    who: "anon",
    fields: ["name", "email", "username", "password"],
    valid: {
      name: "Ny Bruger",
      email: "ny.bruger@minksekretariatet.dk",
      username: "nybruger",
      password: "hemmeligt",
    },
  },
  {
    method: "POST",
    path: "/api/resend-verification",
    who: "anon",
    fields: ["email"],
    valid: { email: "x@minksekretariatet.dk" },
  },
  {
    method: "POST",
    path: "/api/auth/forgot-password",
    who: "anon",
    fields: ["email"],
    valid: { email: "x@minksekretariatet.dk" },
  },
  {
    method: "POST",
    path: "/api/auth/reset-password",
    who: "anon",
    fields: ["token", "newPassword"],
    valid: { token: "abc", newPassword: "hemmeligt" },
  },
  {
    method: "PUT",
    path: "/api/user/preferences",
    who: "user",
    fields: ["language", "theme"],
    valid: { language: "da", theme: "dark" },
  },
  {
    method: "PUT",
    path: "/api/user/password",
    who: "user",
    fields: ["currentPassword", "newPassword"],
    valid: { currentPassword: "x", newPassword: "hemmeligt" },
  },
  {
    method: "POST",
    path: "/api/admin/reset-password",
    who: "admin",
    fields: ["userId", "newPassword"],
    valid: { userId: "x", newPassword: "hemmeligt" },
  },
];

const HOSTILE: Array<[string, unknown]> = [
  ["$ne operator", { $ne: null }],
  ["$gt operator", { $gt: "" }],
  ["$regex operator", { $regex: ".*" }],
  ["number", 12345],
  ["boolean", true],
  ["array", ["a", "b"]],
  ["nested object", { a: { b: 1 } }],
];

const token = (who: Who) => (who === "user" ? userToken : who === "admin" ? adminToken : undefined);

function expectClearError(res: RestResponse, label: string) {
  expect(res.status, label).toBeGreaterThanOrEqual(400);
  expect(res.status, label).toBeLessThan(500);
  expect(typeof res.body?.message, label).toBe("string");
  expect(res.body.message.length, label).toBeGreaterThan(3);
  expect(typeof res.body?.code, label).toBe("string");
}

describe("bad input on REST routes", () => {
  for (const route of ROUTES) {
    it(`should refuse operator objects and wrong types in every field of ${route.method} ${route.path}`, async () => {
      const before = await snapshot();
      for (const field of route.fields) {
        for (const [label, value] of HOSTILE) {
          const res = await rest(app, route.method, route.path, {
            token: token(route.who),
            body: { ...route.valid, [field]: value },
          });
          expectClearError(res, `${field}: ${label}`);
          expect(res.status, `${field}: ${label}`).toBe(400);
          expect(res.body.code).toBe("BAD_USER_INPUT");
          expect(res.body.message).toContain(field);
        }
        const long = await rest(app, route.method, route.path, {
          token: token(route.who),
          body: { ...route.valid, [field]: "x".repeat(20_000) },
        });
        expectClearError(long, `${field}: over-long`);
      }
      expect(await snapshot()).toBe(before);
      expect((await rest(app, "GET", "/healthz")).status).toBe(200);
    });

    it(`should refuse missing, null, array, non-JSON and 2 MB bodies on ${route.method} ${route.path}`, async () => {
      const before = await snapshot();
      const t = token(route.who);
      const cases: Array<[string, Parameters<typeof rest>[3], number]> = [
        ["no body", { token: t }, 400],
        ["null", { token: t, body: "null" }, 400],
        ["array", { token: t, body: "[1,2]" }, 400],
        ["string", { token: t, body: '"hej"' }, 400],
        ["broken JSON", { token: t, body: '{"email": ' }, 400],
        [
          "form encoded",
          { token: t, body: "email=a", headers: { "content-type": "application/x-www-form-urlencoded" } },
          400,
        ],
        [
          "2 MB",
          { token: t, body: JSON.stringify({ ...route.valid, pad: "x".repeat(2 * 1024 * 1024) }) },
          413,
        ],
      ];
      for (const [label, opts, status] of cases) {
        const res = await rest(app, route.method, route.path, opts);
        expectClearError(res, label);
        expect(res.status, label).toBe(status);
      }
      expect(await snapshot()).toBe(before);
      expect((await rest(app, "GET", "/healthz")).status).toBe(200);
    });
  }

  it("should refuse operator-shaped and repeated query parameters", async () => {
    const before = await snapshot();
    const cases: Array<[string, string | undefined]> = [
      ["/api/verify-email?token[$ne]=x", undefined],
      ["/api/verify-email?token=a&token=b", undefined],
      ["/api/verify-email", undefined],
      ["/api/admin/users?search=a&search=b", adminToken],
      ["/api/admin/activity-logs?action=a&action=b", adminToken],
      ["/api/admin/activity-logs?time=forever", adminToken],
    ];
    for (const [path, t] of cases) {
      const res = await rest(app, "GET", path, { token: t });
      expectClearError(res, path);
      expect(res.status, path).toBe(400);
    }
    // an operator-looking search string is just text: it matches nobody
    const literal = await rest(app, "GET", `/api/admin/users?search=${encodeURIComponent('{"$ne":null}')}`, {
      token: adminToken,
    });
    expect(literal.status).toBe(200);
    expect(literal.body).toEqual([]);
    const regexy = await rest(app, "GET", `/api/admin/users?search=${encodeURIComponent(".*")}`, {
      token: adminToken,
    });
    expect(regexy.body).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it("should answer malformed ids with 404 and delete nothing", async () => {
    const before = await snapshot();
    for (const id of ['{"$ne":null}', "not-an-id", "0", "ffffffffffffffffffffffff"]) {
      const res = await rest(app, "DELETE", `/api/admin/users/${encodeURIComponent(id)}`, {
        token: adminToken,
      });
      expect(res.status, id).toBe(404);
      expect(res.body.code).toBe("NOT_FOUND");
      const reset = await rest(app, "POST", "/api/admin/reset-password", {
        token: adminToken,
        body: { userId: id, newPassword: "hemmeligt" },
      });
      expect(reset.status, id).toBe(404);
    }
    expect(await snapshot()).toBe(before);
  });

  it("should catch e-mail tricks at registration", async () => {
    const before = await snapshot();
    const cases: Array<[string, string]> = [
      ["a@evil.dk@minksekretariatet.dk", "Ugyldig email format"],
      ["a@minksekretariatet.dk.", "Ugyldig email format"],
      ["a@sub.minksekretariatet.dk", "Kun @minksekretariatet.dk email adresser er tilladt"],
      ["a@minksekretariatet.dk.evil.com", "Kun @minksekretariatet.dk email adresser er tilladt"],
      ["a@minksekretariatet.dk\u200b", "Ugyldig email format"],
      ["a b@minksekretariatet.dk", "Ugyldig email format"],
      ["<script>@minksekretariatet.dk", "Ugyldig email format"],
      ["a..b@minksekretariatet.dk", "Ugyldig email format"],
      ["a@minksekretariatet.dk\nBcc: x@evil.dk", "Ugyldig email format"],
    ];
    for (const [email, message] of cases) {
      const res = await rest(app, "POST", "/api/auth/register", {
        body: { name: "Trick Bruger", email, username: "trickbruger", password: "hemmeligt" },
      });
      expect(res.status, email).toBe(400);
      expect(res.body.message, email).toBe(message);
    }
    expect(await snapshot()).toBe(before);
  });

  it("should store upper-case and padded e-mails in one normal form, so they cannot make a twin account", async () => {
    const first = await rest(app, "POST", "/api/auth/register", {
      body: {
        name: "Case Bruger",
        email: "  CASE.Bruger@MINKSEKRETARIATET.DK ",
        username: "casebruger",
        password: "hemmeligt",
      },
    });
    expect(first.status).toBe(201);
    const twin = await rest(app, "POST", "/api/auth/register", {
      body: {
        name: "Case Bruger",
        email: "case.bruger@minksekretariatet.dk",
        username: "casebruger2",
        password: "hemmeligt",
      },
    });
    expect(twin.status).toBe(409);
    expect(
      await mongoose.connection
        .collection("users")
        .countDocuments({ email: "case.bruger@minksekretariatet.dk" }),
    ).toBe(1);
  });

  it("should ignore a userId sent where the signed-in user is meant", async () => {
    const before = await rest(app, "GET", "/api/user/preferences", { token: userToken });
    await rest(app, "PUT", "/api/user/preferences", {
      token: userToken,
      body: { theme: "system", userId: victimId },
    });
    const victimPrefs = await mongoose.connection
      .collection("user_preferences")
      .findOne({ userId: new mongoose.Types.ObjectId(victimId) });
    expect(victimPrefs).toBeNull();
    expect(before.status).toBe(200);
  });

  it("should refuse wrong types in GraphQL variables before any resolver runs", async () => {
    const before = await snapshot();
    const res = await gql(app, "mutation L($input: LoginInput!) { login(input: $input) { token } }", {
      input: { email: { $ne: null }, password: { $gt: "" } },
    });
    expect(res.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    const res2 = await gql(app, "mutation F($e: String!) { forgotPassword(email: $e) { ok } }", { e: ["a"] });
    expect(res2.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(await snapshot()).toBe(before);
  });
});

/**
 * Authorization matrix: every admin REST route refused for a normal user (403) and without a user (401). The
 * GraphQL admin operations are checked from the schema's @Authorized metadata in
 * graphql/authorization.integration.test.ts.
 */
import { SignJWT } from "jose";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_CACHE_TTL_MS } from "../auth/auth.cache";
import { startTestApp, type TestApp } from "../testing/app";
import { buildUser, createVerifiedUser, gql, loginAdmin, rest } from "../testing/client";
import { UserModel } from "../users/user.model";

let app: TestApp;
let userToken: string;
let adminToken: string;
let otherId: string;

beforeAll(async () => {
  app = await startTestApp({ config: { envBadgeUsername: "envbadge" } });
  userToken = (await createVerifiedUser(app)).token;
  otherId = (await createVerifiedUser(app)).user.id;
  adminToken = await loginAdmin(app);
});
afterAll(async () => {
  await app?.close();
});

const adminRest = () => [
  { method: "GET", path: "/api/admin/users" },
  { method: "GET", path: "/api/admin/users?search=a" },
  { method: "DELETE", path: `/api/admin/users/${otherId}` },
  { method: "POST", path: "/api/admin/reset-password", body: { userId: otherId, newPassword: "overtaget1" } },
  { method: "GET", path: "/api/admin/activity-logs" },
  { method: "GET", path: "/api/admin/activity-logs?offset=10&limit=5" },
  { method: "GET", path: "/api/admin/stats" },
  { method: "GET", path: "/api/auth/notion" },
  { method: "GET", path: "/api/auth/notion/callback?code=c&state=s" },
  { method: "POST", path: "/api/auth/notion/disconnect" },
  { method: "POST", path: "/api/admin/notion/token", body: { token: "secret_x" } },
  { method: "GET", path: "/api/admin/notion/databases" },
  { method: "GET", path: "/api/admin/notion/config" },
  { method: "POST", path: "/api/admin/notion/config", body: { selectedDatabases: [] } },
  { method: "GET", path: "/api/admin/notion/sync" },
  { method: "POST", path: "/api/admin/notion/sync" },
  { method: "GET", path: "/api/admin/chat-shares" },
];

const userRest = [
  { method: "GET", path: "/api/user/preferences" },
  { method: "PUT", path: "/api/user/preferences", body: { theme: "dark" } },
  { method: "PUT", path: "/api/user/password", body: { currentPassword: "x", newPassword: "yyyyyy" } },
  { method: "GET", path: "/api/environment" },
  { method: "GET", path: "/api/auth/notion/status" },
  { method: "GET", path: "/api/chat/shares" },
  { method: "POST", path: "/api/chat/sessions/x/share" },
  { method: "DELETE", path: "/api/chat/shares/x" },
  { method: "GET", path: "/api/shared/x" },
];

const userGql = [
  "{ myPreferences { theme } }",
  "{ environment { environment } }",
  "{ notionStatus { connected } }",
  "mutation { updatePreferences(input: { theme: dark }) { theme } }",
  `mutation { changePassword(input: { currentPassword: "x", newPassword: "yyyyyy" }) }`,
  "{ chatShares { id } }",
  '{ sharedChat(shareId: "x") { id } }',
  'mutation { shareChatSession(sessionId: "x") { id } }',
  'mutation { revokeChatShare(shareId: "x") }',
];

describe("authorization matrix", () => {
  it("should answer every admin REST route with 401 without a user and 403 for a normal user", async () => {
    for (const r of adminRest()) {
      const anon = await rest(app, r.method, r.path, { body: r.body });
      expect(anon.status, `${r.method} ${r.path} anon`).toBe(401);
      expect(anon.body.code).toBe("UNAUTHENTICATED");
      const user = await rest(app, r.method, r.path, { body: r.body, token: userToken });
      expect(user.status, `${r.method} ${r.path} user`).toBe(403);
      expect(user.body).toEqual({ code: "FORBIDDEN", message: "Kun administratorer har adgang" });
    }
    // nothing happened to the target
    const target = await mongoose.connection
      .collection("users")
      .findOne({ _id: new mongoose.Types.ObjectId(otherId) });
    expect(target).not.toBeNull();
    expect(await mongoose.connection.collection("activity_logs").countDocuments({ action: /^admin_/ })).toBe(
      0,
    );
  });

  it("should answer every signed-in route with 401 / UNAUTHENTICATED without a user", async () => {
    for (const r of userRest) {
      const res = await rest(app, r.method, r.path, { body: r.body });
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
    }
    for (const q of userGql)
      expect((await gql(app, q)).errors?.[0].extensions?.code, q).toBe("UNAUTHENTICATED");
  });

  it("should let the admin through the same admin routes", async () => {
    expect((await rest(app, "GET", "/api/admin/users", { token: adminToken })).status).toBe(200);
    expect((await rest(app, "GET", "/api/admin/stats", { token: adminToken })).status).toBe(200);
    expect(
      (await rest(app, "GET", "/api/admin/activity-logs?time=24h&action=login", { token: adminToken }))
        .status,
    ).toBe(200);
    expect(
      (await gql(app, "{ adminUsers { id } }", {}, adminToken)).data?.adminUsers.length,
    ).toBeGreaterThanOrEqual(3);
  });

  it("should show the environment only to the ENV_BADGE_USERNAME user", async () => {
    expect((await rest(app, "GET", "/api/environment", { token: userToken })).status).toBe(403);
    // nobody can sign up as it (auth/reserved-username.integration.test.ts): the CLI creates it
    const input = buildUser({ username: "envbadge" });
    const admin = (await app.services.users.builtinAdmin()).user;
    await app.services.users.createUser(admin, input, { via: "cli" });
    const login = await rest(app, "POST", "/api/auth/login", {
      body: { email: input.email, password: input.password },
    });
    const res = await rest(app, "GET", "/api/environment", { token: login.body.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      environment: "DEV",
      hostname: expect.any(String),
      deployment: { repl_owner: null, node_env: "test" },
    });
  });

  it("should check the admin role in the database, not in the token", async () => {
    const promoted = await createVerifiedUser(app);
    const id = new mongoose.Types.ObjectId(promoted.user.id);
    // a change made by this process is seen by the next request
    await UserModel.updateOne({ _id: id }, { $set: { role: "admin" } });
    expect((await rest(app, "GET", "/api/admin/users", { token: promoted.token })).status).toBe(200);
    await UserModel.updateOne({ _id: id }, { $set: { role: "user" } });
    expect((await rest(app, "GET", "/api/admin/users", { token: promoted.token })).status).toBe(403);
    expect((await gql(app, "{ adminUsers { id } }", {}, promoted.token)).errors?.[0].extensions?.code).toBe(
      "FORBIDDEN",
    );
    // a change made straight in the store, as another process would, within the auth cache's TTL
    await mongoose.connection.collection("users").updateOne({ _id: id }, { $set: { role: "admin" } });
    await new Promise((r) => setTimeout(r, AUTH_CACHE_TTL_MS + 50));
    expect((await rest(app, "GET", "/api/admin/users", { token: promoted.token })).status).toBe(200);
  });

  it("should refuse forged, foreign-secret and revoked tokens", async () => {
    const victim = await createVerifiedUser(app);
    const session = await mongoose.connection
      .collection("sessions")
      .findOne({ "sess.userId": victim.user.id });
    const forged = await new SignJWT({ sid: session!.sid, role: "admin" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(victim.user.id)
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("x".repeat(64)));
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify({ sub: victim.user.id, sid: session!.sid })).toString("base64url")}.`;
    for (const t of [forged, none, "garbage", `${victim.token}x`]) {
      expect((await rest(app, "GET", "/api/auth/status", { token: t })).body.isAuthenticated, t).toBe(false);
      expect((await rest(app, "GET", "/api/user/preferences", { token: t })).status).toBe(401);
    }
    // a token whose sid belongs to someone else does not work either
    const other = await createVerifiedUser(app);
    const [, payload] = other.token.split(".");
    expect(JSON.parse(Buffer.from(payload, "base64url").toString()).sub).toBe(other.user.id);
  });

  it("should never reach one user's data with another user's token", async () => {
    const a = await createVerifiedUser(app);
    const b = await createVerifiedUser(app);
    await rest(app, "PUT", "/api/user/preferences", {
      token: b.token,
      body: { theme: "dark", language: "en" },
    });
    // A writes with B's id in every place an id could go; only A's own record changes
    await rest(app, "PUT", "/api/user/preferences", {
      token: a.token,
      body: { theme: "system", userId: b.user.id, id: b.user.id },
    });
    expect(
      (await rest(app, "GET", `/api/user/preferences?userId=${b.user.id}`, { token: a.token })).body.theme,
    ).toBe("system");
    expect((await rest(app, "GET", "/api/user/preferences", { token: b.token })).body).toMatchObject({
      theme: "dark",
      language: "en",
    });
    // A cannot delete or reset B
    expect((await rest(app, "DELETE", `/api/admin/users/${b.user.id}`, { token: a.token })).status).toBe(403);
    // status answers with the token's own user
    expect((await rest(app, "GET", "/api/auth/status", { token: a.token })).body.user.id).toBe(a.user.id);
  });

  it("should stop a deleted user's token at once and remove everything of theirs", async () => {
    const doomed = await createVerifiedUser(app);
    const id = new mongoose.Types.ObjectId(doomed.user.id);
    await rest(app, "PUT", "/api/user/preferences", { token: doomed.token, body: { theme: "dark" } });
    const db = mongoose.connection;
    // other modules' collections, as they store them (an ObjectId userId; older string ids are migrated on
    // start: db/migrations.integration.test.ts)
    await db.collection("chat_sessions").insertMany([
      { userId: id, sessionId: "s1" },
      { userId: id, sessionId: "s2" },
    ]);
    await db.collection("chat_messages").insertOne({ userId: id, sessionId: "s1", content: "hej" });
    await db.collection("user_bookmarks").insertOne({ userId: id, articleId: "a1" });
    await db.collection("recent_searches").insertOne({ userId: id, query: "moms" });
    await db.collection("knowledge_gaps").insertOne({ userId: id, question: "Hvad koster en kat?" });
    await db.collection("chat_shares").insertOne({ userId: id, shareId: "s".repeat(32), sessionId: "s1" });
    await db.collection("chat_sessions").insertOne({ userId: "someone-else", sessionId: "s3" });

    const listed = await rest(
      app,
      "GET",
      `/api/admin/users?search=${encodeURIComponent(doomed.input.email)}`,
      { token: adminToken },
    );
    expect(listed.body[0]).toMatchObject({
      chatSessionsCount: 2,
      chat_sessions_count: 2,
      bookmarksCount: 1,
      bookmarks_count: 1,
      isActive: true,
      is_active: true,
    });

    // a search just before the delete is still waiting to be recorded: it must not outlive the user
    const searched = await gql(app, 'query { searchKnowledge(query: "budget") { total } }', {}, doomed.token);
    expect(searched.errors).toBeUndefined();
    const del = await rest(app, "DELETE", `/api/admin/users/${doomed.user.id}`, { token: adminToken });
    expect(del.status).toBe(200);
    await app.services.knowledge.searchesRecorded();
    expect((await rest(app, "GET", "/api/auth/status", { token: doomed.token })).body.isAuthenticated).toBe(
      false,
    );
    const byUser = { userId: { $in: [doomed.user.id, id] } };
    for (const c of [
      "chat_sessions",
      "chat_messages",
      "user_bookmarks",
      "recent_searches",
      "knowledge_gaps",
      "user_preferences",
      "chat_shares",
    ]) {
      expect(await db.collection(c).countDocuments(byUser), c).toBe(0);
    }
    expect(await db.collection("sessions").countDocuments({ "sess.userId": doomed.user.id })).toBe(0);
    expect(await db.collection("chat_sessions").countDocuments({ userId: "someone-else" })).toBe(1);
  });

  it("should refuse deleting the built-in admin with the spec's message", async () => {
    const admin = (await rest(app, "GET", "/api/admin/users", { token: adminToken })).body.find(
      (u: { email: string }) => u.email === app.admin.email,
    );
    const res = await rest(app, "DELETE", `/api/admin/users/${admin.id}`, { token: adminToken });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "FORBIDDEN", message: "Admin-brugeren kan ikke slettes" });
  });
});

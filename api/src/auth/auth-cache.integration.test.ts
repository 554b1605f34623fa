/**
 * Signed-in requests are answered from an in-process cache (auth.cache.ts). These tests use every token at
 * least once before the change, so it is cached, and then check that the change is seen by the very next
 * request: a change made through this process must never wait for the cache's TTL.
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, loginAdmin, rest } from "../testing/client";
import { UserModel } from "../users/user.model";
import { AUTH_CACHE_TTL_MS } from "./auth.cache";
import { SessionModel } from "./session.model";

let app: TestApp;
let adminToken: string;

beforeAll(async () => {
  app = await startTestApp();
  adminToken = await loginAdmin(app);
});
afterAll(async () => {
  await app?.close();
});

const status = async (token: string) => (await rest(app, "GET", "/api/auth/status", { token })).body;
const me = async (token: string) => (await gql(app, "{ me { id name role } }", {}, token)).data?.me ?? null;

/** Use the token over REST and GraphQL (so it is in the cache) and check it works. */
async function warm(token: string): Promise<void> {
  for (let i = 0; i < 2; i++) {
    expect((await status(token)).isAuthenticated).toBe(true);
    expect(await me(token)).not.toBeNull();
  }
}

async function expectSignedOut(token: string): Promise<void> {
  expect((await status(token)).isAuthenticated).toBe(false);
  expect(await me(token)).toBeNull();
  expect((await rest(app, "GET", "/api/user/preferences", { token })).status).toBe(401);
}

async function login(email: string, password: string): Promise<string> {
  const res = await rest(app, "POST", "/api/auth/login", { body: { email, password } });
  expect(res.status).toBe(200);
  return res.body.token;
}

describe("auth cache: changes made in this process are seen at once", () => {
  it("should stop a token at once after logout, and keep the user's other session", async () => {
    const { input, token } = await createVerifiedUser(app);
    const other = await login(input.email, input.password);
    await warm(token);
    await warm(other);
    expect((await rest(app, "POST", "/api/auth/logout", { token })).status).toBe(200);
    await expectSignedOut(token);
    await warm(other);
  });

  it("should stop the other sessions at once after a password change, and keep the changing one", async () => {
    const { input, token } = await createVerifiedUser(app);
    const stolen = await login(input.email, input.password);
    await warm(token);
    await warm(stolen);
    const changed = await rest(app, "PUT", "/api/user/password", {
      token,
      body: { currentPassword: input.password, newPassword: "nyt-kodeord-1" },
    });
    expect(changed.status).toBe(200);
    await expectSignedOut(stolen);
    await warm(token);
  });

  it("should stop every session at once after a password reset by link and by an admin", async () => {
    const { input, token } = await createVerifiedUser(app);
    await warm(token);
    await rest(app, "POST", "/api/auth/forgot-password", { body: { email: input.email } });
    const link = (await app.mail.waitFor(input.email)).links.find((l) => l.includes("token="))!;
    const reset = await rest(app, "POST", "/api/auth/reset-password", {
      body: { token: new URL(link).searchParams.get("token"), newPassword: "nulstillet-1" },
    });
    expect(reset.status).toBe(200);
    await expectSignedOut(token);

    const again = await login(input.email, "nulstillet-1");
    await warm(again);
    const byAdmin = await rest(app, "POST", "/api/admin/reset-password", {
      token: adminToken,
      body: { userId: (await status(again)).user.id, newPassword: "fra-admin-1" },
    });
    expect(byAdmin.status).toBe(200);
    await expectSignedOut(again);
  });

  it("should stop a token at once when an admin deletes the user", async () => {
    const { token, user } = await createVerifiedUser(app);
    await warm(token);
    expect((await rest(app, "DELETE", `/api/admin/users/${user.id}`, { token: adminToken })).status).toBe(
      200,
    );
    await expectSignedOut(token);
  });

  it("should show a role or profile change on the next request, whichever mongoose write made it", async () => {
    const { token, user } = await createVerifiedUser(app);
    const _id = new mongoose.Types.ObjectId(user.id);
    await warm(token);
    const expectUser = async (fields: { name?: string; role?: string }) => {
      expect((await status(token)).user).toMatchObject(fields);
      // GraphQL's role is an enum (ADMIN, USER)
      expect(await me(token)).toMatchObject({
        ...fields,
        ...(fields.role && { role: fields.role.toUpperCase() }),
      });
    };

    await UserModel.updateOne({ _id }, { $set: { role: "admin" } });
    await expectUser({ role: "admin" });
    expect((await rest(app, "GET", "/api/admin/users", { token })).status).toBe(200);
    await UserModel.updateMany({ _id }, { $set: { role: "user" } });
    await expectUser({ role: "user" });
    expect((await rest(app, "GET", "/api/admin/users", { token })).status).toBe(403);

    const doc = (await UserModel.findById(_id))!;
    doc.name = "Navn Gemt";
    await doc.save();
    await expectUser({ name: "Navn Gemt" });
    await UserModel.findOneAndUpdate({ _id }, { $set: { name: "Navn Fundet" } });
    await expectUser({ name: "Navn Fundet" });
    await UserModel.findByIdAndUpdate(_id, { $set: { name: "Navn Id" } });
    await expectUser({ name: "Navn Id" });
    await doc.updateOne({ $set: { name: "Navn Dokument" } });
    await expectUser({ name: "Navn Dokument" });
    await UserModel.bulkWrite([{ updateOne: { filter: { _id }, update: { $set: { name: "Navn Bulk" } } } }]);
    await expectUser({ name: "Navn Bulk" });
    const raw = (await UserModel.findById(_id).lean())!;
    await UserModel.replaceOne({ _id }, { ...raw, name: "Navn Erstattet" });
    await expectUser({ name: "Navn Erstattet" });

    await UserModel.findOneAndDelete({ _id });
    await expectSignedOut(token);
  });

  it("should stop a token at once when its session or user is deleted through mongoose without an event", async () => {
    const a = await createVerifiedUser(app);
    await warm(a.token);
    await SessionModel.deleteMany({ "sess.userId": a.user.id });
    await expectSignedOut(a.token);

    const b = await createVerifiedUser(app);
    await warm(b.token);
    await UserModel.deleteMany({ _id: new mongoose.Types.ObjectId(b.user.id) });
    await expectSignedOut(b.token);

    const c = await createVerifiedUser(app);
    await warm(c.token);
    await (await UserModel.findById(c.user.id))!.deleteOne();
    await expectSignedOut(c.token);
  });

  it("should give every request its own user document", async () => {
    const { token, user } = await createVerifiedUser(app);
    const first = (await app.services.auth.authenticate(token))!;
    const second = (await app.services.auth.authenticate(token))!;
    expect(String(first.user._id)).toBe(user.id);
    expect(second.user).not.toBe(first.user);
    first.user.name = "Ændret i én forespørgsel";
    first.user.createdAt.setTime(0);
    const third = (await app.services.auth.authenticate(token))!;
    expect(third.user.name).toBe(user.name);
    expect(third.user.createdAt.getTime()).toBe(new Date(user.createdAt).getTime());
    expect(third.user.isNew).toBe(false);
  });

  it("should see a change made straight in the store (as another process would) within the TTL", async () => {
    const { token, user } = await createVerifiedUser(app);
    await warm(token);
    await mongoose.connection.collection("sessions").deleteMany({ "sess.userId": user.id });
    await new Promise((r) => setTimeout(r, AUTH_CACHE_TTL_MS + 50));
    await expectSignedOut(token);
  });
});

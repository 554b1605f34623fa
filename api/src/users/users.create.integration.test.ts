/** UsersService.createUser: the one way an administrator creates an account (admin panel and CLI). */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { buildUser, createVerifiedUser, rest } from "../testing/client";
import type { UserDoc } from "./user.model";

let app: TestApp;
let admin: UserDoc;

beforeAll(async () => {
  app = await startTestApp();
  admin = (await app.services.users.builtinAdmin()).user;
});
afterAll(async () => {
  await app?.close();
});

const activity = () => mongoose.connection.collection("activity_logs");

describe("UsersService.createUser", () => {
  it("should save a verified user with a hashed password and write the activity entry", async () => {
    const input = buildUser();
    const user = await app.services.users.createUser(admin, input, { via: "cli" });
    expect(user).toMatchObject({
      email: input.email,
      username: input.username,
      role: "user",
      verified: true,
    });

    const stored = await mongoose.connection.collection("users").findOne({ email: input.email });
    expect(stored?.passwordHash).toMatch(/^\$argon2/);
    expect(stored?.passwordHash).not.toContain(input.password);
    // the password works: the new user signs in
    const login = await rest(app, "POST", "/api/auth/login", {
      body: { email: input.email, password: input.password },
    });
    expect(login.status).toBe(200);

    const entry = await activity().findOne({ "metadata.createdUserId": user.id });
    expect(entry).toMatchObject({
      action: "admin_create_user",
      description: `Administrator oprettede brugeren ${input.email} (CLI)`,
      userEmail: admin.email,
      metadata: { createdUserId: user.id, role: "user", via: "cli" },
    });
    // every user reference is an ObjectId (db/migrations.ts), the activity log's too
    expect(String(entry?.userId)).toBe(String(admin._id));
    expect(entry?.userId).toBeInstanceOf(mongoose.Types.ObjectId);
  });

  it("should create an admin or an unverified account when asked, logged as the admin panel by default", async () => {
    const boss = await app.services.users.createUser(admin, { ...buildUser(), role: "admin" });
    expect(boss).toMatchObject({ role: "admin", isAdmin: true, verified: true });
    const entry = await activity().findOne({ "metadata.createdUserId": boss.id });
    expect(entry).toMatchObject({
      description: `Administrator oprettede brugeren ${boss.email}`,
      metadata: { role: "admin", via: "web" },
    });
    const pending = await app.services.users.createUser(admin, { ...buildUser(), verified: false });
    expect(pending.verified).toBe(false);
  });

  it("should refuse a taken e-mail or username with a clear message and write nothing", async () => {
    const first = buildUser();
    await app.services.users.createUser(admin, first);
    const before = await activity().countDocuments({ action: "admin_create_user" });

    const sameEmail = { ...buildUser(), email: first.email.toUpperCase() };
    await expect(app.services.users.createUser(admin, sameEmail)).rejects.toMatchObject({
      code: "CONFLICT",
      message: "Der findes allerede en bruger med denne email",
    });
    const sameUsername = { ...buildUser(), username: first.username.toUpperCase() };
    await expect(app.services.users.createUser(admin, sameUsername)).rejects.toMatchObject({
      code: "CONFLICT",
      message: "Brugernavnet er allerede taget",
    });
    expect(await activity().countDocuments({ action: "admin_create_user" })).toBe(before);
    expect(await mongoose.connection.collection("users").countDocuments({ email: sameUsername.email })).toBe(
      0,
    );
  });

  it("should apply the registration rules and refuse a non-admin actor", async () => {
    await expect(
      app.services.users.createUser(admin, { ...buildUser(), email: "x@gmail.com" }),
    ).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      message: "Kun @minksekretariatet.dk email adresser er tilladt",
    });
    await expect(
      app.services.users.createUser(admin, { ...buildUser(), password: "123" }),
    ).rejects.toMatchObject({ code: "BAD_USER_INPUT" });

    const staff = await createVerifiedUser(app);
    const actor = await app.services.users.getUser(staff.user.id);
    const input = buildUser();
    await expect(app.services.users.createUser(actor, input)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "Kun administratorer har adgang",
    });
    expect(await mongoose.connection.collection("users").countDocuments({ email: input.email })).toBe(0);
  });

  it("should hand the CLI the built-in admin, the same user on every call", async () => {
    const again = await app.services.users.builtinAdmin();
    expect(String(again.user._id)).toBe(String(admin._id));
    expect(again.generatedPassword).toBeUndefined();
    expect(again.user.email).toBe(app.admin.email);
  });
});

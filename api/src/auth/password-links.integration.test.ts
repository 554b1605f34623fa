/**
 * A password change of any kind (own change, reset link, admin over REST or GraphQL, CLI) voids every reset
 * and verification link mailed before it: a link must not outlive the password it was meant to replace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usersResetPassword } from "../../../cli/src/commands/users";
import type { CliContext } from "../../../cli/src/context";
import { startTestApp, type TestApp } from "../testing/app";
import { buildUser, createVerifiedUser, gql, loginAdmin, rest } from "../testing/client";
import { UserModel } from "../users/user.model";

let app: TestApp;
let adminToken: string;
beforeAll(async () => {
  app = await startTestApp();
  adminToken = await loginAdmin(app);
});
afterAll(async () => {
  await app?.close();
});

const tokenFrom = (link: string) => new URL(link).searchParams.get("token")!;

/** Ask for a reset link and return its token. */
async function resetLink(email: string): Promise<string> {
  expect((await rest(app, "POST", "/api/auth/forgot-password", { body: { email } })).status).toBe(200);
  const mail = await app.mail.waitFor(email);
  return tokenFrom(mail.links.find((l) => l.includes("/reset-password?token="))!);
}

/** Register without verifying; return the mailed verification token. */
async function unverifiedUser(): Promise<{ email: string; id: string; verifyToken: string }> {
  const input = buildUser();
  expect((await rest(app, "POST", "/api/auth/register", { body: input })).status).toBe(201);
  const mail = await app.mail.waitFor(input.email);
  const user = await UserModel.findOne({ email: input.email });
  return { email: input.email, id: String(user!._id), verifyToken: tokenFrom(mail.links[0]) };
}

async function expectResetRefused(token: string) {
  const res = await rest(app, "POST", "/api/auth/reset-password", {
    body: { token, newPassword: "angribers-kode" },
  });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({
    code: "INVALID_TOKEN",
    message: "Nulstillingslinket er ugyldigt eller udløbet",
  });
}

async function expectVerifyRefused(token: string) {
  const res = await rest(app, "GET", `/api/verify-email?token=${encodeURIComponent(token)}`);
  expect(res.status).toBe(400);
  expect(res.body.code).toBe("INVALID_TOKEN");
}

function cliContext(): CliContext {
  return {
    config: app.config,
    services: app.services,
    io: { out: () => undefined, err: () => undefined },
    actor: async () => (await UserModel.findOne({ email: app.config.adminEmail }))!,
  };
}

describe("old links after a password change", () => {
  it("should void a reset link when the user changes the password over REST", async () => {
    const { input, token } = await createVerifiedUser(app);
    const old = await resetLink(input.email);
    const change = await rest(app, "PUT", "/api/user/password", {
      token,
      body: { currentPassword: input.password, newPassword: "nyt-kodeord" },
    });
    expect(change.status).toBe(200);
    await expectResetRefused(old);
  });

  it("should void a reset link when the user changes the password over GraphQL", async () => {
    const { input, token } = await createVerifiedUser(app);
    const old = await resetLink(input.email);
    const change = await gql(
      app,
      "mutation($input: ChangePasswordInput!) { changePassword(input: $input) }",
      { input: { currentPassword: input.password, newPassword: "nyt-kodeord" } },
      token,
    );
    expect(change.data?.changePassword).toBe(true);
    await expectResetRefused(old);
  });

  it("should void reset and verification links when an admin resets the password over REST", async () => {
    const { input, user } = await createVerifiedUser(app);
    const old = await resetLink(input.email);
    const res = await rest(app, "POST", "/api/admin/reset-password", {
      token: adminToken,
      body: { userId: user.id, newPassword: "fra-admin-1" },
    });
    expect(res.status).toBe(200);
    await expectResetRefused(old);

    const pending = await unverifiedUser();
    const oldReset = await resetLink(pending.email);
    await rest(app, "POST", "/api/admin/reset-password", {
      token: adminToken,
      body: { userId: pending.id, newPassword: "fra-admin-2" },
    });
    await expectVerifyRefused(pending.verifyToken);
    await expectResetRefused(oldReset);
  });

  it("should void a reset link when an admin resets the password over GraphQL", async () => {
    const { input, user } = await createVerifiedUser(app);
    const old = await resetLink(input.email);
    const res = await gql(
      app,
      "mutation($id: ID!, $pw: String!) { adminResetPassword(userId: $id, newPassword: $pw) }",
      { id: user.id, pw: "fra-admin-3" },
      adminToken,
    );
    expect(res.data?.adminResetPassword).toBe(true);
    await expectResetRefused(old);
  });

  it("should void reset and verification links when the CLI resets the password", async () => {
    const { input } = await createVerifiedUser(app);
    const old = await resetLink(input.email);
    await usersResetPassword(cliContext(), input.email, { password: "fra-cli-1" });
    await expectResetRefused(old);

    const pending = await unverifiedUser();
    await usersResetPassword(cliContext(), pending.email, { password: "fra-cli-2" });
    await expectVerifyRefused(pending.verifyToken);
  });

  it("should void the verification link when the password is reset through a reset link", async () => {
    const pending = await unverifiedUser();
    const reset = await resetLink(pending.email);
    const ok = await rest(app, "POST", "/api/auth/reset-password", {
      body: { token: reset, newPassword: "via-linket-1" },
    });
    expect(ok.status).toBe(200);
    await expectVerifyRefused(pending.verifyToken);
    // following the reset link proved the mailbox: the account can sign in
    const login = await rest(app, "POST", "/api/auth/login", {
      body: { email: pending.email, password: "via-linket-1" },
    });
    expect(login.status).toBe(200);
  });

  it("should still honour a link asked for after the change", async () => {
    const { input, token } = await createVerifiedUser(app);
    await rest(app, "PUT", "/api/user/password", {
      token,
      body: { currentPassword: input.password, newPassword: "nyt-kodeord" },
    });
    const fresh = await resetLink(input.email);
    const ok = await rest(app, "POST", "/api/auth/reset-password", {
      body: { token: fresh, newPassword: "endnu-nyere" },
    });
    expect(ok.status).toBe(200);
  });
});

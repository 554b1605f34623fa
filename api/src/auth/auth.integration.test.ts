import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { buildUser, createVerifiedUser, rest } from "../testing/client";

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const tokenFrom = (link: string) => new URL(link).searchParams.get("token")!;

describe("accounts over REST", () => {
  it("should register, e-mail a Danish verification link over SMTP, verify it once, and log in", async () => {
    const input = buildUser({ email: "Anne.Holm@MinkSekretariatet.dk", username: "anneholm" });
    const reg = await rest(app, "POST", "/api/auth/register", { body: input });
    expect(reg.status).toBe(201);
    expect(reg.body).toEqual({
      verificationRequired: true,
      message: expect.stringContaining("Tjek din email"),
    });

    // refused until verified
    const early = await rest(app, "POST", "/api/auth/login", {
      body: { email: input.email, password: input.password },
    });
    expect(early.status).toBe(403);
    expect(early.body.code).toBe("EMAIL_NOT_VERIFIED");
    expect(early.body.message).toContain("ikke bekræftet");

    const mail = await app.mail.waitFor("anne.holm@minksekretariatet.dk");
    expect(mail.subject).toBe("Bekræft din email til Vidensbank");
    expect(mail.text).toContain("Hej");
    const link = mail.links.find((l) => l.startsWith(`${app.url}/verify-email?token=`));
    expect(link).toBeDefined();

    // the token is stored hashed, never in the clear
    const stored = await mongoose.connection
      .collection("users")
      .findOne({ email: "anne.holm@minksekretariatet.dk" });
    expect(stored?.verificationToken).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.verificationToken).not.toBe(tokenFrom(link!));
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);

    const ver = await rest(app, "GET", `/api/verify-email?token=${encodeURIComponent(tokenFrom(link!))}`);
    expect(ver.status).toBe(200);
    expect(ver.body).toEqual({ verified: true, message: expect.any(String) });
    const again = await rest(app, "GET", `/api/verify-email?token=${encodeURIComponent(tokenFrom(link!))}`);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("INVALID_TOKEN");

    const login = await rest(app, "POST", "/api/auth/login", {
      body: { email: "ANNE.HOLM@minksekretariatet.dk", password: input.password },
    });
    expect(login.status).toBe(200);
    expect(login.body.token).toMatch(/^ey/);
    expect(login.body.user).toMatchObject({
      email: "anne.holm@minksekretariatet.dk",
      username: "anneholm",
      role: "user",
    });
    expect(login.body.user.passwordHash).toBeUndefined();
    expect(login.body.message).toContain(input.name);
    expect(login.headers.get("set-cookie")).toMatch(/auth_token=.*HttpOnly.*SameSite=Lax/i);
  });

  it("should report sign-in state from the bearer header or the cookie, and end it on logout", async () => {
    const { token, user } = await createVerifiedUser(app);
    const anon = await rest(app, "GET", "/api/auth/status");
    expect(anon.body).toEqual({ isAuthenticated: false, user: null });

    const byBearer = await rest(app, "GET", "/api/auth/status", { token });
    expect(byBearer.body).toMatchObject({ isAuthenticated: true, user: { id: user.id } });
    const byCookie = await rest(app, "GET", "/api/auth/status", { cookie: `auth_token=${token}` });
    expect(byCookie.body.isAuthenticated).toBe(true);

    const sessions = await mongoose.connection
      .collection("sessions")
      .find({ "sess.userId": user.id })
      .toArray();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ sid: expect.any(String), expire: expect.any(Date) });

    const out = await rest(app, "POST", "/api/auth/logout", { token });
    expect(out.status).toBe(200);
    const after = await rest(app, "GET", "/api/auth/status", { token });
    expect(after.body.isAuthenticated).toBe(false);
    expect(await mongoose.connection.collection("sessions").countDocuments({ "sess.userId": user.id })).toBe(
      0,
    );
  });

  it("should refuse a second account with the same e-mail or username (409) and keep the first", async () => {
    const first = buildUser();
    expect((await rest(app, "POST", "/api/auth/register", { body: first })).status).toBe(201);
    const sameEmail = await rest(app, "POST", "/api/auth/register", {
      body: buildUser({ email: first.email.toUpperCase() }),
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({
      code: "CONFLICT",
      message: "Der findes allerede en bruger med denne email",
    });
    const sameUsername = await rest(app, "POST", "/api/auth/register", {
      body: buildUser({ username: first.username.toUpperCase() }),
    });
    expect(sameUsername.status).toBe(409);
    expect(sameUsername.body.message).toBe("Brugernavnet er allerede taget");
    expect(await mongoose.connection.collection("users").countDocuments({ email: first.email })).toBe(1);
  });

  it("should apply the spec's validation with its exact Danish messages", async () => {
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ email: "ikke-en-email" }, "email", "Ugyldig email format"],
      [{ email: "a@gmail.com" }, "email", "Kun @minksekretariatet.dk email adresser er tilladt"],
      [{ username: "ab" }, "username", "Brugernavn skal være mindst 3 tegn"],
      [{ username: "x".repeat(51) }, "username", "Brugernavn må højst være 50 tegn"],
      [{ password: "12345" }, "password", "Password skal være mindst 6 tegn"],
      [{ name: "A" }, "name", "Navn skal være mindst 2 tegn"],
      [{ name: "A".repeat(101) }, "name", "Navn må højst være 100 tegn"],
    ];
    for (const [override, field, message] of cases) {
      const res = await rest(app, "POST", "/api/auth/register", { body: buildUser(override) });
      expect(res.status, JSON.stringify(override)).toBe(400);
      expect(res.body.code).toBe("BAD_USER_INPUT");
      expect(res.body.message).toBe(message);
      expect(res.body.fields).toContainEqual({ field, message });
    }
    const login = await rest(app, "POST", "/api/auth/login", {
      body: { email: "a@minksekretariatet.dk", password: "" },
    });
    expect(login.status).toBe(400);
    expect(login.body.message).toBe("Password er påkrævet");
  });

  it("should answer wrong passwords and unknown accounts alike", async () => {
    const { input } = await createVerifiedUser(app);
    const wrong = await rest(app, "POST", "/api/auth/login", {
      body: { email: input.email, password: "forkert-kode" },
    });
    const unknown = await rest(app, "POST", "/api/auth/login", {
      body: { email: "findes.ikke@minksekretariatet.dk", password: "forkert-kode" },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toEqual({ code: "INVALID_CREDENTIALS", message: "Ugyldige login oplysninger" });
  });

  it("should resend a verification mail whose new link works and whose old link does not", async () => {
    const input = buildUser();
    await rest(app, "POST", "/api/auth/register", { body: input });
    const first = await app.mail.waitFor(input.email);
    const resend = await rest(app, "POST", "/api/resend-verification", { body: { email: input.email } });
    expect(resend.status).toBe(200);
    expect(resend.body).toEqual({ ok: true, message: expect.any(String) });
    const second = await app.mail.waitFor(input.email);
    const oldToken = tokenFrom(first.links[0]);
    const newToken = tokenFrom(second.links[0]);
    expect((await rest(app, "GET", `/api/verify-email?token=${oldToken}`)).status).toBe(400);
    expect((await rest(app, "GET", `/api/verify-email?token=${newToken}`)).status).toBe(200);
    // unknown address: the same answer, no mail
    const unknown = await rest(app, "POST", "/api/resend-verification", {
      body: { email: "ingen@minksekretariatet.dk" },
    });
    expect(unknown.body).toEqual(resend.body);
  });

  it("should reset a forgotten password through the e-mailed link once, ending every session", async () => {
    const { input, token } = await createVerifiedUser(app);
    const known = await rest(app, "POST", "/api/auth/forgot-password", { body: { email: input.email } });
    const unknown = await rest(app, "POST", "/api/auth/forgot-password", {
      body: { email: "ukendt@minksekretariatet.dk" },
    });
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);

    const mail = await app.mail.waitFor(input.email);
    expect(mail.subject).toBe("Nulstil din adgangskode til Vidensbank");
    const link = mail.links.find((l) => l.startsWith(`${app.url}/reset-password?token=`))!;
    const resetToken = tokenFrom(link);

    const tooShort = await rest(app, "POST", "/api/auth/reset-password", {
      body: { token: resetToken, newPassword: "123" },
    });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.message).toBe("Password skal være mindst 6 tegn");

    const ok = await rest(app, "POST", "/api/auth/reset-password", {
      body: { token: resetToken, newPassword: "nyt-kodeord-1" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toEqual(expect.any(String));
    const reused = await rest(app, "POST", "/api/auth/reset-password", {
      body: { token: resetToken, newPassword: "andet-kodeord" },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe("INVALID_TOKEN");

    expect((await rest(app, "GET", "/api/auth/status", { token })).body.isAuthenticated).toBe(false);
    const oldPw = await rest(app, "POST", "/api/auth/login", {
      body: { email: input.email, password: input.password },
    });
    expect(oldPw.status).toBe(401);
    const newPw = await rest(app, "POST", "/api/auth/login", {
      body: { email: input.email, password: "nyt-kodeord-1" },
    });
    expect(newPw.status).toBe(200);
  });

  it("should change the password only with the current one, ending the other sessions", async () => {
    const { input, token } = await createVerifiedUser(app);
    const other = (
      await rest(app, "POST", "/api/auth/login", { body: { email: input.email, password: input.password } })
    ).body.token;
    const wrong = await rest(app, "PUT", "/api/user/password", {
      token,
      body: { currentPassword: "forkert", newPassword: "nyt-kodeord" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toContainEqual({
      field: "currentPassword",
      message: "Nuværende adgangskode er forkert",
    });
    const short = await rest(app, "PUT", "/api/user/password", {
      token,
      body: { currentPassword: input.password, newPassword: "12" },
    });
    expect(short.body.message).toBe("Ny adgangskode skal være mindst 6 tegn");

    const ok = await rest(app, "PUT", "/api/user/password", {
      token,
      body: { currentPassword: input.password, newPassword: "nyt-kodeord" },
    });
    expect(ok.status).toBe(200);
    expect((await rest(app, "GET", "/api/auth/status", { token })).body.isAuthenticated).toBe(true);
    expect((await rest(app, "GET", "/api/auth/status", { token: other })).body.isAuthenticated).toBe(false);
    const login = await rest(app, "POST", "/api/auth/login", {
      body: { email: input.email, password: "nyt-kodeord" },
    });
    expect(login.status).toBe(200);
  });

  it("should keep preferences per user with the spec's defaults", async () => {
    const a = await createVerifiedUser(app);
    const b = await createVerifiedUser(app);
    const defaults = await rest(app, "GET", "/api/user/preferences", { token: a.token });
    expect(defaults.body).toMatchObject({ language: "da", theme: "light", notifications: true });
    const put = await rest(app, "PUT", "/api/user/preferences", {
      token: a.token,
      body: { language: "en", theme: "dark", notifications: false, userId: b.user.id },
    });
    expect(put.status).toBe(200);
    expect((await rest(app, "GET", "/api/user/preferences", { token: a.token })).body).toMatchObject({
      language: "en",
      theme: "dark",
      notifications: false,
    });
    // the userId in the body was ignored: b is untouched
    expect((await rest(app, "GET", "/api/user/preferences", { token: b.token })).body).toMatchObject({
      language: "da",
    });
    const bad = await rest(app, "PUT", "/api/user/preferences", { token: a.token, body: { theme: "neon" } });
    expect(bad.status).toBe(400);
  });

  it("should refuse an expired verification link (24 h) and an expired reset link (1 h)", async () => {
    const input = buildUser();
    await rest(app, "POST", "/api/auth/register", { body: input });
    const link = (await app.mail.waitFor(input.email)).links[0];
    const users = mongoose.connection.collection("users");
    const stored = await users.findOne({ email: input.email });
    expect(stored!.verificationTokenExpires.getTime() - stored!.createdAt.getTime()).toBeGreaterThan(
      23.9 * 3600_000,
    );
    expect(stored!.verificationTokenExpires.getTime() - stored!.createdAt.getTime()).toBeLessThan(
      24.1 * 3600_000,
    );
    await users.updateOne(
      { email: input.email },
      { $set: { verificationTokenExpires: new Date(Date.now() - 1000) } },
    );
    const expired = await rest(app, "GET", `/api/verify-email?token=${tokenFrom(link)}`);
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe("INVALID_TOKEN");

    const { input: other } = await createVerifiedUser(app);
    await rest(app, "POST", "/api/auth/forgot-password", { body: { email: other.email } });
    const resetLink = (await app.mail.waitFor(other.email)).links[0];
    const withReset = await users.findOne({ email: other.email });
    expect(withReset!.passwordResetToken).toMatch(/^[0-9a-f]{64}$/);
    expect(withReset!.passwordResetToken).not.toBe(tokenFrom(resetLink));
    const ttl = withReset!.passwordResetTokenExpires.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000);
    await users.updateOne(
      { email: other.email },
      { $set: { passwordResetTokenExpires: new Date(Date.now() - 1000) } },
    );
    const late = await rest(app, "POST", "/api/auth/reset-password", {
      body: { token: tokenFrom(resetLink), newPassword: "for-sent-1" },
    });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe("INVALID_TOKEN");
  });

  it("should keep login sessions in a collection with a TTL index on expire", async () => {
    const indexes = await mongoose.connection.collection("sessions").indexes();
    expect(indexes).toContainEqual(expect.objectContaining({ key: { expire: 1 }, expireAfterSeconds: 0 }));
    expect(indexes).toContainEqual(expect.objectContaining({ key: { sid: 1 }, unique: true }));
  });

  it("should send mail from MAIL_FROM", async () => {
    const input = buildUser();
    await rest(app, "POST", "/api/auth/register", { body: input });
    const mail = await app.mail.waitFor(input.email);
    expect(mail.from).toBe("no-reply@minksekretariatet.dk");
    expect(mail.raw).toMatch(/^From: Vidensbank <no-reply@minksekretariatet\.dk>/m);
    expect(mail.raw).toContain("Content-Type: text/html");
  });

  it("should record logins and registrations in the activity log", async () => {
    const { input } = await createVerifiedUser(app);
    const entries = await mongoose.connection
      .collection("activity_logs")
      .find({ userEmail: input.email })
      .toArray();
    expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(["register", "login"]));
    expect(entries.find((e) => e.action === "login")?.description).toContain("loggede ind");
  });
});

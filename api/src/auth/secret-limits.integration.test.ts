/**
 * Every other place that checks a secret or sends mail has an attempt limit counted before the check:
 * the current password on a password change (per user), e-mailed link tokens (per IP), and the mail
 * endpoints (per address and per IP), also under bursts of parallel requests.
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { buildUser, createVerifiedUser, gql, type RestResponse, rest } from "../testing/client";

const PASSWORD_CHECKS = 5;
const TOKEN_CHECKS = 10;
const MAILS_PER_ADDRESS = 3;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    rateLimits: {
      passwordCheckPerUser: { points: PASSWORD_CHECKS, duration: 600 },
      tokenPerIp: { points: TOKEN_CHECKS, duration: 600 },
      mailPerAddress: { points: MAILS_PER_ADDRESS, duration: 600 },
    },
  });
});
afterAll(async () => {
  await app?.close();
});
// each test starts with fresh counts (every request here comes from one address)
beforeEach(async () => {
  await mongoose.connection.collection("rate_limits").deleteMany({});
});

const tokenFrom = (link: string) => new URL(link).searchParams.get("token")!;

function expectTooMany(res: RestResponse) {
  expect(res.status).toBe(429);
  expect(res.body.code).toBe("TOO_MANY_REQUESTS");
  expect(res.body.message).toMatch(/^For mange forsøg\. Prøv igen om \d+/);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
}

/** The REST answers by code; every answer must be one of the two expected codes. */
function byCode(answers: RestResponse[], checked: string): { checked: number; limited: RestResponse[] } {
  const limited = answers.filter((r) => r.body?.code === "TOO_MANY_REQUESTS");
  const n = answers.filter((r) => r.body?.code === checked).length;
  expect(n + limited.length).toBe(answers.length);
  for (const r of limited) expectTooMany(r);
  return { checked: n, limited };
}

function changePassword(token: string, currentPassword: string, newPassword = "nyt-kodeord") {
  return rest(app, "PUT", "/api/user/password", { token, body: { currentPassword, newPassword } });
}

const CHANGE = "mutation($input: ChangePasswordInput!) { changePassword(input: $input) }";

describe("password change attempt limit", () => {
  it("should check at most the limit of 40 parallel wrong current passwords, then refuse the right one", async () => {
    const { input, token } = await createVerifiedUser(app);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => changePassword(token, `forkert-${i}`)),
    );
    const { checked } = byCode(answers, "BAD_USER_INPUT");
    expect(checked).toBeLessThanOrEqual(PASSWORD_CHECKS);
    // the wrong-password answer is unchanged
    expect(answers.find((r) => r.status === 400)?.body.fields).toContainEqual({
      field: "currentPassword",
      message: "Nuværende adgangskode er forkert",
    });
    expectTooMany(await changePassword(token, input.password));
    // the password did not change
    const login = await rest(app, "POST", "/api/auth/login", {
      body: { email: input.email, password: input.password },
    });
    expect(login.status).toBe(200);
  });

  it("should limit GraphQL and every session of the user together", async () => {
    const { input, token } = await createVerifiedUser(app);
    const second = (
      await rest(app, "POST", "/api/auth/login", { body: { email: input.email, password: input.password } })
    ).body.token;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        gql(
          app,
          CHANGE,
          { input: { currentPassword: `forkert-${i}`, newPassword: "nyt-kodeord" } },
          i % 2 ? token : second,
        ),
      ),
    );
    const codes = answers.map((r) => r.errors?.[0].extensions?.code);
    expect(codes.filter((c) => c === "BAD_USER_INPUT").length).toBeLessThanOrEqual(PASSWORD_CHECKS);
    expect(codes.filter((c) => c === "TOO_MANY_REQUESTS").length).toBe(
      40 - codes.filter((c) => c === "BAD_USER_INPUT").length,
    );
    const limited = answers.find((r) => r.errors?.[0].extensions?.code === "TOO_MANY_REQUESTS");
    expect(limited?.errors?.[0].extensions?.retryAfter).toBeGreaterThan(0);
    expect(limited?.errors?.[0].message).toMatch(/^For mange forsøg/);
  });

  it("should lock after the limit of one-at-a-time wrong guesses and only for that user", async () => {
    const a = await createVerifiedUser(app);
    const b = await createVerifiedUser(app);
    for (let i = 0; i < PASSWORD_CHECKS; i++) {
      expect((await changePassword(a.token, `forkert-${i}`)).status).toBe(400);
    }
    expectTooMany(await changePassword(a.token, a.input.password));
    expect((await changePassword(b.token, b.input.password)).status).toBe(200);
    // until the window passes
    await mongoose.connection
      .collection("rate_limits")
      .updateMany({}, { $set: { expire: new Date(Date.now() - 1000) } });
    expect((await changePassword(a.token, a.input.password)).status).toBe(200);
  });

  it("should keep the normal path: a few slips, then the right password changes it and clears the count", async () => {
    const { input, token } = await createVerifiedUser(app);
    for (let i = 0; i < PASSWORD_CHECKS - 1; i++) {
      expect((await changePassword(token, "forkert")).status).toBe(400);
    }
    const ok = await changePassword(token, input.password, "andet-kodeord");
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, message: "Din adgangskode er blevet ændret succesfuldt" });
    for (let i = 0; i < PASSWORD_CHECKS - 1; i++) {
      expect((await changePassword(token, "forkert")).status).toBe(400);
    }
    expect((await changePassword(token, "andet-kodeord", "tredje-kodeord")).status).toBe(200);
  });
});

describe("e-mailed link token limit", () => {
  it("should check at most the limit of 30 parallel guessed reset tokens, then refuse a real link", async () => {
    const { input } = await createVerifiedUser(app);
    await mongoose.connection.collection("rate_limits").deleteMany({});
    await rest(app, "POST", "/api/auth/forgot-password", { body: { email: input.email } });
    const real = tokenFrom((await app.mail.waitFor(input.email)).links[0]);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        rest(app, "POST", "/api/auth/reset-password", {
          body: { token: `gaet-${i}-${"x".repeat(40)}`, newPassword: "nyt-kodeord" },
        }),
      ),
    );
    expect(byCode(answers, "INVALID_TOKEN").checked).toBeLessThanOrEqual(TOKEN_CHECKS);
    expectTooMany(
      await rest(app, "POST", "/api/auth/reset-password", {
        body: { token: real, newPassword: "nyt-kodeord" },
      }),
    );
    const viaGql = await gql(
      app,
      'mutation { resetPassword(input: { token: "x", newPassword: "nyt-kodeord" }) { ok } }',
    );
    expect(viaGql.errors?.[0].extensions?.code).toBe("TOO_MANY_REQUESTS");
  });

  it("should limit verification tokens over REST and GraphQL together", async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2
          ? rest(app, "GET", `/api/verify-email?token=gaet-${i}`)
          : gql(app, "mutation($t: String!) { verifyEmail(token: $t) { verified } }", {
              t: `gaet-${i}`,
            }).then((r) => ({
              status: r.status,
              body: { code: r.errors?.[0].extensions?.code },
              headers: r.headers,
            })),
      ),
    );
    const codes = answers.map((r) => r.body.code);
    expect(codes.filter((c) => c === "INVALID_TOKEN").length).toBeLessThanOrEqual(TOKEN_CHECKS);
    expect(codes.every((c) => c === "INVALID_TOKEN" || c === "TOO_MANY_REQUESTS")).toBe(true);
    // a real verification link from the same address waits too
    const input = buildUser();
    await rest(app, "POST", "/api/auth/register", { body: input });
    const link = (await app.mail.waitFor(input.email)).links[0];
    expectTooMany(await rest(app, "GET", `/api/verify-email?token=${tokenFrom(link)}`));
  });

  it("should let real links through under the limit", async () => {
    const input = buildUser();
    await rest(app, "POST", "/api/auth/register", { body: input });
    const link = (await app.mail.waitFor(input.email)).links[0];
    expect((await rest(app, "GET", `/api/verify-email?token=${tokenFrom(link)}`)).status).toBe(200);
    await rest(app, "POST", "/api/auth/forgot-password", { body: { email: input.email } });
    const reset = tokenFrom((await app.mail.waitFor(input.email)).links[0]);
    const ok = await rest(app, "POST", "/api/auth/reset-password", {
      body: { token: reset, newPassword: "nyt-kodeord" },
    });
    expect(ok.status).toBe(200);
  });
});

describe("mail limits under parallel requests", () => {
  it("should answer at most the limit of 20 parallel reset requests for one address and send no more mails", async () => {
    const { input } = await createVerifiedUser(app);
    await mongoose.connection.collection("rate_limits").deleteMany({});
    const before = app.mail.messages.filter((m) => m.to.includes(input.email)).length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        rest(app, "POST", "/api/auth/forgot-password", { body: { email: input.email } }),
      ),
    );
    const ok = answers.filter((r) => r.status === 200).length;
    expect(ok).toBeLessThanOrEqual(MAILS_PER_ADDRESS);
    for (const r of answers.filter((r) => r.status !== 200)) expectTooMany(r);
    await app.services.mailer.idle();
    const sent = app.mail.messages.filter((m) => m.to.includes(input.email)).length - before;
    expect(sent).toBeLessThanOrEqual(MAILS_PER_ADDRESS);
  });
});

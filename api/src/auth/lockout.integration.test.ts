/**
 * Attempt limits that a stranger cannot use to lock a user out (attempt-limits.ts): login attempts and link
 * mails are counted per (account, client address), with a per-account ceiling over all addresses and a per-IP
 * limit over all accounts. The app trusts one proxy hop here (TRUST_PROXY=1, as behind deploy/nginx.conf), so
 * each request names its client in X-Forwarded-For, the way nginx does.
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS } from "../config";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, type RestResponse, rest } from "../testing/client";
import type { CapturedMail } from "../testing/smtp";

const from = (ip: string) => ({ "x-forwarded-for": ip });

function login(app: TestApp, email: string, password: string, ip: string): Promise<RestResponse> {
  return rest(app, "POST", "/api/auth/login", { body: { email, password }, headers: from(ip) });
}

const code = (r: RestResponse) => (r.status === 200 ? "OK" : r.body.code);

function forgot(app: TestApp, email: string, ip: string): Promise<RestResponse> {
  return rest(app, "POST", "/api/auth/forgot-password", { body: { email }, headers: from(ip) });
}

function resend(app: TestApp, email: string, ip: string): Promise<RestResponse> {
  return rest(app, "POST", "/api/resend-verification", { body: { email }, headers: from(ip) });
}

function expectTooMany(res: RestResponse) {
  expect(res.status).toBe(429);
  expect(res.body.code).toBe("TOO_MANY_REQUESTS");
  expect(res.body.message).toMatch(/^For mange forsøg\. Prøv igen om \d+/);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
}

const tokenFrom = (link: string) => new URL(link).searchParams.get("token") as string;

describe("the default limits: a stranger from one address", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ rateLimits: DEFAULT_RATE_LIMITS, config: { trustProxyHops: 1 } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("should not stop the owner signing in from another address after 10 failed logins", async () => {
    const { input } = await createVerifiedUser(app);
    const stranger = "198.51.100.7";
    for (let i = 0; i < DEFAULT_RATE_LIMITS.loginPerAccountIp.points; i++) {
      expect(code(await login(app, input.email, `forkert-${i}`, stranger))).toBe("INVALID_CREDENTIALS");
    }
    // the stranger's address is locked out of this account, even with the right password
    expectTooMany(await login(app, input.email, input.password, stranger));
    // the owner, from a new address, is not
    expect(code(await login(app, input.email, input.password, "203.0.113.20"))).toBe("OK");
  });

  it("should not stop the owner's reset mail from another address after 5 asked for from one", async () => {
    const { input } = await createVerifiedUser(app);
    const stranger = "198.51.100.8";
    for (let i = 0; i < DEFAULT_RATE_LIMITS.mailPerAddressIp.points; i++) {
      expect((await forgot(app, input.email, stranger)).status).toBe(200);
      await app.mail.waitFor(input.email);
    }
    expectTooMany(await forgot(app, input.email, stranger));
    expect((await forgot(app, input.email, "203.0.113.21")).status).toBe(200);
    const link = (await app.mail.waitFor(input.email)).links[0] as string;
    const reset = await rest(app, "POST", "/api/auth/reset-password", {
      body: { token: tokenFrom(link), newPassword: "nyt-kodeord-1" },
      headers: from("203.0.113.21"),
    });
    expect(reset.status).toBe(200);
  });
});

const LIMITS = {
  loginPerIp: { points: 6, duration: 600 },
  loginPerAccountIp: { points: 3, duration: 600 },
  loginPerAccount: { points: 6, duration: 600 },
  mailPerIp: { points: 6, duration: 600 },
  mailPerAddressIp: { points: 2, duration: 600 },
  mailPerAddress: { points: 4, duration: 600 },
};

describe("the ceilings and the per-IP limits", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ rateLimits: LIMITS, config: { trustProxyHops: 1 } });
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    await mongoose.connection.collection("rate_limits").deleteMany({});
  });

  it("should hold the per-account ceiling across addresses, except from an address the owner signed in from", async () => {
    const { input } = await createVerifiedUser(app);
    const home = "203.0.113.30";
    expect(code(await login(app, input.email, input.password, home))).toBe("OK");
    // a botnet: three wrong passwords from each of two addresses reach the ceiling of six
    for (const ip of ["198.51.100.31", "198.51.100.32"]) {
      for (let i = 0; i < LIMITS.loginPerAccountIp.points; i++) {
        expect(code(await login(app, input.email, `forkert-${i}`, ip))).toBe("INVALID_CREDENTIALS");
      }
    }
    // a third address gets no check, nor does the owner from an address never used before
    expectTooMany(await login(app, input.email, "forkert-x", "198.51.100.33"));
    expectTooMany(await login(app, input.email, input.password, "203.0.113.34"));
    // from home the owner signs in, and a guesser sharing that address still meets its own limit
    expect(code(await login(app, input.email, input.password, home))).toBe("OK");
    for (let i = 0; i < LIMITS.loginPerAccountIp.points; i++) {
      expect(code(await login(app, input.email, `forkert-${i}`, home))).toBe("INVALID_CREDENTIALS");
    }
    expectTooMany(await login(app, input.email, input.password, home));
  });

  it("should stop spraying one password over many accounts from one address, also from one IPv6 /64", async () => {
    const targets = await Promise.all([1, 2, 3].map(() => createVerifiedUser(app)));
    const emails = Array.from({ length: LIMITS.loginPerIp.points }, (_, i) => targets[i % 3]?.input.email);
    // the sprayer walks its /64: each guess from another address of it
    for (const [i, email] of emails.entries()) {
      const ip = `2001:db8:7:7:${i + 1}::${i + 1}`;
      expect(code(await login(app, email as string, "Sommer2026", ip))).toBe("INVALID_CREDENTIALS");
    }
    expectTooMany(await login(app, targets[0]?.input.email as string, "Sommer2026", "2001:db8:7:7:ff::1"));
    // an IPv4 client the socket reports IPv4-mapped is the same client as its IPv4 address
    const v4 = "198.51.100.40";
    for (const [i, email] of emails.entries()) {
      const ip = i % 2 ? v4 : `::ffff:${v4}`;
      expect(code(await login(app, email as string, "Sommer2026", ip))).toBe("INVALID_CREDENTIALS");
    }
    expectTooMany(await login(app, targets[1]?.input.email as string, "Sommer2026", v4));
    // the owners sign in from elsewhere
    for (const t of targets) {
      expect(code(await login(app, t.input.email, t.input.password, "203.0.113.41"))).toBe("OK");
    }
  });

  it("should not let a sprayer on a shared address stop a user who signed in from it before", async () => {
    const office = "203.0.113.50";
    const colleague = await createVerifiedUser(app);
    expect(code(await login(app, colleague.input.email, colleague.input.password, office))).toBe("OK");
    for (let i = 0; i < LIMITS.loginPerIp.points; i++) {
      expect(code(await login(app, `offer-${i}@minksekretariatet.dk`, "Sommer2026", office))).toBe(
        "INVALID_CREDENTIALS",
      );
    }
    expectTooMany(await login(app, "offer-x@minksekretariatet.dk", "Sommer2026", office));
    expect(code(await login(app, colleague.input.email, colleague.input.password, office))).toBe("OK");
  });

  it("should hold the per-address mail ceiling across addresses, and the last mail's link works", async () => {
    const { input } = await createVerifiedUser(app);
    for (const ip of ["198.51.100.61", "198.51.100.62"]) {
      for (let i = 0; i < LIMITS.mailPerAddressIp.points; i++) {
        expect((await forgot(app, input.email, ip)).status).toBe(200);
      }
      // one client address meets its own limit before the ceiling
      expectTooMany(await forgot(app, input.email, ip));
    }
    // two client addresses reached the ceiling: a third is refused too
    expectTooMany(await forgot(app, input.email, "203.0.113.63"));
    // no flooded mailbox: as many mails as the ceiling
    await app.services.mailer.idle();
    const mails: CapturedMail[] = [];
    for (let i = 0; i < LIMITS.mailPerAddress.points; i++) mails.push(await app.mail.waitFor(input.email));
    expect(app.mail.messages.filter((m) => m.to.includes(input.email)).length).toBe(
      1 + LIMITS.mailPerAddress.points, // and the verification mail of the sign-up
    );
    // the owner, refused a new mail, resets with the newest link in the mailbox (each mail replaced the link
    // before it; the queue may deliver them out of order)
    const answers = [];
    for (const mail of mails) {
      answers.push(
        (
          await rest(app, "POST", "/api/auth/reset-password", {
            body: { token: tokenFrom(mail.links[0] as string), newPassword: "nyt-kodeord-2" },
            headers: from("203.0.113.63"),
          })
        ).status,
      );
    }
    expect(answers.filter((s) => s === 200)).toHaveLength(1);
  });

  it("should not let verification mails asked for a verified account use up its reset mails", async () => {
    const { input } = await createVerifiedUser(app);
    for (const ip of ["198.51.100.71", "198.51.100.72"]) {
      for (let i = 0; i < LIMITS.mailPerAddressIp.points; i++) {
        expect((await resend(app, input.email, ip)).status).toBe(200);
      }
    }
    expectTooMany(await resend(app, input.email, "198.51.100.73"));
    expect((await forgot(app, input.email, "203.0.113.74")).status).toBe(200);
    expect((await app.mail.waitFor(input.email)).links[0]).toContain("/reset-password?token=");
  });

  it("should stop one address asking for mails to many addresses", async () => {
    const ip = "2001:db8:8:8::1";
    for (let i = 0; i < LIMITS.mailPerIp.points; i++) {
      expect((await forgot(app, `ingen-${i}@minksekretariatet.dk`, `2001:db8:8:8::${i + 1}`)).status).toBe(
        200,
      );
    }
    expectTooMany(await forgot(app, "ingen-x@minksekretariatet.dk", ip));
    expect((await forgot(app, "ingen-x@minksekretariatet.dk", "2001:db8:9:9::1")).status).toBe(200);
  });
});

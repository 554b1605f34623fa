/**
 * No account enumeration by timing: "forgot password" and "resend verification" answer as fast for an
 * address with an account as for one without, even when the mail server is slow (the mail goes out after
 * the answer).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { buildUser, createVerifiedUser, rest } from "../testing/client";

/** how late the test mail server accepts each message */
const SMTP_DELAY_MS = 300;
const SAMPLES = 20;
/** allowed difference of the median answer times (ms): far below the mail round trip */
const BOUND_MS = 50;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ smtpDelayMs: SMTP_DELAY_MS });
});
afterAll(async () => {
  await app?.close();
});

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Median answer times for the two addresses, asked alternately (so load hits both alike). */
async function timeBoth(path: string, known: string, unknown: string) {
  const times = { known: [] as number[], unknown: [] as number[] };
  const once = async (email: string) => {
    const start = performance.now();
    const res = await rest(app, "POST", path, { body: { email } });
    const ms = performance.now() - start;
    expect(res.status).toBe(200);
    return { ms, body: res.body };
  };
  // warm up both paths
  await once(known);
  await once(unknown);
  for (let i = 0; i < SAMPLES; i++) {
    const [first, second] = i % 2 ? [unknown, known] : [known, unknown];
    const a = await once(first);
    const b = await once(second);
    expect(a.body).toEqual(b.body);
    times[first === known ? "known" : "unknown"].push(a.ms);
    times[second === known ? "known" : "unknown"].push(b.ms);
  }
  return { known: median(times.known), unknown: median(times.unknown) };
}

describe("mail endpoints answer alike for known and unknown addresses", () => {
  it("should answer forgot-password in the same time whether or not the account exists", async () => {
    const { input } = await createVerifiedUser(app);
    const unknown = buildUser().email;
    const t = await timeBoth("/api/auth/forgot-password", input.email, unknown);
    expect(Math.abs(t.known - t.unknown), `median ms: ${JSON.stringify(t)}`).toBeLessThan(BOUND_MS);
    expect(t.known).toBeLessThan(SMTP_DELAY_MS);

    // the mails still go out (after the answers), and only to the known address
    await app.services.mailer.idle();
    const toKnown = app.mail.messages.filter((m) => m.to.includes(input.email.toLowerCase()));
    expect(toKnown.filter((m) => m.subject.startsWith("Nulstil"))).toHaveLength(SAMPLES + 1);
    expect(app.mail.messages.filter((m) => m.to.includes(unknown))).toHaveLength(0);
  });

  it("should answer resend-verification in the same time whether or not an unverified account exists", async () => {
    const input = buildUser();
    expect((await rest(app, "POST", "/api/auth/register", { body: input })).status).toBe(201);
    const unknown = buildUser().email;
    const t = await timeBoth("/api/resend-verification", input.email, unknown);
    expect(Math.abs(t.known - t.unknown), `median ms: ${JSON.stringify(t)}`).toBeLessThan(BOUND_MS);
    expect(t.known).toBeLessThan(SMTP_DELAY_MS);
    await app.services.mailer.idle();
    expect(app.mail.messages.filter((m) => m.to.includes(unknown))).toHaveLength(0);
  });

  it("should deliver a working reset link through the background queue", async () => {
    const { input } = await createVerifiedUser(app);
    await app.services.mailer.idle();
    await rest(app, "POST", "/api/auth/forgot-password", { body: { email: input.email } });
    const mail = await app.mail.waitFor(input.email);
    const token = new URL(mail.links[0]).searchParams.get("token")!;
    const ok = await rest(app, "POST", "/api/auth/reset-password", {
      body: { token, newPassword: "nyt-kodeord" },
    });
    expect(ok.status).toBe(200);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import type { RateLimitConfig } from "../config";
import { startTestApp, type TestApp } from "../testing/app";
import { buildUser, createVerifiedUser, gql, type RestResponse, rest } from "../testing/client";

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(limits: Partial<RateLimitConfig>): Promise<TestApp> {
  app = await startTestApp({ rateLimits: limits });
  return app;
}

function expectTooMany(res: RestResponse) {
  expect(res.status).toBe(429);
  expect(res.body.code).toBe("TOO_MANY_REQUESTS");
  expect(res.body.message).toMatch(/^For mange forsøg\. Prøv igen om \d+/);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(600);
}

describe("rate limits", () => {
  it("should lock an account from an address after repeated wrong passwords, even for the right one, and tell when to retry", async () => {
    const a = await start({ loginPerAccountIp: { points: 3, duration: 600 } });
    const { input } = await createVerifiedUser(a);
    for (let i = 0; i < 3; i++) {
      expect(
        (await rest(a, "POST", "/api/auth/login", { body: { email: input.email, password: "forkert" } }))
          .status,
      ).toBe(401);
    }
    expectTooMany(
      await rest(a, "POST", "/api/auth/login", { body: { email: input.email, password: input.password } }),
    );
    const viaGql = await gql(
      a,
      `mutation { login(input: { email: "${input.email}", password: "${input.password}" }) { token } }`,
    );
    expect(viaGql.errors?.[0].extensions?.code).toBe("TOO_MANY_REQUESTS");
    expect(viaGql.errors?.[0].extensions?.retryAfter).toBeGreaterThan(0);
    // another account from the same address is not affected
    const other = await createVerifiedUser(a);
    expect(
      (
        await rest(a, "POST", "/api/auth/login", {
          body: { email: other.input.email, password: other.input.password },
        })
      ).status,
    ).toBe(200);
  });

  it("should limit login attempts per IP address across accounts", async () => {
    const a = await start({ loginPerIp: { points: 4, duration: 600 } });
    for (let i = 0; i < 4; i++) {
      const res = await rest(a, "POST", "/api/auth/login", {
        body: { email: `x${i}@minksekretariatet.dk`, password: "forkert" },
      });
      expect(res.status).toBe(401);
    }
    expectTooMany(
      await rest(a, "POST", "/api/auth/login", {
        body: { email: "y@minksekretariatet.dk", password: "forkert" },
      }),
    );
  });

  it("should limit registrations per IP address", async () => {
    const a = await start({ registerPerIp: { points: 2, duration: 600 } });
    expect((await rest(a, "POST", "/api/auth/register", { body: buildUser() })).status).toBe(201);
    expect((await rest(a, "POST", "/api/auth/register", { body: buildUser() })).status).toBe(201);
    const third = buildUser();
    expectTooMany(await rest(a, "POST", "/api/auth/register", { body: third }));
  });

  it("should limit reset and verification mails per address (each kind apart) and per IP", async () => {
    const a = await start({
      mailPerAddressIp: { points: 2, duration: 600 },
      mailPerIp: { points: 6, duration: 600 },
    });
    const email = "glemsom@minksekretariatet.dk";
    expect((await rest(a, "POST", "/api/auth/forgot-password", { body: { email } })).status).toBe(200);
    expect((await rest(a, "POST", "/api/auth/forgot-password", { body: { email } })).status).toBe(200);
    expectTooMany(await rest(a, "POST", "/api/auth/forgot-password", { body: { email } }));
    // verification mails are counted apart from reset mails
    expect((await rest(a, "POST", "/api/resend-verification", { body: { email } })).status).toBe(200);
    // another address still works until the IP limit (six requests so far, the refused one too)
    expect(
      (await rest(a, "POST", "/api/auth/forgot-password", { body: { email: "anden@minksekretariatet.dk" } }))
        .status,
    ).toBe(200);
    expect(
      (await rest(a, "POST", "/api/auth/forgot-password", { body: { email: "tredje@minksekretariatet.dk" } }))
        .status,
    ).toBe(200);
    expectTooMany(
      await rest(a, "POST", "/api/auth/forgot-password", { body: { email: "fjerde@minksekretariatet.dk" } }),
    );
  });
});

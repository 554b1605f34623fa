/**
 * The addresses an account signed in from (known-addresses.ts) exempt it from the login ceiling only until its
 * password is reset or changed: whoever signed in before may have taken the account over. A reset (mail link,
 * admin) forgets them all; the user's own change keeps the address it came from. Through the real API, each
 * request naming its client in X-Forwarded-For (one trusted proxy hop, as behind deploy/nginx.conf).
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, loginAdmin, type RestResponse, rest } from "../testing/client";

const LIMITS = {
  loginPerIp: { points: 6, duration: 600 },
  loginPerAccountIp: { points: 3, duration: 600 },
  loginPerAccount: { points: 6, duration: 600 },
};

const from = (ip: string) => ({ "x-forwarded-for": ip });
const code = (r: RestResponse) => (r.status === 200 ? "OK" : r.body.code);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ mail: "outbox", rateLimits: LIMITS, config: { trustProxyHops: 1 } });
});
afterAll(async () => {
  await app?.close();
});
beforeEach(async () => {
  await mongoose.connection.collection("rate_limits").deleteMany({});
});

function login(email: string, password: string, ip: string): Promise<RestResponse> {
  return rest(app, "POST", "/api/auth/login", { body: { email, password }, headers: from(ip) });
}

/** A botnet: three wrong passwords from each of two addresses reach the account's ceiling of six. */
async function reachCeiling(email: string, tag: number): Promise<void> {
  for (const ip of [`198.51.100.${tag}`, `198.51.100.${tag + 1}`]) {
    for (let i = 0; i < LIMITS.loginPerAccountIp.points; i++) {
      expect(code(await login(email, `forkert-${i}`, ip))).toBe("INVALID_CREDENTIALS");
    }
  }
  expect(code(await login(email, "forkert-x", `198.51.100.${tag + 2}`))).toBe("TOO_MANY_REQUESTS");
}

describe("known sign-in addresses after a password change", () => {
  it("should keep a known address exempt from the ceiling while the password stays (the rule the others lift)", async () => {
    const { input } = await createVerifiedUser(app);
    const home = "203.0.113.110";
    expect(code(await login(input.email, input.password, home))).toBe("OK");
    await reachCeiling(input.email, 111);
    expect(code(await login(input.email, input.password, home))).toBe("OK");
  });

  it("should forget every address when the password is reset by the mailed link", async () => {
    const { input } = await createVerifiedUser(app);
    const home = "203.0.113.120";
    expect(code(await login(input.email, input.password, home))).toBe("OK");
    const forgot = await rest(app, "POST", "/api/auth/forgot-password", {
      body: { email: input.email },
      headers: from(home),
    });
    expect(forgot.status).toBe(200);
    const mail = await app.mail.waitFor(input.email);
    const token = new URL(mail.links.find((l) => l.includes("reset-password")) as string).searchParams.get(
      "token",
    );
    const reset = await rest(app, "POST", "/api/auth/reset-password", {
      body: { token, newPassword: "nyt-kodeord-120" },
      headers: from(home),
    });
    expect(reset.status).toBe(200);
    await reachCeiling(input.email, 121);
    // home is no longer known: even with the new password it waits like any new address
    expect(code(await login(input.email, "nyt-kodeord-120", home))).toBe("TOO_MANY_REQUESTS");
  });

  it("should forget every address when an admin resets the password", async () => {
    const { input, user } = await createVerifiedUser(app);
    const home = "203.0.113.130";
    expect(code(await login(input.email, input.password, home))).toBe("OK");
    const admin = await loginAdmin(app);
    const reset = await rest(app, "POST", "/api/admin/reset-password", {
      token: admin,
      body: { userId: user.id, newPassword: "nyt-kodeord-130" },
    });
    expect(reset.status).toBe(200);
    await reachCeiling(input.email, 131);
    expect(code(await login(input.email, "nyt-kodeord-130", home))).toBe("TOO_MANY_REQUESTS");
  });

  it("should forget all but the address of the user's own change", async () => {
    const { input } = await createVerifiedUser(app);
    const home = "203.0.113.140";
    const office = "203.0.113.141";
    expect(code(await login(input.email, input.password, home))).toBe("OK");
    const signedIn = await login(input.email, input.password, office);
    expect(code(signedIn)).toBe("OK");
    const changed = await rest(app, "PUT", "/api/user/password", {
      token: signedIn.body.token,
      body: {
        currentPassword: input.password,
        newPassword: "nyt-kodeord-140",
        confirmPassword: "nyt-kodeord-140",
      },
      headers: from(office),
    });
    expect(changed.status).toBe(200);
    await reachCeiling(input.email, 142);
    expect(code(await login(input.email, "nyt-kodeord-140", home))).toBe("TOO_MANY_REQUESTS");
    expect(code(await login(input.email, "nyt-kodeord-140", office))).toBe("OK");
  });

  it("should do the same for a change over GraphQL", async () => {
    const { input } = await createVerifiedUser(app);
    const home = "203.0.113.150";
    const office = "203.0.113.151";
    expect(code(await login(input.email, input.password, home))).toBe("OK");
    const signedIn = await login(input.email, input.password, office);
    const res = await fetch(app.graphqlUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${signedIn.body.token}`,
        ...from(office),
      },
      body: JSON.stringify({
        query: "mutation($input: ChangePasswordInput!) { changePassword(input: $input) }",
        variables: { input: { currentPassword: input.password, newPassword: "nyt-kodeord-150" } },
      }),
    });
    expect(((await res.json()) as { data?: unknown }).data).toEqual({ changePassword: true });
    await reachCeiling(input.email, 152);
    expect(code(await login(input.email, "nyt-kodeord-150", home))).toBe("TOO_MANY_REQUESTS");
    expect(code(await login(input.email, "nyt-kodeord-150", office))).toBe("OK");
  });
});

/**
 * Login limits under parallel guessing: every attempt is counted in the store before its password is checked,
 * so a burst of simultaneous guesses gets no more password checks than the limit allows. (Every request here
 * comes from one address: the limit met is the one per (account, address); lockout.integration.test.ts has
 * the keying across addresses.)
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { buildUser, createVerifiedUser, gql, rest } from "../testing/client";

const LIMIT = 10;
const BURST = 30;

/** The code of one login answer, REST or GraphQL. */
type Answer = { code: string | undefined; retryAfter: number | undefined };

function restLogin(app: TestApp, email: string, password: string, headers?: Record<string, string>) {
  return rest(app, "POST", "/api/auth/login", { body: { email, password }, headers }).then(
    (r): Answer => ({
      code: r.status === 200 ? "OK" : r.body.code,
      retryAfter: r.headers.get("retry-after") ? Number(r.headers.get("retry-after")) : undefined,
    }),
  );
}

function gqlLogin(app: TestApp, email: string, password: string) {
  return gql(app, "mutation($input: LoginInput!) { login(input: $input) { token } }", {
    input: { email, password },
  }).then(
    (r): Answer => ({
      code: r.errors ? r.errors[0].extensions?.code : "OK",
      retryAfter: r.errors?.[0].extensions?.retryAfter,
    }),
  );
}

/** Exactly `checked` password checks at most; every other answer a limit refusal that says when to retry. */
function expectAtMostChecked(answers: Answer[], checked: number) {
  const invalid = answers.filter((a) => a.code === "INVALID_CREDENTIALS").length;
  const limited = answers.filter((a) => a.code === "TOO_MANY_REQUESTS");
  expect(invalid).toBeLessThanOrEqual(checked);
  expect(invalid + limited.length).toBe(answers.length);
  for (const a of limited) expect(a.retryAfter).toBeGreaterThan(0);
}

/** Let every login window pass (as if the window's time were up). */
async function windowPasses(): Promise<void> {
  await mongoose.connection
    .collection("rate_limits")
    .updateMany({}, { $set: { expire: new Date(Date.now() - 1000) } });
}

describe("per-(account, address) login limit under parallel guesses", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ rateLimits: { loginPerAccountIp: { points: LIMIT, duration: 600 } } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("should check at most the limit of 30 parallel wrong passwords over REST, then refuse the right one", async () => {
    const { input } = await createVerifiedUser(app);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => restLogin(app, input.email, `forkert-${i}`)),
    );
    expectAtMostChecked(answers, LIMIT);
    expect((await restLogin(app, input.email, input.password)).code).toBe("TOO_MANY_REQUESTS");
    expect((await gqlLogin(app, input.email, input.password)).code).toBe("TOO_MANY_REQUESTS");
    // until the window passes
    await windowPasses();
    expect((await restLogin(app, input.email, input.password)).code).toBe("OK");
  });

  it("should do the same over GraphQL", async () => {
    const { input } = await createVerifiedUser(app);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => gqlLogin(app, input.email, `forkert-${i}`)),
    );
    expectAtMostChecked(answers, LIMIT);
    expect((await gqlLogin(app, input.email, input.password)).code).toBe("TOO_MANY_REQUESTS");
  });

  it("should count REST and GraphQL guesses and every spelling of the address against one account", async () => {
    const { input } = await createVerifiedUser(app);
    const spellings = [
      input.email,
      input.email.toUpperCase(),
      `  ${input.email}  `,
      input.email.replace(/^b/, "B"),
    ];
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => {
        const email = spellings[i % spellings.length];
        return i % 2 === 0 ? restLogin(app, email, `forkert-${i}`) : gqlLogin(app, email, `forkert-${i}`);
      }),
    );
    expectAtMostChecked(answers, LIMIT);
    expect((await restLogin(app, input.email, input.password)).code).toBe("TOO_MANY_REQUESTS");
  });

  it("should limit guesses at an unknown address the same way (no hint that it does not exist)", async () => {
    const email = buildUser().email;
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => restLogin(app, email, `forkert-${i}`)),
    );
    expectAtMostChecked(answers, LIMIT);
  });

  it("should mix a right password into a burst and still check no more than the limit", async () => {
    const { input } = await createVerifiedUser(app);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        restLogin(app, input.email, i === BURST - 1 ? input.password : `forkert-${i}`),
      ),
    );
    const invalid = answers.filter((a) => a.code === "INVALID_CREDENTIALS").length;
    const ok = answers.filter((a) => a.code === "OK").length;
    expect(invalid + ok).toBeLessThanOrEqual(LIMIT);
  });

  it("should keep today's rules: a right password within the limit signs in and clears the count", async () => {
    const { input } = await createVerifiedUser(app);
    for (let i = 0; i < LIMIT - 1; i++) {
      expect((await restLogin(app, input.email, "forkert")).code).toBe("INVALID_CREDENTIALS");
    }
    expect((await restLogin(app, input.email, input.password)).code).toBe("OK");
    // the count started again: LIMIT more wrong guesses are checked, then the lock
    for (let i = 0; i < LIMIT; i++) {
      expect((await restLogin(app, input.email, "forkert")).code).toBe("INVALID_CREDENTIALS");
    }
    expect((await restLogin(app, input.email, input.password)).code).toBe("TOO_MANY_REQUESTS");
  });

  it("should not use up attempts with the right password on an unverified account", async () => {
    const input = buildUser();
    expect((await rest(app, "POST", "/api/auth/register", { body: input })).status).toBe(201);
    for (let i = 0; i < LIMIT + 2; i++) {
      expect((await restLogin(app, input.email, input.password)).code).toBe("EMAIL_NOT_VERIFIED");
    }
  });
});

describe("per-IP login limit under parallel guesses", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ rateLimits: { loginPerIp: { points: LIMIT, duration: 600 } } });
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    await mongoose.connection.collection("rate_limits").deleteMany({});
  });

  it("should check at most the limit of 30 parallel guesses across many accounts", async () => {
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => restLogin(app, buildUser().email, `forkert-${i}`)),
    );
    expectAtMostChecked(answers, LIMIT);
    expect((await restLogin(app, app.admin.email, app.admin.password)).code).toBe("TOO_MANY_REQUESTS");
  });

  it("should not let a forged X-Forwarded-For give each guess an address of its own", async () => {
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        i % 2 === 0
          ? restLogin(app, buildUser().email, `forkert-${i}`, { "x-forwarded-for": `10.0.0.${i + 1}` })
          : gqlLogin(app, buildUser().email, `forkert-${i}`),
      ),
    );
    expectAtMostChecked(answers, LIMIT);
  });
});

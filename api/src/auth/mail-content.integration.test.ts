/**
 * What a stranger can put into a mail the app sends. Anyone may register any free address on the allowed
 * domain, so the registrant's "name" would reach that address's owner in an official mail from the app: a
 * phishing text ("Din konto lukkes, log ind på …"). A mail names its reader only once the address is verified,
 * and a name is one line of visible text (no line breaks, control or bidi-override characters) everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { buildUser, createVerifiedUser, gql, rest } from "../testing/client";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const LURE = "Din konto lukkes i dag – log ind på evil.example";

describe("mails to an address nobody has verified", () => {
  it("should not carry the registrant's name in the verification mail, nor in its resend", async () => {
    const input = buildUser({ name: LURE });
    expect((await rest(app, "POST", "/api/auth/register", { body: input })).status).toBe(201);
    const first = await app.mail.waitFor(input.email);
    expect(first.text).toContain("/verify-email?token=");
    expect(first.raw).not.toContain("evil.example");
    expect(first.text).not.toContain("evil.example");

    expect(
      (await rest(app, "POST", "/api/resend-verification", { body: { email: input.email } })).status,
    ).toBe(200);
    const again = await app.mail.waitFor(input.email);
    expect(again.text).toContain("/verify-email?token=");
    expect(again.text).not.toContain("evil.example");
  });

  it("should not carry an unverified account's name in a reset mail", async () => {
    const input = buildUser({ name: LURE });
    expect((await rest(app, "POST", "/api/auth/register", { body: input })).status).toBe(201);
    await app.mail.waitFor(input.email);
    expect(
      (await rest(app, "POST", "/api/auth/forgot-password", { body: { email: input.email } })).status,
    ).toBe(200);
    const reset = await app.mail.waitFor(input.email);
    expect(reset.text).toContain("/reset-password?token=");
    expect(reset.text).not.toContain("evil.example");
  });

  it("should greet a verified account's owner by the name they chose", async () => {
    const { input: user } = await createVerifiedUser(app, { name: "Karen Blixen" });
    expect(
      (await rest(app, "POST", "/api/auth/forgot-password", { body: { email: user.email } })).status,
    ).toBe(200);
    const reset = await app.mail.waitFor(user.email);
    expect(reset.text).toContain("Hej Karen Blixen");
  });
});

describe("a name is one line of visible text", () => {
  it.each([
    ["a line break", "Ole\n\nDin konto lukkes"],
    ["a tab", "Ole\tHansen"],
    ["a right-to-left override", "Ole \u202Egnirts"],
    ["a NUL", "Ole\u0000Hansen"],
  ])("should refuse %s in the name at registration, over REST and GraphQL", async (_what, name) => {
    const input = buildUser({ name });
    const res = await rest(app, "POST", "/api/auth/register", { body: input });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "BAD_USER_INPUT",
      fields: [{ field: "name", message: "Navn må ikke indeholde linjeskift eller usynlige styretegn" }],
    });
    const viaGraphql = await gql(app, "mutation($i: RegisterInput!) { register(input: $i) { message } }", {
      i: buildUser({ name }),
    });
    expect(viaGraphql.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT" });
    expect(app.mail.messages.some((m) => m.to.includes(input.email))).toBe(false);
  });

  it("should accept letters of any language, hyphens, apostrophes and one space between names", async () => {
    const input = buildUser({ name: "Søren Kierkegaard-O'Brien Ærø Åge Ünal Łukasz" });
    expect((await rest(app, "POST", "/api/auth/register", { body: input })).status).toBe(201);
  });
});

/**
 * ENV_BADGE_USERNAME names the one user who sees the host's details: nobody may sign up as it. Registration
 * refuses it exactly as a taken username (same status, code and message: the answer does not say why); the CLI
 * (UsersService.createUser) creates it.
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { buildUser, gql, rest } from "../testing/client";

const BADGE = "driftsbruger";
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ mail: "outbox", config: { envBadgeUsername: BADGE } });
});
afterAll(async () => {
  await app?.close();
});

const register = (body: object) => rest(app, "POST", "/api/auth/register", { body });
const users = () => mongoose.connection.collection("users");

describe("the ENV_BADGE_USERNAME username", () => {
  it("should refuse signing up as it over GraphQL and REST exactly as a taken username, in any case", async () => {
    const doc = "mutation($input: RegisterInput!) { register(input: $input) { verificationRequired } }";
    const taken = buildUser();
    expect((await register(taken)).status).toBe(201);
    const takenGql = (await gql(app, doc, { input: buildUser({ username: taken.username }) })).errors?.[0];
    const badgeGql = (await gql(app, doc, { input: buildUser({ username: BADGE }) })).errors?.[0];
    expect(badgeGql?.message).toBe("Brugernavnet er allerede taget");
    expect(badgeGql?.message).toBe(takenGql?.message);
    expect(badgeGql?.extensions).toEqual(takenGql?.extensions);
    const takenRest = await register(buildUser({ username: taken.username }));
    expect(takenRest.status).toBe(409);
    for (const username of [BADGE, "DriftsBruger"]) {
      const input = buildUser({ username });
      const res = await register(input);
      expect({ status: res.status, body: res.body }).toEqual({ status: 409, body: takenRest.body });
      expect(await users().countDocuments({ email: input.email })).toBe(0);
    }
    expect(await users().countDocuments({ usernameKey: BADGE })).toBe(0);
  });

  it("should let the CLI create it, and the badge user then sees the environment", async () => {
    const input = buildUser({ username: BADGE });
    const admin = (await app.services.users.builtinAdmin()).user;
    await app.services.users.createUser(admin, input, { via: "cli" });
    const login = await rest(app, "POST", "/api/auth/login", {
      body: { email: input.email, password: input.password },
    });
    expect(login.status).toBe(200);
    expect((await rest(app, "GET", "/api/environment", { token: login.body.token })).status).toBe(200);
  });
});

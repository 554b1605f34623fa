/**
 * A chat operation reads the signed-in user's id from the auth cache's identity: no user document is made for it
 * (a mongoose document per question cost ~0.17 ms of the send path's CPU before the model request, issue 16).
 * Over the whole server (retrieval-only, the sample content); the real hydrate runs, it is only counted.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser } from "../testing/client";
import { UserModel } from "../users/user.model";
import { gqlOk, Q } from "./chat.test-helpers";

let app: TestApp;
let alice: { token: string; user: { id: string } };

beforeAll(async () => {
  app = await startTestApp();
  alice = await createVerifiedUser(app);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await app?.services.chat.whenIdle();
  await app?.close();
});

describe("chat operations and the user document", () => {
  it("should create a session, send a question and list sessions as the signed-in user without making a user document", async () => {
    const hydrate = vi.spyOn(UserModel, "hydrate");
    const sessionId = (await gqlOk(app, Q.create, {}, alice.token)).createSession.sessionId;
    const sent = await gqlOk(
      app,
      Q.send,
      { sessionId, content: "Hvad er fristen for at klage?" },
      alice.token,
    );
    expect(sent.sendMessage.session.sessionId).toBe(sessionId);
    await app.services.chat.whenIdle();
    const sessions = (await gqlOk(app, Q.sessions, {}, alice.token)).sessions as Array<{ sessionId: string }>;
    expect(sessions.map((s) => s.sessionId)).toContain(sessionId);
    expect(hydrate).not.toHaveBeenCalled();
  });
});

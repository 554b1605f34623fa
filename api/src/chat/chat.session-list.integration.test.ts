/**
 * A user's session list is bounded. Nothing bounds how many sessions a user creates (a script made 5,000 in 35 s
 * against the running app), and the list read, presented and sent all of them on every `sessions` query the chat
 * page makes: ~0.3–0.5 s of the server's time per query at 5,000 (load 5.7), growing with the count. The list is
 * the newest SESSIONS_LISTED_MAX (the size the result-cost estimate plans for), over GraphQL, REST and search.
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, rest } from "../testing/client";
import { ChatSessionModel } from "./chat.model";
import { SESSIONS_LISTED_MAX } from "./chat.sessions";

let app: TestApp;
let user: { token: string; user: { id: string } };
const EXTRA = 5;

beforeAll(async () => {
  app = await startTestApp({ mail: "outbox" });
  user = await createVerifiedUser(app);
  // straight into the store: creating them one by one over the API is what the bound is about, not what it tests
  const base = Date.UTC(2026, 0, 1);
  await ChatSessionModel.insertMany(
    Array.from({ length: SESSIONS_LISTED_MAX + EXTRA }, (_, i) => ({
      userId: new mongoose.Types.ObjectId(user.user.id),
      sessionId: `bulk-${String(i).padStart(4, "0")}`,
      title: `Samtale om klagefrister ${i}`,
      titled: true,
      hasMessages: false,
      createdAt: new Date(base + i * 60_000),
      lastUpdated: new Date(base + i * 60_000),
    })),
  );
});
afterAll(async () => {
  await app?.close();
});

const newest = `bulk-${String(SESSIONS_LISTED_MAX + EXTRA - 1).padStart(4, "0")}`;
const oldestListed = `bulk-${String(EXTRA).padStart(4, "0")}`;

describe("a user with more sessions than the list holds", () => {
  it("should list the newest SESSIONS_LISTED_MAX over GraphQL", async () => {
    const res = await gql(app, "{ sessions { sessionId } }", {}, user.token);
    const ids = ((res.data?.sessions ?? []) as Array<{ sessionId: string }>).map((s) => s.sessionId);
    expect(ids).toHaveLength(SESSIONS_LISTED_MAX);
    expect(ids[0]).toBe(newest);
    expect(ids.at(-1)).toBe(oldestListed);
  });

  it("should list the newest SESSIONS_LISTED_MAX over REST", async () => {
    const res = await rest(app, "GET", "/api/chat/sessions", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(SESSIONS_LISTED_MAX);
    expect(res.body[0].session_id).toBe(newest);
  });

  it("should find at most SESSIONS_LISTED_MAX sessions, newest first", async () => {
    const res = await gql(
      app,
      "query($q: String!) { searchSessions(query: $q) { sessionId } }",
      { q: "klagefrister" },
      user.token,
    );
    const ids = ((res.data?.searchSessions ?? []) as Array<{ sessionId: string }>).map((s) => s.sessionId);
    expect(ids).toHaveLength(SESSIONS_LISTED_MAX);
    expect(ids[0]).toBe(newest);
  });

  it("should still open a session older than the list by its id", async () => {
    const res = await gql(
      app,
      "query($s: ID!) { exportSession(sessionId: $s) }",
      { s: "bulk-0000" },
      user.token,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.exportSession).toContain("Samtale om klagefrister 0");
  });
});

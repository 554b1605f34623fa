/**
 * The chat's bounds across processes: two app processes (A and B) on one embedded store in its own process, as
 * `npm run start:cluster` runs them. Sessions per user and messages per session are counted in the store, so
 * creations and questions arriving at once through both processes never pass the cap (chat.session-count.ts,
 * chat.message-count.ts). Small caps (4 sessions, 4 messages); answers from retrieval (no model).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql, rest } from "../testing/client";
import { type Child, gqlUrl, startAppPair, startStoreProcess } from "../testing/processes";
import { gqlOk, Q } from "./chat.test-helpers";

const ADMIN = { email: "admin@minksekretariatet.dk", password: "cluster-admin-password" };
const SESSIONS = 4;
const MESSAGES = 4;
let store: Child;
let a: Child & { url: string };
let b: Child & { url: string };
let tokenA: string;
let tokenB: string;

async function login(app: { url: string }): Promise<string> {
  const res = await rest(app, "POST", "/api/auth/login", { body: ADMIN });
  if (res.status !== 200) throw new Error(`login ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

beforeAll(async () => {
  store = await startStoreProcess();
  [a, b] = await startAppPair(store.first, ADMIN.password, {
    CHAT_LIMITS: JSON.stringify({
      sessionsPerUser: SESSIONS,
      messagesPerSession: MESSAGES,
      maxInFlightPerUser: 8,
    }),
  });
  [tokenA, tokenB] = await Promise.all([login(a), login(b)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await store?.stop();
}, 30_000);

const codeOf = (r: { errors?: Array<{ extensions?: Record<string, unknown> }> }) =>
  (r.errors?.[0]?.extensions?.code as string | undefined) ?? "OK";

describe("chat bounds across two processes", () => {
  it("should let exactly the cap of sessions through when both processes create at once", async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        gql(i % 2 ? gqlUrl(b) : gqlUrl(a), Q.create, {}, i % 2 ? tokenB : tokenA).then(codeOf),
      ),
    );
    expect(answers.filter((c) => c === "OK")).toHaveLength(SESSIONS);
    expect(answers.filter((c) => c === "CHAT_SESSION_LIMIT")).toHaveLength(10 - SESSIONS);
    const { sessions } = await gqlOk(gqlUrl(b), Q.sessions, {}, tokenB);
    expect(sessions).toHaveLength(SESSIONS);
  });

  it("should let one of two questions sent at once through A and B into the last places through", async () => {
    // a place for a session: the first test filled them
    const { sessions } = await gqlOk(gqlUrl(a), Q.sessions, {}, tokenA);
    const sessionId = sessions[0].sessionId as string;
    expect(
      codeOf(await gql(gqlUrl(a), Q.send, { sessionId, content: "Hvem attesterer udlæg?" }, tokenA)),
    ).toBe("OK");
    const answers = await Promise.all([
      gql(gqlUrl(a), Q.send, { sessionId, content: "Og rejser?" }, tokenA).then(codeOf),
      gql(gqlUrl(b), Q.send, { sessionId, content: "Og kørsel?" }, tokenB).then(codeOf),
    ]);
    expect(answers.sort()).toEqual(["CHAT_SESSION_FULL", "OK"]);
    // every message stored, no more than the cap (each answer listed once it is done)
    await expect
      .poll(
        async () => {
          const { messages } = await gqlOk(gqlUrl(b), Q.messages, { sessionId }, tokenB);
          return messages.filter(
            (m: { status: string | null }) => m.status !== "pending" && m.status !== "streaming",
          ).length;
        },
        { timeout: 15_000 },
      )
      .toBe(MESSAGES);
  });
});

/**
 * Two app processes (A and B) on one embedded store run in its own process. A writes a session's answer events
 * for other processes only while one of them listens to it (events/listeners.ts): a browser that subscribes
 * on B while A is streaming an answer nobody on B followed gets the whole answer, in order (chat.catch-up.ts):
 * the answer so far first, then the rest. Its CREATED says where the answer's question hangs, so a client that
 * does not show that branch (a page loaded after the user left it) keeps it out (web lib/messages.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventCollector, gqlOk, Q, wsClient } from "../chat/chat.test-helpers";
import { rest } from "../testing/client";
import { type FakeOpenAI, startFakeOpenAI } from "../testing/fake-openai";
import { type Child, gqlUrl, startAppPair, startStoreProcess, wsUrl } from "../testing/processes";

const PASSWORD = "cluster-admin-password";
const EMAIL = "admin@minksekretariatet.dk";
const REPLY = "Klagefristen er fire uger fra afgørelsen, og klagen sendes til sekretariatet skriftligt [1].";

let store: Child;
let a: Child & { url: string };
let b: Child & { url: string };
let llm: FakeOpenAI;

beforeAll(async () => {
  // ~20 tokens, 80 ms apart: B subscribes while A is in the middle of it
  llm = await startFakeOpenAI({ reply: REPLY, tokenDelayMs: 80 });
  store = await startStoreProcess();
  [a, b] = await startAppPair(store.first, PASSWORD, { OPENAI_BASE_URL: llm.baseURL });
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await store?.stop();
  await llm?.close();
}, 30_000);

/** Signs in on A, opens a session there and a websocket on each process; `asker` follows the session on A. */
async function askerOnA(title: string) {
  const login = await rest(a, "POST", "/api/auth/login", { body: { email: EMAIL, password: PASSWORD } });
  expect(login.status).toBe(200);
  const token = login.body.token as string;
  const { createSession } = await gqlOk(gqlUrl(a), Q.create, { title }, token);
  const sessionId = createSession.sessionId as string;
  const onA = wsClient(wsUrl(a), token);
  const onB = wsClient(wsUrl(b), token);
  return { token, sessionId, onA, onB, asker: new EventCollector(onA, sessionId) };
}

describe("a subscriber on another process appearing mid-answer", () => {
  it("gets the answer so far, then every later token, in order", async () => {
    // the asking browser follows the answer on A itself: nothing of it is written for B
    const { token, sessionId, onA, onB, asker } = await askerOnA("Sent lytter");
    let late: EventCollector | null = null;
    try {
      await new Promise((r) => setTimeout(r, 300)); // the subscription is registered on A
      const sent = await gqlOk(gqlUrl(a), Q.send, { sessionId, content: "Hvad er klagefristen?" }, token);
      const id = sent.sendMessage.assistantMessage.id as string;
      await asker.until(
        (ev) => ev.filter((e) => e.messageId === id && e.type === "DELTA").length >= 4,
        20_000,
      );

      late = new EventCollector(onB, sessionId);
      await late.untilEnded(id, 20_000);
      const mine = late.events.filter((e) => e.messageId === id);
      const done = mine.find((e) => e.type === "COMPLETED");
      expect(done?.message.content).toBe(REPLY);
      // it starts from the message, not from the middle of it
      expect(mine[0]?.type).toBe("CREATED");
      const deltas = mine.filter((e) => e.type === "DELTA");
      expect(deltas.map((d) => d.delta).join("")).toBe(REPLY);
      // and it did arrive while the answer was streaming: later tokens came one by one
      expect(deltas.length).toBeGreaterThan(2);
    } finally {
      asker.close();
      late?.close();
      await Promise.all([onA.dispose(), onB.dispose()]);
    }
  }, 60_000);

  it("tells where a caught-up answer's question hangs, so a page that does not show it can keep it out", async () => {
    const { token, sessionId, onA, onB, asker } = await askerOnA("Skjult gren");
    let late: EventCollector | null = null;
    try {
      await new Promise((r) => setTimeout(r, 300));
      // q1 answered, then edited (q1b, answered a1b), then a follow-up q2 under a1b whose answer a2 streams
      const first = await gqlOk(gqlUrl(a), Q.send, { sessionId, content: "Hvad er klagefristen?" }, token);
      const q1 = first.sendMessage.userMessage.id as string;
      const a1 = first.sendMessage.assistantMessage.id as string;
      await asker.untilEnded(a1, 20_000);
      const edit = await gqlOk(
        gqlUrl(a),
        Q.edit,
        { messageId: q1, content: "Hvornår skal jeg klage?" },
        token,
      );
      const a1b = edit.editMessage.assistantMessage.id as string;
      await asker.untilEnded(a1b, 20_000);
      const follow = await gqlOk(gqlUrl(a), Q.send, { sessionId, content: "Og hvem klager jeg til?" }, token);
      const a2 = follow.sendMessage.assistantMessage.id as string;
      await asker.until(
        (ev) => ev.filter((e) => e.messageId === a2 && e.type === "DELTA").length >= 2,
        20_000,
      );
      // "‹" on the question: q1's branch is shown again while a2 still streams; a reloaded page is that branch
      await gqlOk(gqlUrl(b), Q.switchBranch, { messageId: q1 }, token);
      const page = (await gqlOk(gqlUrl(b), Q.branch, { sessionId }, token)).messages as {
        id: string;
        parentId: string | null;
      }[];
      expect(page.map((m) => m.id)).toEqual([q1, a1]);

      late = new EventCollector(onB, sessionId);
      await late.untilEnded(a2, 20_000);
      const created = late.events.find((e) => e.messageId === a2 && e.type === "CREATED");
      // the catch-up's CREATED: a2's question hangs under a1b, neither listed nor the parent of a listed message
      expect(created?.questionParentId).toBe(a1b);
      expect(page.some((m) => m.id === a1b || m.parentId === a1b)).toBe(false);
      // live on A too: a first question's answer says null, the follow-up's its question's parent
      const createdOnA = (id: string) => asker.events.find((e) => e.messageId === id && e.type === "CREATED");
      expect(createdOnA(a1)?.questionParentId).toBeNull();
      expect(createdOnA(a2)?.questionParentId).toBe(a1b);
    } finally {
      asker.close();
      late?.close();
      await Promise.all([onA.dispose(), onB.dispose()]);
    }
  }, 90_000);
});

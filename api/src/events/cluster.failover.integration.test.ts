/**
 * Two app processes (A and B) on one embedded store run in its own process; B is killed (SIGKILL) while
 * answers are generating. Its subscribers reconnect to A as the web client does (subscribe again, then refetch
 * the session's messages) and miss no finished answer: one that finished on B just before, one generating on
 * A, and one that was generating on B itself (lost with B: it must end as a retryable error the client sees,
 * never 'streaming' forever).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatEvent, EventCollector, gqlOk, Q, wsClient } from "../chat/chat.test-helpers";
import { rest } from "../testing/client";
import { type FakeOpenAI, startFakeOpenAI } from "../testing/fake-openai";
import { type Child, gqlUrl, startAppPair, startStoreProcess, wsUrl } from "../testing/processes";

const PASSWORD = "cluster-admin-password";
const EMAIL = "admin@minksekretariatet.dk";
const REPLY = "Klagefristen er fire uger fra afgørelsen, og klagen sendes til sekretariatet skriftligt [1].";
/** short crash detection, so the test does not wait the default 30 s */
const CHAT_LIMITS = { staleAfterMs: 4_000, heartbeatMs: 500, maxInFlightPerUser: 4 };

let store: Child;
let a: Child & { url: string };
let b: Child & { url: string };
let llm: FakeOpenAI;

// biome-ignore lint/suspicious/noExplicitAny: messages as the test asked for them
type Message = any;

async function assistantOf(app: { url: string }, sessionId: string, token: string): Promise<Message> {
  const { messages } = await gqlOk(gqlUrl(app), Q.messages, { sessionId }, token);
  return (messages as Message[]).filter((m) => m.role === "assistant").at(-1);
}

/** The final state of an answer as a reconnected client knows it: the refetched message, else its end event. */
async function outcome(
  refetched: Message,
  events: EventCollector,
  timeoutMs: number,
): Promise<{ status: string; content: string; error: Message }> {
  if (!["pending", "streaming"].includes(refetched.status)) return refetched;
  await events.untilEnded(refetched.id, timeoutMs);
  const end = events.events.find(
    (e: ChatEvent) => e.messageId === refetched.id && ["COMPLETED", "STOPPED", "ERROR"].includes(e.type),
  );
  return end?.message;
}

beforeAll(async () => {
  llm = await startFakeOpenAI({ reply: REPLY, tokenDelayMs: 5 });
  store = await startStoreProcess();
  [a, b] = await startAppPair(store.first, PASSWORD, {
    OPENAI_BASE_URL: llm.baseURL,
    CHAT_LIMITS: JSON.stringify(CHAT_LIMITS),
  });
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await store?.stop();
  await llm?.close();
}, 30_000);

describe("a killed process", () => {
  it("B's subscribers reconnect to A and miss no finished answer; B's own answer ends as an error", async () => {
    const login = await rest(a, "POST", "/api/auth/login", { body: { email: EMAIL, password: PASSWORD } });
    expect(login.status).toBe(200);
    const token = login.body.token as string;
    const session = async (title: string) =>
      (await gqlOk(gqlUrl(a), Q.create, { title }, token)).createSession.sessionId as string;
    const [done, onA, onB] = [await session("Færdig"), await session("På A"), await session("På B")];
    const send = (app: { url: string }, sessionId: string) =>
      gqlOk(gqlUrl(app), Q.send, { sessionId, content: "Hvad er klagefristen?" }, token);

    // the client is connected to B and follows its three sessions there
    const onBClient = wsClient(wsUrl(b), token);
    const before = [done, onA, onB].map((s) => new EventCollector(onBClient, s));
    await new Promise((r) => setTimeout(r, 300)); // the subscriptions are registered on B

    // one answer finishes on B just before B dies
    const finished = (await send(b, done)).sendMessage.assistantMessage.id as string;
    await before[0].untilEnded(finished, 20_000);

    // two answers generating when B dies: one on A, one on B (slow tokens: ~6 s each)
    llm.setBehaviour({ tokenDelayMs: 200 });
    const genA = (await send(a, onA)).sendMessage.assistantMessage.id as string;
    const genB = (await send(b, onB)).sendMessage.assistantMessage.id as string;
    const deltaOf = (id: string) => (ev: ChatEvent[]) =>
      ev.some((e) => e.messageId === id && e.type === "DELTA");
    await before[1].until(deltaOf(genA), 20_000);
    await before[2].until(deltaOf(genB), 20_000);
    await new Promise((r) => setTimeout(r, 700)); // B's answer has saved some text (heartbeat)

    const exited = new Promise((r) => b.process.once("exit", r));
    b.process.kill("SIGKILL");
    await exited;
    const killedAt = Date.now();
    for (const c of before) c.close();
    await onBClient.dispose();

    // reconnect to A as the web client does: subscribe again, then refetch the messages
    const onAClient = wsClient(wsUrl(a), token);
    try {
      const after = [done, onA, onB].map((s) => new EventCollector(onAClient, s));
      await new Promise((r) => setTimeout(r, 300));
      const refetched = await Promise.all([done, onA, onB].map((s) => assistantOf(a, s, token)));
      expect(refetched.map((m) => m.id)).toEqual([finished, genA, genB]);

      // finished before the crash: complete, whole
      expect(refetched[0]).toMatchObject({ status: "complete", content: REPLY });
      // generating on A: finishes, and the reconnected client gets all of it
      const a1 = await outcome(refetched[1], after[1], 30_000);
      expect(a1).toMatchObject({ status: "complete", content: REPLY });
      // generating on B: lost with B; the client sees it end as a retryable error (not streaming forever)
      const b1 = await outcome(refetched[2], after[2], 3 * CHAT_LIMITS.staleAfterMs + 10_000);
      expect(b1).toMatchObject({ status: "error", error: { code: "INTERRUPTED", retryable: true } });
      expect(REPLY.startsWith(b1.content)).toBe(true);
      expect(Date.now() - killedAt).toBeLessThan(3 * CHAT_LIMITS.staleAfterMs + 10_000);

      // and the store agrees: nothing left in progress; the interrupted answer can be retried on A
      const final = await Promise.all([done, onA, onB].map((s) => assistantOf(a, s, token)));
      expect(final.map((m) => m.status)).toEqual(["complete", "complete", "error"]);
      llm.setBehaviour({ tokenDelayMs: 5 });
      await gqlOk(gqlUrl(a), Q.retry, { messageId: genB }, token);
      await after[2].until((ev) => ev.some((e) => e.messageId === genB && e.type === "COMPLETED"), 20_000);
      expect(await assistantOf(a, onB, token)).toMatchObject({ status: "complete", content: REPLY });
      for (const c of after) c.close();
    } finally {
      await onAClient.dispose();
    }
  }, 120_000);
});

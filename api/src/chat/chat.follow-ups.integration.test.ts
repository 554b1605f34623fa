/**
 * Model-written follow-up questions over the whole server (startTestApp) and the fake OpenAI server through the
 * real SDK: the answer completes with the heading-based questions (COMPLETED, not delayed by the model), then
 * the model's replace them (stored, and an UPDATED event to the owner); on a model error, a timeout or an
 * unusable reply the heading-based ones stay; a message deleted meanwhile gets nothing; retrieval-only mode
 * asks no model.
 */
import type { Client } from "graphql-ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser } from "../testing/client";
import { type FakeChatRequest, type FakeOpenAI, startFakeOpenAI } from "../testing/fake-openai";
import { ChatMessageModel } from "./chat.model";
import {
  type ChatEvent,
  EventCollector,
  eventually,
  gqlOk,
  Q,
  sampleArticleId,
  wsClient,
} from "./chat.test-helpers";

const QUESTION = "Hvad er klagefristen for en afgørelse?";
const ANSWER = "Klagefristen er fire uger fra den dag, afgørelsen er modtaget [1].";
const WRITTEN = ["Hvem behandler klagen?", "Kan en afgørelse genoptages?", "Hvad sker der efter fristen?"];
/** the app's time limit for the follow-up call in these tests */
const FOLLOW_UPS_TIMEOUT_MS = 1_500;

function scripted(req: FakeChatRequest): string {
  return req.stream ? ANSWER : "Klagefrist";
}

let fake: FakeOpenAI;
let app: TestApp;
let alice: { token: string; user: { id: string } };
const clients: Client[] = [];
let klagerId: string;

/** A new session of alice's with its events followed, and her question sent; the answer's id. */
async function ask(target: TestApp = app, token = alice.token) {
  const sessionId = (await gqlOk(target, Q.create, {}, token)).createSession.sessionId;
  const client = wsClient(target, token);
  clients.push(client);
  const events = new EventCollector(client, sessionId);
  await new Promise((r) => setTimeout(r, 100)); // the subscription is set up asynchronously
  const sentAt = performance.now();
  const sent = (await gqlOk(target, Q.send, { sessionId, content: QUESTION }, token)).sendMessage;
  const id: string = sent.assistantMessage.id;
  await events.untilEnded(id);
  const completed = events.events.find((e) => e.messageId === id && e.type === "COMPLETED");
  if (!completed) throw new Error(`not completed: ${events.events.map((e) => e.type).join(",")}`);
  return { sessionId, id, events, completed, sentAt };
}

const updates = <E extends ChatEvent>(events: E[], id: string) =>
  events.filter((e) => e.messageId === id && e.type === "UPDATED");

async function storedFollowUps(id: string): Promise<string[]> {
  return [...((await ChatMessageModel.findById(id).lean())?.followUps ?? [])];
}

describe("chat: model-written follow-ups", () => {
  beforeAll(async () => {
    fake = await startFakeOpenAI({ reply: scripted, apiKey: "sk-test" });
    app = await startTestApp({
      mail: "outbox",
      config: {
        openaiBaseUrl: fake.baseURL,
        openaiApiKey: "sk-test",
        openaiModel: "fake-model",
        chatLimits: {
          llmTimeoutMs: 4_000,
          llmFirstTokenTimeoutMs: 2_000,
          llmMaxRetries: 0,
          heartbeatMs: 200,
          followUpsTimeoutMs: FOLLOW_UPS_TIMEOUT_MS,
        },
      },
    });
    alice = await createVerifiedUser(app);
    klagerId = await sampleArticleId(app, "sagsbehandling/klager-over-afgoerelser.md");
  });
  afterEach(async () => {
    await app.services.chat.whenIdle();
    fake.reset();
    fake.requests.length = 0;
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await app?.services.chat.whenIdle();
    await app?.close();
    await fake?.close();
  });

  it("should complete with the heading-based ones, then store and deliver the model's (UPDATED)", async () => {
    fake.setFollowUps({ reply: `${WRITTEN.join("\n")}\nEn fjerde?`, delayMs: 200 });
    const { id, events, completed } = await ask();
    // COMPLETED carries the heading-based questions
    const headingBased: string[] = completed.message.followUps;
    expect(headingBased.length).toBeGreaterThan(0);
    expect(headingBased.every((q) => q.endsWith("?"))).toBe(true);
    // then the model's replace them: one UPDATED event with the stored message
    await events.until((list) => updates(list, id).length > 0);
    const [update] = updates(events.events, id);
    expect(update?.message).toMatchObject({ id, status: "complete", content: ANSWER, followUps: WRITTEN });
    expect(await storedFollowUps(id)).toEqual(WRITTEN);
    // the model was asked once, with the cited article's title and headings
    const [req] = fake.followUpRequests();
    expect(fake.followUpRequests()).toHaveLength(1);
    const material: string = req?.body.messages[1].content;
    expect(material).toContain(QUESTION);
    expect(material).toContain(completed.message.citations[0].title);
    expect(completed.message.citations[0].articleId).toBe(klagerId);
    const headingOf = (q: string) =>
      q
        .replace(/^Hvad står der om /, "")
        .replace(/\?$/, "")
        .slice(1);
    for (const q of headingBased) expect(material.toLowerCase()).toContain(headingOf(q).toLowerCase());
    await app.services.chat.whenIdle();
    expect(updates(events.events, id)).toHaveLength(1);
    events.close();
  });

  it("should not delay the answer: COMPLETED comes while the model still writes, and the slot is free", async () => {
    const delayMs = 1_000;
    fake.setFollowUps({ reply: WRITTEN.join("\n"), delayMs });
    const { id, events, completed, sentAt } = await ask();
    // the follow-up request is out, not answered yet, and the answer is done: no answer in flight any more
    expect(app.services.chat.inFlightCount(alice.user.id)).toBe(0);
    await eventually(async () => (fake.followUpRequests().length === 1 ? true : undefined));
    expect(updates(events.events, id)).toHaveLength(0);
    await events.until((list) => updates(list, id).length > 0);
    const update = updates(events.events, id)[0];
    if (!update) throw new Error("no UPDATED");
    expect(update.at - completed.at).toBeGreaterThanOrEqual(delayMs * 0.8);
    expect(completed.at - sentAt).toBeLessThan(update.at - sentAt);
    events.close();
  });

  for (const [name, script] of [
    ["a model error", { failure: { type: "http", status: 500 } }],
    ["a timeout", { reply: WRITTEN.join("\n"), delayMs: FOLLOW_UPS_TIMEOUT_MS + 2_000 }],
    ["an unusable reply", { reply: "<b>Klagefrist</b>\n[Se mere](https://example.org)\nIngen forslag." }],
  ] as const) {
    it(`should keep the heading-based ones on ${name}`, async () => {
      fake.setFollowUps(script);
      const { id, events, completed } = await ask();
      const t0 = Date.now();
      await app.services.chat.whenIdle(); // the follow-up call is over (or timed out)
      expect(Date.now() - t0).toBeLessThan(FOLLOW_UPS_TIMEOUT_MS + 1_000);
      expect(fake.followUpRequests().length).toBeGreaterThan(0);
      expect(completed.message.followUps.length).toBeGreaterThan(0);
      expect(await storedFollowUps(id)).toEqual(completed.message.followUps);
      expect(updates(events.events, id)).toHaveLength(0);
      events.close();
    });
  }

  it("should write nothing to an answer deleted while the model writes", async () => {
    fake.setFollowUps({ reply: WRITTEN.join("\n"), delayMs: 600 });
    const { sessionId, id, events } = await ask();
    await gqlOk(app, Q.delete, { sessionId }, alice.token);
    await app.services.chat.whenIdle();
    expect(fake.followUpRequests()).toHaveLength(1);
    expect(await ChatMessageModel.findById(id).lean()).toBeNull();
    expect(updates(events.events, id)).toHaveLength(0);
    events.close();
  });
});

describe("chat: follow-ups without a model", () => {
  it("should keep the heading-based ones in retrieval-only mode (no model: no UPDATED)", async () => {
    // (one test app at a time in a process: the one with a model closed after its tests above)
    const retrievalApp = await startTestApp({ mail: "outbox" });
    try {
      expect(retrievalApp.services.chat.mode).toBe("retrieval");
      const bob = await createVerifiedUser(retrievalApp);
      const { id, events, completed } = await ask(retrievalApp, bob.token);
      await retrievalApp.services.chat.whenIdle();
      expect(completed.message.mode).toBe("retrieval");
      expect(completed.message.followUps.length).toBeGreaterThan(0);
      expect([...((await ChatMessageModel.findById(id).lean())?.followUps ?? [])]).toEqual(
        completed.message.followUps,
      );
      expect(updates(events.events, id)).toHaveLength(0);
      events.close();
    } finally {
      await retrievalApp.services.chat.whenIdle();
      await retrievalApp.close();
    }
  });
});

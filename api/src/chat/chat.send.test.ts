import { formatMessage } from "@vidensbank/shared";
/**
 * Sending, retrying, stopping and feedback over a private embedded store, with the real runner and the fake
 * OpenAI server behind the real openai SDK.
 */
import mongoose from "mongoose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ActivityModel } from "../activity/activity.model";
import { createInProcessBus } from "../events/in-process";
import { type FakeChatRequest, type FakeOpenAI, startFakeOpenAI } from "../testing/fake-openai";
import type { Passage } from "./answer";
import { ChatUserCache } from "./chat.cache";
import { type ChatLimits, DEFAULT_CHAT_LIMITS } from "./chat.limits";
import { ChatMessageModel, ChatSessionModel } from "./chat.model";
import { AnswerRunner } from "./chat.runner";
import { ChatSender } from "./chat.send";
import { llmFromConfig } from "./chat.service";
import { ChatSessions } from "./chat.sessions";
import { codeOf, eventually, openTestStore } from "./chat.test-helpers";

const ANSWER = "Klagefristen er fire uger [1].";
const TITLE = "Klagefrist";
const PASSAGE: Passage = {
  articleId: "klager",
  title: "Klager over afgørelser",
  headingPath: ["Klagefrist"],
  text: "Klagefristen er fire uger fra den dag, afgørelsen er modtaget.",
  score: 0.9,
};

let store: Awaited<ReturnType<typeof openTestStore>>;
let fake: FakeOpenAI;
const alice = new mongoose.Types.ObjectId().toHexString();
const bob = new mongoose.Types.ObjectId().toHexString();
const users = new ChatUserCache({
  emailOf: async (id) => (id === alice ? "alice@minksekretariatet.dk" : null),
  languageOf: async () => "da",
});
const sessions = new ChatSessions({ emailOf: async () => null, stopAnswersIn: async () => undefined });
const built: Array<{ runner: AnswerRunner; sender: ChatSender }> = [];

beforeAll(async () => {
  fake = await startFakeOpenAI({ reply: (req: FakeChatRequest) => (req.stream ? ANSWER : TITLE) });
  store = await openTestStore({ openaiBaseUrl: fake.baseURL });
});
afterEach(async () => {
  for (const { runner, sender } of built.splice(0)) {
    sender.close();
    await runner.close();
    runner.abortAll();
    await idle({ runner, sender });
  }
  fake.reset();
});
afterAll(async () => {
  await users.close();
  await store?.close();
  await fake?.close();
});

function senderWith(limits: Partial<ChatLimits> = {}) {
  const all = { ...DEFAULT_CHAT_LIMITS, ...limits };
  const llm = llmFromConfig(store.config, all);
  const events = createInProcessBus();
  const runner = new AnswerRunner({ config: store.config, llm, limits: all, events });
  const sender = new ChatSender({ retrieve: async () => [PASSAGE], llm, limits: all, runner, users });
  built.push({ runner, sender });
  return { runner, sender, events };
}

/** Until every answer is stored and every send's bookkeeping done. */
async function idle({ runner, sender }: { runner: AnswerRunner; sender: ChatSender }) {
  for (let w = [...runner.running(), ...sender.pending()]; w.length > 0; ) {
    await Promise.all(w);
    w = [...runner.running(), ...sender.pending()];
  }
}

const newSession = async (userId = alice) => (await sessions.createSession(userId)).sessionId;
const countIn = (sessionId: string) => ChatMessageModel.countDocuments({ sessionId });

describe("ChatSender", () => {
  it("should store the question and a pending answer first, then answer, name the session and log it", async () => {
    fake.setBehaviour({ firstTokenDelayMs: 300 });
    const chat = senderWith();
    const sessionId = await newSession();
    const sent = await chat.sender.sendMessage(alice, sessionId, "  Hvad er klagefristen?  ");
    expect(sent.userMessage).toMatchObject({ role: "user", content: "Hvad er klagefristen?" });
    expect(sent.assistantMessage).toMatchObject({ role: "assistant", status: "pending", mode: "llm" });
    expect(sent.assistantMessage.replyTo).toBe(sent.userMessage.id);
    // the first question named the session at once
    expect(sent.session.title).toBe("Hvad er klagefristen?");
    // both are stored while the model is still thinking
    const early = await ChatMessageModel.findById(sent.assistantMessage.id).lean();
    expect(early).toMatchObject({ status: "pending", worker: chat.runner.workerId });
    expect(await countIn(sessionId)).toBe(2);

    await idle(chat);
    const done = await ChatMessageModel.findById(sent.assistantMessage.id).lean();
    expect(done).toMatchObject({ status: "complete", content: ANSWER, worker: null });
    // the model's title replaced the first words; the activity log got the e-mail from the users directory
    expect((await ChatSessionModel.findOne({ sessionId }).lean())?.title).toBe(TITLE);
    const logged = await ActivityModel.findOne({ action: "message", "metadata.sessionId": sessionId }).lean();
    expect(String(logged?.userId)).toBe(alice);
    expect(logged).toMatchObject({
      userEmail: "alice@minksekretariatet.dk",
      metadata: { messageId: sent.userMessage.id, length: "Hvad er klagefristen?".length },
    });
  });

  it("should refuse a send beyond the slot limit with nothing stored", async () => {
    fake.setBehaviour({ firstTokenDelayMs: 500 });
    const chat = senderWith({ maxInFlightPerUser: 1 });
    const sessionId = await newSession();
    await chat.sender.sendMessage(alice, sessionId, "Første");
    const before = await ChatSessionModel.findOne({ sessionId }).lean();
    const refused = chat.sender.sendMessage(alice, sessionId, "Anden");
    await expect(refused).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS", retryAfter: 5 });
    expect(await countIn(sessionId)).toBe(2);
    // the session is as it was: the shown branch still ends at the first answer, not "used" again
    const after = await ChatSessionModel.findOne({ sessionId }).lean();
    expect(String(after?.activeLeafId)).toBe(String(before?.activeLeafId));
    expect(after?.lastUpdated).toEqual(before?.lastUpdated);
    // another user has slots of their own
    await chat.sender.sendMessage(bob, await newSession(bob), "Bobs spørgsmål");
    await idle(chat);
    await chat.sender.sendMessage(alice, sessionId, "Tredje");
    expect(await countIn(sessionId)).toBe(4);
  });

  it("should give back the slot of a send that failed, and refuse bad input before taking one", async () => {
    const chat = senderWith({ maxInFlightPerUser: 1 });
    for (let i = 0; i < 3; i++) {
      expect(await codeOf(chat.sender.sendMessage(alice, "no-such-session", "Hej"))).toBe("NOT_FOUND");
      expect(await codeOf(chat.sender.sendMessage(alice, await newSession(bob), "Hej"))).toBe("NOT_FOUND");
      expect(await codeOf(chat.sender.sendMessage(alice, "any", "   "))).toBe("BAD_USER_INPUT");
    }
    expect(chat.runner.inFlightCount()).toBe(0);
    const sessionId = await newSession();
    await chat.sender.sendMessage(alice, sessionId, "Nu virker det");
    expect(await countIn(sessionId)).toBe(2);
  });

  it("should ask the model while the question is stored, and stop it with nothing told when the insert fails", async () => {
    fake.setBehaviour({ firstTokenDelayMs: 300 });
    const chat = senderWith({ maxInFlightPerUser: 1 });
    const told: string[] = [];
    const events = chat.events.subscribe("CHAT_MESSAGE_EVENT");
    void (async () => {
      for await (const e of events) told.push(`${e.type} ${e.messageId}`);
    })();
    // a question the store refuses: a unique index that this text breaks
    const index = await ChatMessageModel.collection.createIndex(
      { content: 1 },
      { unique: true, partialFilterExpression: { content: "Dobbelt" }, name: "test_refuse_dobbelt" },
    );
    try {
      await ChatMessageModel.collection.insertOne({ sessionId: "other", content: "Dobbelt" });
      const sessionId = await newSession();
      const asked = fake.chatRequests().length;
      await expect(chat.sender.sendMessage(alice, sessionId, "Dobbelt")).rejects.toThrow(/duplicate key/i);
      expect(await countIn(sessionId)).toBe(0);
      await idle(chat);
      // the request had left (the model is asked beside the insert) and was stopped; nothing was published
      expect(
        fake
          .chatRequests()
          .slice(asked)
          .some((r) => r.body.stream),
      ).toBe(true);
      expect(told).toEqual([]);
      expect(await countIn(sessionId)).toBe(0);
      // the slot was given back
      const sent = await chat.sender.sendMessage(alice, sessionId, "Hvad er klagefristen?");
      await idle(chat);
      expect(told).toContain(`COMPLETED ${sent.assistantMessage.id}`);
      expect(told[0]).toBe(`CREATED ${sent.assistantMessage.id}`);
    } finally {
      await events.return?.();
      await ChatMessageModel.collection.dropIndex(index);
      await ChatMessageModel.collection.deleteMany({ content: "Dobbelt" });
    }
  });

  it("should give the model the earlier turns, leaving out answers that failed", async () => {
    const chat = senderWith();
    const sessionId = await newSession();
    await chat.sender.sendMessage(alice, sessionId, "Hvad er klagefristen?");
    await idle(chat);
    fake.setBehaviour({ failure: { type: "http", status: 400 } });
    const failed = await chat.sender.sendMessage(alice, sessionId, "Og ved aktindsigt?");
    await idle(chat);
    expect((await ChatMessageModel.findById(failed.assistantMessage.id).lean())?.status).toBe("error");
    fake.reset();
    const asked = fake.chatRequests().length;
    await chat.sender.sendMessage(alice, sessionId, "Gælder det også for klager?");
    await idle(chat);
    const request = fake
      .chatRequests()
      .slice(asked)
      .find((r) => r.body.stream);
    // after the system prompt: the earlier turns (citation markers removed), the failed answer left out
    expect(request?.body.messages.slice(1)).toEqual([
      { role: "user", content: "Hvad er klagefristen?" },
      { role: "assistant", content: "Klagefristen er fire uger." },
      { role: "user", content: "Og ved aktindsigt?" },
      { role: "user", content: "Gælder det også for klager?" },
    ]);
  });

  it("should stop an answer of a process that is gone, and leave a finished one as it is", async () => {
    const chat = senderWith();
    const sessionId = await newSession();
    const sent = await chat.sender.sendMessage(alice, sessionId, "Hvad er klagefristen?");
    await idle(chat);
    expect((await chat.sender.stopMessage(alice, sent.assistantMessage.id)).status).toBe("complete");
    // as a crashed process leaves it: generating, by another worker
    await ChatMessageModel.updateOne(
      { _id: sent.assistantMessage.id },
      { $set: { status: "streaming", worker: "gone" } },
    );
    expect(await codeOf(chat.sender.stopMessage(bob, sent.assistantMessage.id))).toBe("NOT_FOUND");
    expect(await codeOf(chat.sender.stopMessage(alice, sent.userMessage.id))).toBe("BAD_USER_INPUT");
    const stopped = await chat.sender.stopMessage(alice, sent.assistantMessage.id);
    expect(stopped).toMatchObject({ status: "stopped", content: ANSWER });
    expect((await ChatMessageModel.findById(sent.assistantMessage.id).lean())?.worker).toBeNull();
  });

  it("should retry only a failed or stopped answer, in place, with its feedback cleared", async () => {
    const chat = senderWith();
    const sessionId = await newSession();
    fake.setBehaviour({ failure: { type: "http", status: 400 } });
    const sent = await chat.sender.sendMessage(alice, sessionId, "Hvad er klagefristen?");
    await idle(chat);
    fake.reset();
    const id = sent.assistantMessage.id;
    await chat.sender.setFeedback(alice, id, "down", "Fejl");
    expect(await codeOf(chat.sender.retryMessage(bob, id))).toBe("NOT_FOUND");
    expect(await codeOf(chat.sender.retryMessage(alice, sent.userMessage.id))).toBe("BAD_USER_INPUT");
    const retried = await chat.sender.retryMessage(alice, id);
    expect(retried).toMatchObject({ id, status: "pending", feedback: null, error: null, content: "" });
    await idle(chat);
    expect(await ChatMessageModel.findById(id).lean()).toMatchObject({ status: "complete", content: ANSWER });
    expect(await countIn(sessionId)).toBe(2);
    const again = chat.sender.retryMessage(alice, id);
    await expect(again).rejects.toMatchObject({
      code: "CONFLICT",
      message: formatMessage("chat.notRetryable"),
    });
  });

  it("should take feedback on the owner's answers only, checking it first", async () => {
    const chat = senderWith();
    const sent = await chat.sender.sendMessage(alice, await newSession(), "Hvad er klagefristen?");
    await idle(chat);
    const id = sent.assistantMessage.id;
    const up = await chat.sender.setFeedback(alice, id, "up", "  Tak  ");
    expect(up.feedback).toMatchObject({ rating: "up", comment: "Tak" });
    expect(await codeOf(chat.sender.setFeedback(bob, id, "down"))).toBe("NOT_FOUND");
    expect(await codeOf(chat.sender.setFeedback(alice, sent.userMessage.id, "up"))).toBe("BAD_USER_INPUT");
    expect(await codeOf(chat.sender.setFeedback(alice, id, "meh"))).toBe("BAD_USER_INPUT");
    expect(await codeOf(chat.sender.setFeedback(alice, id, "down", "x".repeat(2_001)))).toBe(
      "BAD_USER_INPUT",
    );
    expect((await ChatMessageModel.findById(id).lean())?.feedback).toMatchObject({ rating: "up" });
  });

  it("should refuse sends and retries once closing, and stop waiting titles", async () => {
    const chat = senderWith();
    const sessionId = await newSession();
    fake.setBehaviour({ failure: { type: "http", status: 400 } });
    const sent = await chat.sender.sendMessage(alice, sessionId, "Hvad er klagefristen?");
    await idle(chat);
    chat.sender.close();
    const refused = chat.sender.sendMessage(alice, sessionId, "Hej igen");
    await expect(refused).rejects.toMatchObject({
      code: "INTERNAL_SERVER_ERROR",
      message: formatMessage("chat.shuttingDown"),
    });
    const retry = chat.sender.retryMessage(alice, sent.assistantMessage.id);
    await expect(retry).rejects.toMatchObject({ code: "INTERNAL_SERVER_ERROR" });
    expect(await countIn(sessionId)).toBe(2);
    await eventually(async () => (chat.sender.pending().length === 0 ? true : undefined));
  });
});

import { formatMessage } from "@vidensbank/shared";
/**
 * The answer runner over a private embedded store, with the fake OpenAI server behind the real openai SDK: the
 * per-user slot limit, the heartbeat, crash recovery, stopping, events and closing.
 */
import mongoose from "mongoose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AppConfig } from "../config";
import { AppError } from "../errors";
import { createInProcessBus } from "../events/in-process";
import { type FakeOpenAI, startFakeOpenAI } from "../testing/fake-openai";
import type { Passage } from "./answer";
import type { ChatMessageEventPayload } from "./chat.events";
import { type ChatLimits, DEFAULT_CHAT_LIMITS } from "./chat.limits";
import { ChatMessageModel } from "./chat.model";
import { presentMessage } from "./chat.presenter";
import { AnswerRunner } from "./chat.runner";
import { llmFromConfig } from "./chat.service";
import { eventually, openTestStore } from "./chat.test-helpers";

const REPLY = "Klagefristen er fire uger fra modtagelsen af afgørelsen [1]. ".repeat(2).trim();
const PASSAGE: Passage = {
  articleId: "klager",
  title: "Klager over afgørelser",
  headingPath: ["Klagefrist"],
  text: "Klagefristen er fire uger fra den dag, afgørelsen er modtaget.",
  score: 0.9,
};
const retrieve = async () => [PASSAGE];

let store: Awaited<ReturnType<typeof openTestStore>>;
let fake: FakeOpenAI;
let config: AppConfig;
const runners: AnswerRunner[] = [];
const user = new mongoose.Types.ObjectId().toHexString();
const events: ChatMessageEventPayload[] = [];
const bus = createInProcessBus();
const source = bus.subscribe("CHAT_MESSAGE_EVENT");

beforeAll(async () => {
  fake = await startFakeOpenAI({ reply: REPLY, tokenDelayMs: 10 });
  store = await openTestStore({ openaiBaseUrl: fake.baseURL });
  config = store.config;
  void (async () => {
    for (let e = await source.next(); !e.done; e = await source.next()) events.push(e.value);
  })();
});
afterEach(async () => {
  for (const r of runners.splice(0)) {
    await r.close();
    r.abortAll();
    await Promise.all(r.running());
  }
  fake.reset();
  events.length = 0;
});
afterAll(async () => {
  await source.return?.();
  await store?.close();
  await fake?.close();
});

function runnerWith(limits: Partial<ChatLimits> = {}, { withLlm = true } = {}): AnswerRunner {
  const all = { ...DEFAULT_CHAT_LIMITS, ...limits };
  const runner = new AnswerRunner({
    config,
    limits: all,
    llm: withLlm ? llmFromConfig(config, all) : null,
    events: bus,
  });
  runners.push(runner);
  return runner;
}

/** A stored question with its pending answer, as a send leaves them; returns the answer's job. */
async function pendingAnswer(runner: AnswerRunner, sessionId = "s-1", extra: Record<string, unknown> = {}) {
  const now = new Date();
  const [, answer] = await ChatMessageModel.insertMany([
    { userId: user, sessionId, role: "user", content: "Hvad er klagefristen?", timestamp: now },
    {
      userId: user,
      sessionId,
      role: "assistant",
      content: "",
      timestamp: new Date(now.getTime() + 1),
      status: "pending",
      mode: runner.mode,
      worker: runner.workerId,
      heartbeatAt: now,
      ...extra,
    },
  ]);
  return {
    message: presentMessage(answer.toObject()),
    userId: user,
    question: "Hvad er klagefristen?",
    questionParentId: null,
    history: [],
    language: "da" as const,
    retrieve,
  };
}

const stored = async (id: string) => ChatMessageModel.findById(id).lean();
const typesOf = (messageId: string) => events.filter((e) => e.messageId === messageId).map((e) => e.type);

describe("AnswerRunner", () => {
  it("should give a user at most maxInFlightPerUser slots (TOO_MANY_REQUESTS), each given back once", () => {
    const runner = runnerWith({ maxInFlightPerUser: 2 });
    const first = runner.reserveSlot("u");
    runner.reserveSlot("u");
    let refused: unknown;
    try {
      runner.reserveSlot("u");
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: "TOO_MANY_REQUESTS",
      retryAfter: 5,
      message: formatMessage("chat.tooManyAnswers", { count: 2 }),
    });
    // another user is not affected
    expect(() => runner.reserveSlot("other")).not.toThrow();
    // releasing twice gives back one slot, not two
    first();
    first();
    runner.reserveSlot("u");
    expect(() => runner.reserveSlot("u")).toThrow(AppError);
  });

  it("should give the slot back when the answer is stored", async () => {
    const runner = runnerWith({ maxInFlightPerUser: 1 }, { withLlm: false });
    const job = await pendingAnswer(runner);
    runner.start(job, runner.reserveSlot(user));
    expect(runner.inFlightCount(user)).toBe(1);
    expect(() => runner.reserveSlot(user)).toThrow(AppError);
    await Promise.all(runner.running());
    expect(runner.inFlightCount()).toBe(0);
    expect(() => runner.reserveSlot(user)).not.toThrow();
    expect((await stored(job.message.id))?.status).toBe("complete");
  });

  it("should save the partial text with a fresh heartbeat while generating, then the final answer", async () => {
    fake.setBehaviour({ tokenDelayMs: 15 });
    const runner = runnerWith({ heartbeatMs: 100 });
    const job = await pendingAnswer(runner);
    const sentAt = new Date();
    runner.start(job, () => undefined);
    const first = await eventually(async () => {
      const doc = await stored(job.message.id);
      return doc?.status === "streaming" && doc.content ? doc : undefined;
    });
    expect(REPLY.startsWith(first.content ?? "")).toBe(true);
    expect(first.heartbeatAt!.getTime()).toBeGreaterThanOrEqual(sentAt.getTime());
    const later = await eventually(async () => {
      const doc = await stored(job.message.id);
      return doc?.heartbeatAt && doc.heartbeatAt > first.heartbeatAt! ? doc : undefined;
    });
    expect((later.content ?? "").length).toBeGreaterThanOrEqual((first.content ?? "").length);
    await Promise.all(runner.running());
    const done = await stored(job.message.id);
    expect(done).toMatchObject({ status: "complete", content: REPLY, worker: null, mode: "llm" });
    expect(done?.citations?.[0]).toMatchObject({ number: 1, articleId: "klager" });
  });

  it("should write the heartbeats of answers generating together in one command per beat", async () => {
    fake.setBehaviour({ tokenDelayMs: 25 });
    const runner = runnerWith({ heartbeatMs: 150, maxInFlightPerUser: 10 });
    const jobs = await Promise.all(Array.from({ length: 5 }, (_, i) => pendingAnswer(runner, `s-beat-${i}`)));
    const writes: string[] = [];
    mongoose.set("debug", (collection: string, method: string) => {
      if (collection === "chat_messages" && /^(update|bulkWrite)/.test(method)) writes.push(method);
    });
    try {
      const t0 = Date.now();
      for (const job of jobs) runner.start(job, () => undefined);
      // every answer shows progress while generating
      await eventually(async () => {
        const docs = await Promise.all(jobs.map((j) => stored(j.message.id)));
        return docs.every((d) => d?.status === "streaming" && d.content) ? docs : undefined;
      });
      await Promise.all(runner.running());
      const beats = Math.floor((Date.now() - t0) / 150);
      expect(writes.length).toBeGreaterThan(0);
      // one command per beat for the five (one each would be ≥ 5 per beat)
      expect(writes.length).toBeLessThanOrEqual(beats + 1);
      expect(writes.every((m) => m === "bulkWrite")).toBe(true);
    } finally {
      mongoose.set("debug", false);
    }
    for (const job of jobs) expect((await stored(job.message.id))?.status).toBe("complete");
  });

  it("should publish CREATED first, then the answer's text as deltas, then COMPLETED", async () => {
    const runner = runnerWith();
    const job = await pendingAnswer(runner);
    const asked = fake.chatRequests().length;
    // resolves once the answer is under way: its model request sent
    await runner.start(job, () => undefined);
    expect(runner.inFlightCount(user)).toBe(1);
    await Promise.all(runner.running());
    expect(fake.chatRequests()).toHaveLength(asked + 1);
    await eventually(async () => (typesOf(job.message.id).at(-1) === "COMPLETED" ? true : undefined));
    const types = typesOf(job.message.id);
    expect(types[0]).toBe("CREATED");
    expect(types.filter((t) => t === "CREATED")).toHaveLength(1);
    expect(types.slice(1, -1).every((t) => t === "DELTA")).toBe(true);
    const deltas = events.filter((e) => e.messageId === job.message.id && e.type === "DELTA");
    expect(deltas.map((e) => e.delta).join("")).toBe(REPLY);
    expect(events.find((e) => e.type === "COMPLETED")?.message?.content).toBe(REPLY);
  });

  it("should mark answers of a dead process as INTERRUPTED, leaving live ones and its own alone", async () => {
    fake.setBehaviour({ failure: { type: "hang" } });
    const runner = runnerWith();
    const own = await pendingAnswer(runner, "s-own");
    runner.start(own, () => undefined);
    const old = new Date(Date.now() - 60_000);
    const dead = await pendingAnswer(runner, "s-dead", { worker: "gone", heartbeatAt: old });
    const silent = await pendingAnswer(runner, "s-silent", { worker: "gone", heartbeatAt: null });
    const live = await pendingAnswer(runner, "s-live", { worker: "other-process", status: "streaming" });

    expect(await runner.recoverInterrupted(30_000)).toBe(2);
    for (const id of [dead.message.id, silent.message.id]) {
      expect(await stored(id)).toMatchObject({
        status: "error",
        worker: null,
        error: { code: "INTERRUPTED", message: formatMessage("chat.interrupted"), retryable: true },
      });
      // subscribers are told, once: a client does not show the answer streaming forever
      expect(typesOf(id)).toEqual(["ERROR"]);
      expect(events.find((e) => e.messageId === id)?.message).toMatchObject({ status: "error" });
    }
    expect(await runner.recoverInterrupted(30_000)).toBe(0);
    expect(typesOf(dead.message.id)).toEqual(["ERROR"]);
    expect((await stored(live.message.id))?.status).toBe("streaming");
    // even with no grace at all, an answer generating in this process is not taken for dead
    expect(await runner.recoverInterrupted(0)).toBe(1);
    expect((await stored(own.message.id))?.status).toBe("pending");
    expect((await stored(live.message.id))?.status).toBe("error");
  });

  it("should recover at start and every staleAfterMs without being asked", async () => {
    const before = await pendingAnswer(runnerWith(), "s-before", {
      heartbeatAt: new Date(Date.now() - 60_000),
    });
    runnerWith({ staleAfterMs: 150 });
    await eventually(async () => ((await stored(before.message.id))?.status === "error" ? true : undefined));
    // a process that dies later: its answer stops beating and is recovered by the timer
    const later = await pendingAnswer(runnerWith(), "s-later", { worker: "gone", heartbeatAt: new Date() });
    await eventually(async () => ((await stored(later.message.id))?.status === "error" ? true : undefined));
  });

  it("should stop an answer keeping its partial text, and say when none was generating here", async () => {
    fake.setBehaviour({ tokenDelayMs: 40 });
    const runner = runnerWith();
    const job = await pendingAnswer(runner);
    runner.start(job, () => undefined);
    await eventually(async () => (typesOf(job.message.id).includes("DELTA") ? true : undefined));
    expect(await runner.stop(job.message.id)).toBe(true);
    const doc = await stored(job.message.id);
    expect(doc?.status).toBe("stopped");
    expect(doc?.content?.length).toBeGreaterThan(0);
    expect(REPLY.startsWith(doc?.content ?? "")).toBe(true);
    await eventually(async () => (typesOf(job.message.id).at(-1) === "STOPPED" ? true : undefined));
    expect(await runner.stop(job.message.id)).toBe(false);
  });

  it("should stop only the answers of the given session", async () => {
    const runner = runnerWith();
    const gone = await pendingAnswer(runner, "s-gone");
    const kept = await pendingAnswer(runner, "s-kept");
    runner.start(gone, () => undefined);
    runner.start(kept, () => undefined);
    await runner.stopSession("s-gone");
    expect((await stored(gone.message.id))?.status).toBe("stopped");
    expect(runner.inFlightCount()).toBe(1);
    await Promise.all(runner.running());
    expect((await stored(kept.message.id))?.status).toBe("complete");
  });

  it("should stop answers started after close at once and recover nothing more", async () => {
    const runner = runnerWith();
    await runner.close();
    const asked = fake.chatRequests().length;
    const job = await pendingAnswer(runner);
    runner.start(job, () => undefined);
    await Promise.all(runner.running());
    expect((await stored(job.message.id))?.status).toBe("stopped");
    expect(fake.chatRequests()).toHaveLength(asked);
    await pendingAnswer(runner, "s-stale", { heartbeatAt: null });
    expect(await runner.recoverInterrupted()).toBe(0);
  });
});

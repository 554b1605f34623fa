/**
 * An answer's final write through the driver (answerOutcome) stores exactly what the same write through
 * mongoose (which casts the update with the schema) stored: same fields, order, values and BSON types.
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnswerResult } from "./answer";
import { ChatMessageModel } from "./chat.model";
import { openTestStore } from "./chat.test-helpers";
import { answerOutcome, newTurn } from "./chat.turn";

let store: Awaited<ReturnType<typeof openTestStore>>;

beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store?.close();
});

/** What the runner's final write was before it went through the driver (mongoose casts this update). */
function mongooseSet(result: AnswerResult, followUps: string[], now: Date) {
  return {
    followUps,
    content: result.content,
    status: result.status,
    citations: result.citations.map((c) => ({ ...c, url: c.url ?? null, updatedAt: c.updatedAt ?? null })),
    usedNumbers: result.usedNumbers,
    mode: result.mode,
    error: result.error
      ? { code: result.error.code, message: result.error.message, retryable: result.error.retryable }
      : null,
    knowledgeGap: result.knowledgeGap,
    freshnessWarnings: result.freshnessWarnings,
    worker: null,
    heartbeatAt: now,
  };
}

async function pendingAnswer(): Promise<mongoose.Types.ObjectId> {
  const { question, answer } = newTurn({
    userId: new mongoose.Types.ObjectId(),
    sessionId: "s-1",
    content: "Hvad er fristen?",
    now: new Date("2026-11-26T10:00:00.000Z"),
    mode: "llm",
    worker: "w-1",
  });
  await ChatMessageModel.collection.insertMany([question, answer]);
  return answer._id;
}

/** a message without its ids, in canonical extended JSON (BSON types and key order kept) */
function canonical(doc: Record<string, unknown> | null | undefined): string {
  if (!doc) throw new Error("no document");
  const { _id, parentId, replyTo, userId, ...rest } = doc;
  return mongoose.mongo.BSON.EJSON.stringify(rest, { relaxed: false });
}

async function stored(id: mongoose.Types.ObjectId): Promise<string> {
  return canonical(await ChatMessageModel.collection.findOne({ _id: id }));
}

const complete: AnswerResult = {
  content: "Klagefristen er fire uger [1]. Se også [2].",
  // as the answer engine hands them over: optional fields missing or set, and fields the schema does not have
  citations: [
    {
      number: 1,
      articleId: "klager",
      title: "Klager",
      headingPath: ["Klagefrist", "Frist"],
      url: "https://example.org/klager",
      passage: "Klagefristen er fire uger.",
      updatedAt: new Date("2026-01-02T03:04:05.000Z"),
      score: 0.93,
    } as AnswerResult["citations"][number],
    { number: 2, articleId: "ferie", title: "Ferie", headingPath: [], passage: "Ferie." },
  ],
  usedNumbers: [1, 2],
  mode: "llm",
  status: "complete",
  knowledgeGap: false,
  freshnessWarnings: [
    {
      number: 2,
      articleId: "ferie",
      title: "Ferie",
      updatedAt: new Date("2020-05-06T07:08:09.000Z"),
      message: 'Bemærk: "Ferie" [2] blev sidst opdateret 6. maj 2020.',
    },
  ],
  retrievalQuery: "Hvad er fristen?",
  sources: [],
  finishReason: "stop",
};

const failed: AnswerResult = {
  ...complete,
  content: "Klagefristen",
  citations: [],
  usedNumbers: [],
  status: "error",
  error: {
    code: "LLM_UNAVAILABLE",
    message: "Sprogmodellen svarer ikke.",
    retryable: true,
    detail: "ECONNRESET",
  },
  knowledgeGap: true,
  freshnessWarnings: [],
};

describe("answerOutcome", () => {
  it.each([
    [
      "a complete answer with citations and follow-ups",
      complete,
      ["Hvornår starter fristen?", "Kan fristen forlænges?"],
    ],
    ["a failed answer without citations", failed, []],
  ])("should store what mongoose stored for %s", async (_name, result, followUps) => {
    const now = new Date("2026-11-26T10:00:05.000Z");
    const viaMongoose = await pendingAnswer();
    const viaDriver = await pendingAnswer();
    const before = await ChatMessageModel.findOneAndUpdate(
      { _id: viaMongoose },
      { $set: mongooseSet(result, followUps, now) },
      { returnDocument: "after" },
    ).lean();
    const after = await ChatMessageModel.collection.findOneAndUpdate(
      { _id: viaDriver },
      { $set: answerOutcome(result, followUps, now) },
      { returnDocument: "after" },
    );
    expect(await stored(viaDriver)).toBe(await stored(viaMongoose));
    // and the document the runner presents is the same
    expect(canonical(after)).toBe(canonical(before));
    expect(canonical(after)).toContain(`"status":"${result.status}"`);
  });
});

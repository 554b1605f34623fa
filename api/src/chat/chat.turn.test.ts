import mongoose from "mongoose";
import { describe, expect, it } from "vitest";
import { ChatMessageModel } from "./chat.model";
import { newTurn } from "./chat.turn";

describe("newTurn", () => {
  it("should make the documents (fields, values, order) that ChatMessageModel would store", () => {
    const userId = new mongoose.Types.ObjectId();
    const parent = new mongoose.Types.ObjectId();
    const now = new Date("2026-11-26T10:00:00.000Z");
    const { question, answer } = newTurn({
      userId,
      sessionId: "s-1",
      content: "Hvad er fristen?",
      now,
      mode: "llm",
      worker: "w-1",
    });
    question.parentId = parent;
    const scope = { kind: "ARTICLES" as const, category: null, articles: [{ id: "a1", title: "Frister" }] };
    answer.scope = scope;

    const q = new ChatMessageModel({
      _id: question._id,
      userId,
      sessionId: "s-1",
      role: "user",
      content: "Hvad er fristen?",
      timestamp: now,
    });
    q.set("parentId", parent);
    const a = new ChatMessageModel({
      _id: answer._id,
      userId,
      sessionId: "s-1",
      role: "assistant",
      content: "",
      timestamp: new Date(now.getTime() + 1),
      replyTo: question._id,
      parentId: question._id,
      status: "pending",
      mode: "llm",
      worker: "w-1",
      heartbeatAt: now,
    });
    a.set("scope", scope);
    for (const [mine, model] of [
      [question, q.toObject()],
      [answer, a.toObject()],
    ] as const) {
      expect(Object.keys(mine).sort()).toEqual(Object.keys(model).sort());
      expect(JSON.parse(JSON.stringify(mine))).toEqual(JSON.parse(JSON.stringify(model)));
    }
    expect(Object.keys(question)).toEqual(Object.keys(q.toObject()));
  });
});

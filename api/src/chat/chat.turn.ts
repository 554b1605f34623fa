/**
 * A sent question and its pending answer as the plain documents stored in chat_messages, written through the
 * driver (ChatMessageModel.collection): on the send path, mongoose's documents (construction, casting,
 * validation, toObject) cost more CPU than the rest of the insert. The fields, their values and their order
 * are the ones `new ChatMessageModel(...)` stores (chat.turn.test.ts compares them); every value is already
 * valid here (a validated content, ids made here, a stored scope).
 */
import mongoose from "mongoose";
import type { ChatMessageFields } from "./chat.model";
import type { StoredScope } from "./chat.scope-view";

type Oid = mongoose.Types.ObjectId;

export interface TurnInput {
  userId: Oid;
  sessionId: string;
  /** the validated question */
  content: string;
  now: Date;
  /** the answer's mode and the process generating it (the runner's) */
  mode: string;
  worker: string;
}

/** The stored question and answer (plain objects in the schema's shape; parentId and scope are set later). */
export function newTurn(input: TurnInput) {
  const { userId, sessionId, now } = input;
  const questionId = new mongoose.Types.ObjectId();
  const question = {
    userId,
    sessionId,
    role: "user" as const,
    content: input.content,
    timestamp: now,
    replyTo: null,
    status: null,
    mode: null,
    error: null,
    feedback: null,
    worker: null,
    heartbeatAt: null,
    _id: questionId,
    parentId: null as Oid | null,
  };
  const answer: {
    _id: Oid;
    parentId: Oid;
    replyTo: Oid;
    status: "pending";
    scope?: StoredScope;
    [key: string]: unknown;
  } = {
    userId,
    sessionId,
    role: "assistant" as const,
    content: "",
    // after the question, also when both land in the same millisecond
    timestamp: new Date(now.getTime() + 1),
    parentId: questionId,
    replyTo: questionId,
    status: "pending",
    mode: input.mode,
    error: null,
    feedback: null,
    worker: input.worker,
    heartbeatAt: now,
    _id: new mongoose.Types.ObjectId(),
  };
  return { question, answer };
}

/** A stored turn's message as the presenter reads it (a lean document). */
export function asLean(doc: object): ChatMessageFields & { _id: Oid } {
  return doc as ChatMessageFields & { _id: Oid };
}

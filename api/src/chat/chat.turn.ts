/**
 * A sent question and its pending answer as the plain documents stored in chat_messages, written through the
 * driver (ChatMessageModel.collection): on the send path, mongoose's documents (construction, casting,
 * validation, toObject) cost more CPU than the rest of the insert. The fields, their values and their order
 * are the ones `new ChatMessageModel(...)` stores (chat.turn.test.ts compares them); every value is already
 * valid here (a validated content, ids made here, a stored scope).
 */
import mongoose from "mongoose";
import type { AnswerResult } from "./answer";
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

type Outcome = Pick<
  AnswerResult,
  "content" | "status" | "citations" | "usedNumbers" | "mode" | "error" | "knowledgeGap" | "freshnessWarnings"
>;

/**
 * The `$set` of an answer's final write, in the shape mongoose's casting gives it (schema fields in schema
 * order, defaults filled in, nothing else), so it is written through the driver without casting it each time
 * (the subdocuments of the citations cost more CPU than the write). chat.turn.test.ts stores it both ways and
 * compares the documents.
 */
export function answerOutcome(result: Outcome, followUps: string[], now: Date): Record<string, unknown> {
  return {
    followUps,
    content: result.content,
    status: result.status,
    citations: result.citations.map((c) => ({
      number: c.number,
      articleId: c.articleId,
      title: c.title,
      headingPath: c.headingPath === undefined ? [] : c.headingPath,
      url: c.url ?? null,
      passage: c.passage === undefined ? "" : c.passage,
      updatedAt: c.updatedAt ?? null,
    })),
    usedNumbers: result.usedNumbers,
    mode: result.mode,
    error: result.error
      ? { code: result.error.code, message: result.error.message, retryable: result.error.retryable }
      : null,
    knowledgeGap: result.knowledgeGap,
    // no defaults in this subdocument: a field it lacks stays absent
    freshnessWarnings: result.freshnessWarnings.map((w) =>
      definedOnly({
        number: w.number,
        articleId: w.articleId,
        title: w.title,
        updatedAt: w.updatedAt,
        message: w.message,
      }),
    ),
    worker: null,
    heartbeatAt: now,
  };
}

function definedOnly(fields: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
  return fields;
}

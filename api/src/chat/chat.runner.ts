/**
 * The answer runner: generates answers in the background, in this process.
 *
 * - Slots: a user has at most `maxInFlightPerUser` answers generating; one more is refused with
 *   TOO_MANY_REQUESTS before anything is stored (reserveSlot, taken synchronously so two sends cannot both pass).
 * - Heartbeat: a generating answer saves its partial text and shows life every `heartbeatMs`, so readers see
 *   progress and recovery can tell live answers from dead ones.
 * - Recovery: answers left pending/streaming by a crashed process (no heartbeat for `staleAfterMs`) become
 *   retryable errors (INTERRUPTED), at start and periodically, each with an ERROR event (subscribers on every
 *   process see it end). Safe with several live processes.
 * - Events: CREATED (after the model request has left), each DELTA, then COMPLETED / STOPPED / ERROR, on
 *   CHAT_MESSAGE_EVENT. The final message is stored with its citations (and a knowledge gap when there was none).
 * - Follow-ups (chat.follow-ups.ts): stored with the answer; with a model, model-written ones may replace them
 *   after COMPLETED (an UPDATED event), without holding the answer's slot.
 */

import { randomBytes } from "node:crypto";
import { formatMessage } from "@vidensbank/shared";
import mongoose from "mongoose";
import type { AppConfig } from "../config";
import { AppError } from "../errors";
import type { EventBus } from "../events/bus";
import type { LlmClient } from "../llm";
import { logger } from "../logger";
import { type AnswerLanguage, type AnswerResult, answerQuestion, type HistoryTurn } from "./answer";
import {
  type ChatMessageEventPayload,
  type ChatMessageEventType,
  deltaBatcher,
  publishWhenStored,
} from "./chat.events";
import { FollowUpWriter } from "./chat.follow-ups";
import { HeartbeatWriter } from "./chat.heartbeats";
import type { ChatLimits } from "./chat.limits";
import { ChatMessageModel, KnowledgeGapModel } from "./chat.model";
import { type ChatMessageView, presentMessage } from "./chat.presenter";
import type { RetrieveFn } from "./chat.retrieval";
import { IN_PROGRESS } from "./chat.rules";
import type { StoreAnswerSlots } from "./chat.slots";
import { answerOutcome, asLean } from "./chat.turn";

/**
 * Publish one event of an answer on CHAT_MESSAGE_EVENT (DELTA events carry the delta, the others the message;
 * CREATED also where the answer's question hangs: `questionParentId`).
 */
export function publishMessageEvent(
  events: EventBus,
  type: ChatMessageEventType,
  message: ChatMessageView,
  userId: string,
  delta: string | null = null,
  questionParentId?: string | null,
): void {
  const payload: ChatMessageEventPayload = {
    type,
    sessionId: message.sessionId,
    userId,
    messageId: message.id,
    delta,
    message: type === "DELTA" ? null : message,
    ...(questionParentId !== undefined && { questionParentId }),
  };
  events.publish("CHAT_MESSAGE_EVENT", payload);
}

/** One answer to generate: the stored (pending) assistant message and what the answer is made from. */
export interface AnswerJob {
  message: ChatMessageView;
  userId: string;
  question: string;
  /** the parent of the answer's question (null: the session's first question), told with CREATED */
  questionParentId: string | null;
  history: HistoryTurn[];
  language: AnswerLanguage;
  retrieve: RetrieveFn;
  /** the scope's "Søgt i: …" line for a retrieval-only answer (chat.scope-view.ts) */
  scopeNote?: string;
  /**
   * settles when the message is stored, when the model is asked while it is being written (a send): the
   * answer's events wait for it, and a failed write stops the answer (nothing is stored or published)
   */
  stored?: Promise<void>;
}

export interface AnswerRunnerDeps {
  config: AppConfig;
  llm: LlmClient | null;
  limits: ChatLimits;
  /** where the answer events (CHAT_MESSAGE_EVENT) go */
  events: EventBus;
  /** answers in flight also counted in the store (several processes over one store) */
  storeSlots?: StoreAnswerSlots;
  /** a cited article's Markdown, for the follow-up questions (answer/follow-ups.ts); absent: passages only */
  articleText?: (articleId: string) => Promise<string | null>;
}

/** answers recovered per pass at most (the next pass takes the rest) */
const RECOVER_BATCH = 500;

interface InFlight {
  userId: string;
  sessionId: string;
  controller: AbortController;
  done: Promise<void>;
}

export class AnswerRunner {
  /** this process, on the messages it generates (crash recovery tells live answers from dead ones) */
  readonly workerId = `${process.pid}-${randomBytes(4).toString("hex")}`;
  private readonly inFlight = new Map<string, InFlight>();
  /** answers generating per user (reserved before the first await of a send) */
  private readonly slots = new Map<string, number>();
  private readonly recoveryTimer: NodeJS.Timeout;
  private recovering: Promise<number> = Promise.resolve(0);
  private closed = false;
  private readonly followUps: FollowUpWriter;
  private readonly heartbeats: HeartbeatWriter;

  constructor(private readonly deps: AnswerRunnerDeps) {
    this.heartbeats = new HeartbeatWriter(deps.limits.heartbeatMs);
    this.followUps = new FollowUpWriter({
      llm: deps.llm,
      timeoutMs: deps.limits.followUpsTimeoutMs,
      articleText: deps.articleText,
      publishUpdated: (message, userId) => publishMessageEvent(deps.events, "UPDATED", message, userId),
    });
    // answers left pending/streaming by a crashed process become retryable errors: now and periodically
    this.recovering = this.recoverInterrupted();
    this.recoveryTimer = setInterval(() => {
      this.recovering = this.recoverInterrupted();
    }, deps.limits.staleAfterMs);
    this.recoveryTimer.unref();
  }

  /** Publish one event of an answer (see publishMessageEvent). */
  publishEvent(type: ChatMessageEventType, message: ChatMessageView, userId: string): void {
    publishMessageEvent(this.deps.events, type, message, userId);
  }

  /** Tell the owner's subscribers that a session got the model's title (a TITLED event; see chat.events.ts). */
  publishTitled(sessionId: string, userId: string, questionId: string, title: string): void {
    this.deps.events.publish("CHAT_MESSAGE_EVENT", {
      type: "TITLED",
      sessionId,
      userId,
      messageId: questionId,
      delta: null,
      message: null,
      title,
    });
  }

  /** 'llm' when a language model is configured, else 'retrieval'. */
  get mode(): "llm" | "retrieval" {
    return this.deps.llm ? "llm" : "retrieval";
  }

  /** Take one of the user's answer slots synchronously (no await between check and take); returns release. */
  reserveSlot(userId: string): () => void {
    const key = userId;
    const used = this.slots.get(key) ?? 0;
    if (used >= this.deps.limits.maxInFlightPerUser) {
      throw new AppError("TOO_MANY_REQUESTS", "chat.tooManyAnswers", { count: used }, { retryAfter: 5 });
    }
    this.slots.set(key, used + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.slots.get(key) ?? 1) - 1;
      if (n <= 0) this.slots.delete(key);
      else this.slots.set(key, n);
    };
  }

  /**
   * Take one of the user's answer slots: in this process first (synchronously, see reserveSlot), then in the
   * store when it is shared by several processes. Returns the release of both.
   */
  async reserve(userId: string): Promise<() => void> {
    const release = this.reserveSlot(userId);
    const shared = this.deps.storeSlots;
    if (!shared) return release;
    let releaseShared: (() => void) | null;
    try {
      releaseShared = await shared.acquire(userId, this.deps.limits.maxInFlightPerUser);
    } catch (err) {
      release();
      throw err;
    }
    if (!releaseShared) {
      release();
      const count = this.deps.limits.maxInFlightPerUser;
      throw new AppError("TOO_MANY_REQUESTS", "chat.tooManyAnswers", { count }, { retryAfter: 5 });
    }
    const other = releaseShared;
    return () => {
      release();
      other();
    };
  }

  /**
   * Generate the answer in the background; `release` (its slot) is called when it is stored. Resolves when it
   * is under way (its model request sent, or decided without the model) or over. CREATED is published then,
   * after the request has left, and always before the answer's first DELTA and its outcome event.
   */
  start(job: AnswerJob, release: () => void): Promise<void> {
    const { message, userId } = job;
    const controller = new AbortController();
    if (this.closed) controller.abort();
    const entry: InFlight = { userId, sessionId: message.sessionId, controller, done: Promise.resolve() };
    this.inFlight.set(message.id, entry);
    // the answer's events go out once its message is stored; a failed insert stops the answer
    const publish = publishWhenStored(job.stored, () => controller.abort());
    let created = false;
    const announce = () => {
      if (created) return;
      created = true;
      publish(() =>
        publishMessageEvent(this.deps.events, "CREATED", message, userId, null, job.questionParentId),
      );
    };
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    entry.done = this.run(job, controller.signal, {
      announce,
      publish,
      onStarted: () => {
        markStarted();
        // after the microtasks that send the model request off
        setImmediate(announce);
      },
    })
      .catch((err) => logger.error({ err, messageId: message.id }, "chat answer failed unexpectedly"))
      .finally(() => {
        this.inFlight.delete(message.id);
        release();
        markStarted();
      });
    return started;
  }

  /** Stop an answer generating in this process and wait until it is stored; false when none is. */
  async stop(messageId: string): Promise<boolean> {
    const running = this.inFlight.get(messageId);
    if (!running) return false;
    running.controller.abort();
    await running.done;
    return true;
  }

  /** Stop every answer generating in the session here and wait until they are stored. */
  async stopSession(sessionId: string): Promise<void> {
    const running = [...this.inFlight.values()].filter((f) => f.sessionId === sessionId);
    for (const f of running) f.controller.abort();
    await Promise.all(running.map((f) => f.done));
  }

  /** Stop every answer generating here, and model-written follow-ups (close); see running() to wait for them. */
  abortAll(): void {
    for (const f of this.inFlight.values()) f.controller.abort();
    this.followUps.abortAll();
  }

  /** Each answer generating now, and each model call for follow-ups, settling when it is stored. */
  running(): Promise<void>[] {
    return [...[...this.inFlight.values()].map((f) => f.done), ...this.followUps.running()];
  }

  /** Answers generating in this process right now (all users, or one). */
  inFlightCount(userId?: string): number {
    if (!userId) return this.inFlight.size;
    let n = 0;
    for (const f of this.inFlight.values()) if (f.userId === userId) n++;
    return n;
  }

  /**
   * Mark answers left pending/streaming by a dead process as retryable errors: those whose last heartbeat is
   * older than `staleAfterMs` and that are not generating in this process. Safe with several live processes
   * (their answers keep beating). Returns how many were marked.
   */
  async recoverInterrupted(staleAfterMs = this.deps.limits.staleAfterMs): Promise<number> {
    if (this.closed || mongoose.connection.readyState !== 1) return 0;
    try {
      const dead = {
        role: "assistant" as const,
        status: { $in: IN_PROGRESS },
        $or: [{ heartbeatAt: null }, { heartbeatAt: { $lt: new Date(Date.now() - staleAfterMs) } }],
      };
      const mine = [...this.inFlight.keys()].map((id) => new mongoose.Types.ObjectId(id));
      const found = await ChatMessageModel.find({ ...dead, _id: { $nin: mine } }, { _id: 1 })
        .limit(RECOVER_BATCH)
        .lean();
      let marked = 0;
      for (const { _id } of found) {
        if (this.inFlight.has(String(_id))) continue;
        // one by one, on the same condition: when several processes recover at once, one wins each answer,
        // and it tells the subscribers (on every process), so no client shows it streaming forever
        const doc = await ChatMessageModel.findOneAndUpdate(
          { ...dead, _id },
          {
            $set: {
              status: "error",
              error: { code: "INTERRUPTED", message: formatMessage("chat.interrupted"), retryable: true },
              worker: null,
            },
          },
          { returnDocument: "after" },
        ).lean();
        if (!doc) continue;
        marked++;
        publishMessageEvent(this.deps.events, "ERROR", presentMessage(doc), String(doc.userId));
      }
      if (marked > 0) logger.warn({ count: marked }, "marked interrupted chat answers as errors");
      return marked;
    } catch (err) {
      logger.error({ err }, "chat recovery failed");
      return 0;
    }
  }

  /**
   * Start closing: answers started from now on are stopped at once and recovery ends. Resolves when a recovery
   * pass under way is over. Answers generating now keep going: abortAll() stops them.
   */
  close(): Promise<number> {
    this.closed = true;
    clearInterval(this.recoveryTimer);
    this.deps.storeSlots?.close();
    return this.recovering;
  }

  private async run(
    job: AnswerJob,
    signal: AbortSignal,
    hooks: { announce: () => void; publish: (event: () => void) => void; onStarted: () => void },
  ): Promise<void> {
    const { message, userId, question } = job;
    const id = new mongoose.Types.ObjectId(message.id);
    let partial = "";
    let dirty = false;
    // Save the partial text and show life every heartbeat (readers see progress, recovery sees we are alive),
    // with the other answers' beats in one command (chat.heartbeats.ts). Not per token.
    const stopBeating = this.heartbeats.add(id, () => {
      if (!dirty) return null;
      dirty = false;
      return partial;
    });

    // tokens that arrive in the same turn go out as one DELTA (see deltaBatcher)
    const deltas = deltaBatcher((delta) => {
      hooks.announce();
      hooks.publish(() =>
        this.deps.events.publish("CHAT_MESSAGE_EVENT", {
          type: "DELTA",
          sessionId: message.sessionId,
          userId,
          messageId: message.id,
          delta,
          message: null,
        }),
      );
    });

    let result: AnswerResult;
    try {
      result = await answerQuestion({
        question,
        history: job.history,
        language: job.language,
        retrieve: job.retrieve,
        scopeNote: job.scopeNote,
        llm: this.deps.llm ?? undefined,
        signal,
        staleDays: this.deps.config.knowledgeStaleDays,
        onStarted: hooks.onStarted,
        onDelta: (delta) => {
          partial += delta;
          dirty = true;
          deltas.add(delta);
        },
      });
    } catch (err) {
      // answerQuestion does not throw for expected failures; anything else is still stored as an error
      logger.error({ err, messageId: message.id }, "answer engine threw");
      result = {
        content: partial,
        citations: [],
        usedNumbers: [],
        mode: this.mode,
        status: "error",
        error: {
          code: "LLM_UNAVAILABLE",
          message: formatMessage("llm.unavailable"),
          retryable: true,
        },
        knowledgeGap: false,
        freshnessWarnings: [],
        retrievalQuery: question,
        sources: [],
      };
    } finally {
      stopBeating();
      deltas.flush(); // before the outcome event
    }

    if (result.error) {
      logger.warn(
        { messageId: message.id, code: result.error.code, detail: result.error.detail },
        "chat answer failed",
      );
    }
    // the message was never stored (its insert failed): nothing to store or tell
    if (
      job.stored &&
      !(await job.stored.then(
        () => true,
        () => false,
      ))
    )
      return;
    const prepared = await this.followUps.prepare(job, result);
    // through the driver: the $set is already in the shape mongoose's casting would give it (chat.turn.ts)
    const stored = await ChatMessageModel.collection.findOneAndUpdate(
      { _id: id },
      { $set: answerOutcome(result, prepared.followUps, new Date()) },
      { returnDocument: "after" },
    );
    if (!stored) return; // the session was deleted meanwhile
    const doc = asLean(stored);
    if (result.knowledgeGap && result.status === "complete") {
      await KnowledgeGapModel.create({
        question,
        userId: doc.userId,
        sessionId: message.sessionId,
        messageId: id,
        timestamp: new Date(),
      });
    }
    hooks.announce();
    const type: ChatMessageEventType =
      result.status === "complete" ? "COMPLETED" : result.status === "stopped" ? "STOPPED" : "ERROR";
    publishMessageEvent(this.deps.events, type, presentMessage(doc), userId);
    this.followUps.improve(job, result, prepared);
  }
}

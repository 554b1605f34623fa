/**
 * The chat assistant: sessions, messages and answers. Every rule of the chat lives here, once; GraphQL, REST
 * and the CLI call these methods with the signed-in user's id.
 *
 * Answering (sendMessage): the user message is stored first (nothing is lost) together with the assistant
 * message as pending, and the answer runs in the background: retrieval → LLM (or retrieval-only) → deltas
 * published on CHAT_MESSAGE_EVENT → the final message stored with its citations. A failure or a stop is stored
 * on the assistant message (status error / stopped) and can be retried. Only what the first token needs comes
 * before the model request; the activity log's `message` and the model's session title come after it.
 *
 * Ownership: a session or message of another user answers NOT_FOUND, exactly like one that does not exist.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import mongoose from "mongoose";
import { recordActivity } from "../activity/activity.service";
import type { AppConfig } from "../config";
import { AppError, Errors } from "../errors";
import { getPubSub, publish } from "../graphql/pubsub";
import { createLlmClient, type LlmClient } from "../llm";
import { logger } from "../logger";
import { getPreferences } from "../users/preferences.service";
import { escapeRegExp } from "../util";
import {
  type AnswerLanguage,
  type AnswerResult,
  answerQuestion,
  fallbackSessionTitle,
  type HistoryTurn,
  prefetchRetrieval,
  SESSION_TITLE_MAX_LENGTH,
  suggestSessionTitle,
  validateChatMessage,
} from "./answer";
import { type ChatMessageEventPayload, type ChatMessageEventType, SessionEventHub } from "./chat.events";
import { sessionToMarkdown } from "./chat.export";
import { type ChatLimits, DEFAULT_CHAT_LIMITS, DEFAULT_CHAT_MODEL } from "./chat.limits";
import { ChatMessageModel, ChatSessionModel, KnowledgeGapModel, type MessageStatus } from "./chat.model";
import { type ChatMessageView, type ChatSessionView, presentMessage, presentSession } from "./chat.presenter";
import type { RetrieveFn } from "./chat.retrieval";

export const chatMessages = {
  sessionNotFound: "Samtalen findes ikke",
  messageNotFound: "Beskeden findes ikke",
  titleTooLong: `Titlen må højst være ${SESSION_TITLE_MAX_LENGTH} tegn`,
  titleEmpty: "Titlen må ikke være tom",
  onlyUserRole: "Kun brugerbeskeder kan sendes (role skal være 'user')",
  tooManyAnswers: (n: number) =>
    `Du har allerede ${n} svar undervejs. Vent, til et af dem er færdigt, eller stop det, og prøv igen.`,
  notRetryable: "Kun et svar, der fejlede eller blev stoppet, kan genereres igen",
  notAnswer: "Kun assistentens svar kan stoppes, genereres igen eller bedømmes",
  feedbackRating: "Bedømmelsen skal være 'up' eller 'down'",
  feedbackTooLong: "Kommentaren må højst være 2.000 tegn",
  searchTooLong: "Søgningen må højst være 200 tegn",
  interrupted: "Svaret blev afbrudt, fordi serveren genstartede. Prøv igen.",
  sessionDeleted: "Samtalen blev slettet.",
  shuttingDown: "Serveren lukker ned. Prøv igen om lidt.",
} as const;

export const NEW_SESSION_TITLE = "Ny chat";
export const FEEDBACK_COMMENT_MAX_LENGTH = 2_000;
export const SEARCH_QUERY_MAX_LENGTH = 200;
const IN_PROGRESS: MessageStatus[] = ["pending", "streaming"];
const LANGUAGE_CACHE_MS = 60_000;
/** history is context, not a condition: a failed lookup answers without it */
const noHistory = (err: unknown): HistoryTurn[] => {
  logger.warn({ err }, "chat: could not load earlier turns");
  return [];
};
const LANGUAGE_CACHE_MAX = 10_000;
/** the sendMessage response waits for its answer to get under way at most this long (slow retrieval) */
const RESPOND_AFTER_START_MAX_MS = 250;
/** background bookkeeping waits for answers on their way to the model at most this long */
const BOOKKEEPING_MAX_DELAY_MS = 2_000;

/** Resolves when `p` settles or after `ms`, whichever comes first (never rejects). */
function firstOf(p: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(t);
      resolve();
    };
    p.then(done, done);
  });
}

export interface ChatServiceDeps {
  config: AppConfig;
  /** the knowledge service's retrieval (answer-engine passages, relevance in [0, 1]) */
  retrieve: RetrieveFn;
  /** the LLM; default: built from config (OPENAI_*), none configured = retrieval-only */
  llm?: LlmClient | null;
  limits?: Partial<ChatLimits>;
}

export interface SendResult {
  session: ChatSessionView;
  userMessage: ChatMessageView;
  assistantMessage: ChatMessageView;
}

interface InFlight {
  userId: string;
  sessionId: string;
  controller: AbortController;
  done: Promise<void>;
}

/** The LLM from config: configured when OPENAI_BASE_URL or OPENAI_API_KEY is set. */
export function llmFromConfig(config: AppConfig, limits: ChatLimits): LlmClient | null {
  if (!config.openaiBaseUrl && !config.openaiApiKey) return null;
  return createLlmClient({
    // OpenAI-compatible local servers often need no key; the SDK insists on one
    apiKey: config.openaiApiKey ?? "not-needed",
    baseURL: config.openaiBaseUrl,
    model: config.openaiModel ?? DEFAULT_CHAT_MODEL,
    embeddingModel: config.openaiEmbeddingModel,
    timeoutMs: limits.llmTimeoutMs,
    firstTokenTimeoutMs: limits.llmFirstTokenTimeoutMs,
    maxRetries: limits.llmMaxRetries,
    maxRetryWaitMs: limits.llmMaxRetryWaitMs,
  });
}

function objectId(id: string): mongoose.Types.ObjectId | null {
  return typeof id === "string" && /^[a-f0-9]{24}$/i.test(id) ? new mongoose.Types.ObjectId(id) : null;
}

export class ChatService {
  readonly limits: ChatLimits;
  readonly llm: LlmClient | null;
  /** this process, on the messages it generates (crash recovery tells live answers from dead ones) */
  readonly workerId = `${process.pid}-${randomBytes(4).toString("hex")}`;
  private readonly inFlight = new Map<string, InFlight>();
  /** answers generating per user (reserved before the first await of a send) */
  private readonly slots = new Map<string, number>();
  /** userId → preferred language (see languageOf) */
  private readonly languages = new Map<string, { language: AnswerLanguage; at: number }>();
  private readonly preferenceEvents: AsyncIterator<unknown> | undefined;
  private readonly emails = new Map<string, string | null>();
  private readonly hub = new SessionEventHub(() => getPubSub().subscribe("CHAT_MESSAGE_EVENT"));
  private readonly recoveryTimer: NodeJS.Timeout;
  private recovering: Promise<number> = Promise.resolve(0);
  private closed = false;
  /** sends and retries on their way to the model: from the request until the answer got under way */
  private starting = 0;
  private readonly noneStarting = new Set<() => void>();
  /** work that outlives its request (activity log, the model's session title): whenIdle() and close() wait */
  private readonly background = new Set<Promise<void>>();
  /** aborted by close(): stops the model's session titles still being written */
  private readonly shutdown = new AbortController();

  constructor(private readonly deps: ChatServiceDeps) {
    this.limits = { ...DEFAULT_CHAT_LIMITS, ...deps.config.chatLimits, ...deps.limits };
    // every title being written listens for shutdown: many at once is normal, not a leak
    setMaxListeners(0, this.shutdown.signal);
    this.llm = deps.llm === undefined ? llmFromConfig(deps.config, this.limits) : deps.llm;
    // answers left pending/streaming by a crashed process become retryable errors: now and periodically
    this.recovering = this.recoverInterrupted();
    this.recoveryTimer = setInterval(() => {
      this.recovering = this.recoverInterrupted();
    }, this.limits.staleAfterMs);
    this.recoveryTimer.unref();
    // a saved preference (any tab) takes effect on the next question
    const events = getPubSub().subscribe("PREFERENCES_CHANGED")[Symbol.asyncIterator]();
    this.preferenceEvents = events;
    void (async () => {
      for (let e = await events.next(); !e.done; e = await events.next())
        this.languages.delete(e.value.userId);
    })().catch(() => undefined);
  }

  /** 'llm' when a language model is configured, else 'retrieval' (the embedded default). */
  get mode(): "llm" | "retrieval" {
    return this.llm ? "llm" : "retrieval";
  }

  // ---- sessions ------------------------------------------------------------------------------------

  /** Create a session ('Ny chat' unless a title is given). */
  async createSession(userId: string, title?: string | null): Promise<ChatSessionView> {
    const clean = title === undefined || title === null ? null : this.cleanTitle(title, true);
    const now = new Date();
    const doc = await ChatSessionModel.create({
      userId: this.userOid(userId),
      sessionId: randomUUID(),
      title: clean ?? NEW_SESSION_TITLE,
      // an explicit title other than the default counts as chosen by the user
      titled: clean !== null && clean !== NEW_SESSION_TITLE,
      hasMessages: false,
      createdAt: now,
      lastUpdated: now,
    });
    await recordActivity({
      action: "chat",
      description: "Bruger startede en ny chat",
      userId,
      userEmail: await this.emailOf(userId),
      metadata: { sessionId: doc.sessionId },
    });
    return presentSession(doc.toObject());
  }

  /** The user's sessions, most recently used first. */
  async listSessions(userId: string): Promise<ChatSessionView[]> {
    const docs = await ChatSessionModel.find({ userId: this.userOid(userId) })
      .sort({ lastUpdated: -1, _id: -1 })
      .lean();
    return docs.map(presentSession);
  }

  /** One session of the user; NOT_FOUND for another user's or an unknown id. */
  async getSession(userId: string, sessionId: string): Promise<ChatSessionView> {
    return presentSession(await this.ownSession(userId, sessionId));
  }

  /** Rename a session (1–60 characters after trimming). */
  async renameSession(userId: string, sessionId: string, title: string): Promise<ChatSessionView> {
    const clean = this.cleanTitle(title, false) as string;
    await this.ownSession(userId, sessionId);
    const doc = await ChatSessionModel.findOneAndUpdate(
      { sessionId, userId: this.userOid(userId) },
      { $set: { title: clean, titled: true, lastUpdated: new Date() } },
      { returnDocument: "after" },
    ).lean();
    if (!doc) throw Errors.notFound(chatMessages.sessionNotFound);
    return presentSession(doc);
  }

  /** Delete a session with its messages; answers still generating in it are stopped first. */
  async deleteSession(userId: string, sessionId: string): Promise<void> {
    await this.ownSession(userId, sessionId);
    const running = [...this.inFlight.values()].filter((f) => f.sessionId === sessionId);
    for (const f of running) f.controller.abort();
    await Promise.all(running.map((f) => f.done));
    await ChatMessageModel.deleteMany({ sessionId, userId: this.userOid(userId) });
    await ChatSessionModel.deleteOne({ sessionId, userId: this.userOid(userId) });
  }

  /**
   * 'Søg i samtaler': the user's sessions whose title or any message contains the text (case-insensitive,
   * literal: the text is escaped, never a pattern). Most recently used first.
   */
  async searchSessions(userId: string, query: string): Promise<ChatSessionView[]> {
    if (typeof query !== "string") throw Errors.badInput(chatMessages.searchTooLong);
    const q = query.trim();
    if (q.length > SEARCH_QUERY_MAX_LENGTH) {
      throw Errors.invalidFields([{ field: "query", message: chatMessages.searchTooLong }]);
    }
    if (!q) return this.listSessions(userId);
    const uid = this.userOid(userId);
    const re = { $regex: escapeRegExp(q), $options: "i" };
    const inMessages: string[] = await ChatMessageModel.distinct("sessionId", { userId: uid, content: re });
    const docs = await ChatSessionModel.find({
      userId: uid,
      $or: [{ title: re }, { sessionId: { $in: inMessages } }],
    })
      .sort({ lastUpdated: -1, _id: -1 })
      .lean();
    return docs.map(presentSession);
  }

  /** The session as a Markdown document. */
  async exportSession(userId: string, sessionId: string): Promise<string> {
    const session = await this.getSession(userId, sessionId);
    const messages = await this.listMessages(userId, sessionId);
    return sessionToMarkdown(session, messages);
  }

  // ---- messages ------------------------------------------------------------------------------------

  /**
   * The session's messages, oldest first. `includeInProgress: false` (REST) leaves out answers still being
   * generated: old clients poll until the last message is the assistant's, so it must appear only when done.
   */
  async listMessages(
    userId: string,
    sessionId: string,
    { includeInProgress = true }: { includeInProgress?: boolean } = {},
  ): Promise<ChatMessageView[]> {
    await this.ownSession(userId, sessionId);
    const filter: Record<string, unknown> = { sessionId, userId: this.userOid(userId) };
    if (!includeInProgress) filter.status = { $nin: IN_PROGRESS };
    const docs = await ChatMessageModel.find(filter).sort({ timestamp: 1, _id: 1 }).lean();
    return docs.map(presentMessage);
  }

  /** One message of the user; NOT_FOUND for another user's or an unknown id. */
  async getMessage(userId: string, messageId: string): Promise<ChatMessageView> {
    return presentMessage(await this.ownMessage(userId, messageId));
  }

  /**
   * Send a question: validate, store it with a pending answer (and an untitled session's first title), and
   * start generating the answer in the background. Resolves when both messages are stored and the answer is
   * under way (at most RESPOND_AFTER_START_MAX_MS later); follow it on CHAT_MESSAGE_EVENT or by reading the
   * messages. The activity log's `message` and the model's session title follow in the background, after the
   * model requests of the questions arriving now (whenIdle() waits for them). Refused with TOO_MANY_REQUESTS
   * when the user already has `maxInFlightPerUser` answers generating (nothing is stored then).
   */
  sendMessage(userId: string, sessionId: string, content: unknown): Promise<SendResult> {
    return this.track(this.send(userId, sessionId, content));
  }

  private async send(userId: string, sessionId: string, content: unknown): Promise<SendResult> {
    const valid = validateChatMessage(content);
    if (!valid.ok) throw Errors.invalidFields([{ field: "content", message: valid.message }]);
    if (this.closed) throw new AppError("INTERNAL_SERVER_ERROR", chatMessages.shuttingDown);
    const release = this.reserveSlot(userId);
    const starting = this.beginStarting();
    let started = false;
    try {
      const uid = this.userOid(userId);
      const now = new Date();
      const userMessage = new ChatMessageModel({
        userId: uid,
        sessionId,
        role: "user",
        content: valid.content,
        timestamp: now,
      });
      const assistant = new ChatMessageModel({
        userId: uid,
        sessionId,
        role: "assistant",
        content: "",
        // after the question, also when both land in the same millisecond
        timestamp: new Date(now.getTime() + 1),
        replyTo: userMessage._id,
        status: "pending",
        mode: this.mode,
        worker: this.workerId,
        heartbeatAt: now,
      });
      // In parallel: the ownership check with "last used" (the session as it was before), the turns before it
      // (read by owner: another user's session gives none) and the user's language.
      const [session, history, language] = await Promise.all([
        this.ownSession(userId, sessionId, { touch: now }),
        this.historyBefore(sessionId, userId, now).catch(noHistory),
        this.languageOf(userId),
      ]);
      // the first question names the session: its first words now, the model's title later (in the background)
      const title = session.titled ? session.title : fallbackSessionTitle(valid.content);
      // The retrieval runs beside the insert; the model is asked once the question is stored. One ordered insert
      // stores the question first: if it fails, no answer is stored (and the caller gets the error, keeping
      // its text).
      const retrieve = prefetchRetrieval(valid.content, history, this.deps.retrieve);
      await Promise.all([
        ChatMessageModel.insertMany([userMessage, assistant], { ordered: true }),
        session.titled
          ? undefined
          : ChatSessionModel.updateOne(
              { sessionId, userId: uid, titled: false },
              { $set: { title, titled: true } },
            ).catch((err) => logger.warn({ err, sessionId }, "chat: session title not saved")),
      ]);
      const assistantView = presentMessage(assistant.toObject());
      const answerStarted = this.startAnswer(
        assistantView,
        userId,
        valid.content,
        history,
        language,
        release,
        retrieve,
      );
      started = true;
      void answerStarted.then(starting);

      // Bookkeeping the first token does not wait for: in the background, after the answers on their way to the
      // model have been sent off (whenIdle() and close() wait for it). A failure is logged, not reported.
      const sendId = String(userMessage._id);
      const titleByModel = !session.titled && this.llm !== null;
      this.inBackground(async () => {
        await answerStarted;
        await this.untilNoneStarting();
        await Promise.all([
          titleByModel ? this.nameSessionWithLlm(sessionId, uid, valid.content, language) : undefined,
          this.emailOf(userId).then((email) =>
            recordActivity({
              action: "message",
              description: "Bruger sendte en besked til AI-assistenten",
              userId,
              userEmail: email,
              metadata: { sessionId, messageId: sendId, length: valid.content.length },
            }),
          ),
        ]);
      }, "chat: activity or session title not saved");

      // answer the mutation once the answer is under way (its model request sent), not before: the response is
      // work the first token need not wait for. Bounded, in case retrieval is slow (an index still loading).
      await firstOf(answerStarted, RESPOND_AFTER_START_MAX_MS);
      return {
        session: presentSession({ ...session, title, lastUpdated: now }),
        userMessage: presentMessage(userMessage.toObject()),
        assistantMessage: assistantView,
      };
    } catch (err) {
      if (!started) {
        release();
        starting();
      }
      throw err;
    }
  }

  /**
   * Stop generating an answer: the text so far is kept and the message is marked stopped. An answer that is
   * already finished is returned unchanged.
   */
  async stopMessage(userId: string, messageId: string): Promise<ChatMessageView> {
    const msg = await this.ownMessage(userId, messageId);
    if (msg.role !== "assistant") throw Errors.badInput(chatMessages.notAnswer);
    const running = this.inFlight.get(messageId);
    if (running) {
      running.controller.abort();
      await running.done;
    } else if (IN_PROGRESS.includes(msg.status as MessageStatus)) {
      // generating in a process that is gone (or another one): mark it stopped here
      const doc = await ChatMessageModel.findOneAndUpdate(
        { _id: msg._id, status: { $in: IN_PROGRESS } },
        { $set: { status: "stopped", worker: null } },
        { returnDocument: "after" },
      ).lean();
      if (doc) this.emit("STOPPED", presentMessage(doc), String(msg.userId));
    }
    return this.getMessage(userId, messageId);
  }

  /**
   * Generate an answer again (after an error or a stop) from the same question, with the turns before it.
   * The message keeps its id and place in the conversation.
   */
  retryMessage(userId: string, messageId: string): Promise<ChatMessageView> {
    return this.track(this.retry(userId, messageId));
  }

  private async retry(userId: string, messageId: string): Promise<ChatMessageView> {
    if (this.closed) throw new AppError("INTERNAL_SERVER_ERROR", chatMessages.shuttingDown);
    const msg = await this.ownMessage(userId, messageId);
    if (msg.role !== "assistant") throw Errors.badInput(chatMessages.notAnswer);
    if (msg.status !== "error" && msg.status !== "stopped") throw Errors.conflict(chatMessages.notRetryable);
    const question = msg.replyTo ? await ChatMessageModel.findById(msg.replyTo).lean() : null;
    if (!question) throw Errors.notFound(chatMessages.messageNotFound);
    const release = this.reserveSlot(userId);
    const starting = this.beginStarting();
    let started = false;
    try {
      const [history, language] = await Promise.all([
        this.historyBefore(msg.sessionId, userId, question.timestamp).catch(noHistory),
        this.languageOf(userId),
      ]);
      const doc = await ChatMessageModel.findOneAndUpdate(
        { _id: msg._id, status: { $in: ["error", "stopped"] } },
        {
          $set: {
            status: "pending",
            content: "",
            citations: [],
            usedNumbers: [],
            error: null,
            knowledgeGap: false,
            freshnessWarnings: [],
            feedback: null,
            mode: this.mode,
            worker: this.workerId,
            heartbeatAt: new Date(),
          },
        },
        { returnDocument: "after" },
      ).lean();
      // someone else retried it at the same moment
      if (!doc) throw Errors.conflict(chatMessages.notRetryable);
      const view = presentMessage(doc);
      const answerStarted = this.startAnswer(
        view,
        userId,
        question.content ?? "",
        history,
        language,
        release,
        this.deps.retrieve,
      );
      started = true;
      void answerStarted.then(starting);
      return view;
    } catch (err) {
      if (!started) {
        release();
        starting();
      }
      throw err;
    }
  }

  /** Thumbs up/down with an optional comment on an assistant message (its owner only). */
  async setFeedback(
    userId: string,
    messageId: string,
    rating: string,
    comment?: string | null,
  ): Promise<ChatMessageView> {
    if (rating !== "up" && rating !== "down") {
      throw Errors.invalidFields([{ field: "rating", message: chatMessages.feedbackRating }]);
    }
    const text = typeof comment === "string" ? comment.trim() : "";
    if (text.length > FEEDBACK_COMMENT_MAX_LENGTH) {
      throw Errors.invalidFields([{ field: "comment", message: chatMessages.feedbackTooLong }]);
    }
    const msg = await this.ownMessage(userId, messageId);
    if (msg.role !== "assistant") throw Errors.badInput(chatMessages.notAnswer);
    const doc = await ChatMessageModel.findOneAndUpdate(
      { _id: msg._id },
      { $set: { feedback: { rating, comment: text || null, at: new Date() } } },
      { returnDocument: "after" },
    ).lean();
    if (!doc) throw Errors.notFound(chatMessages.messageNotFound);
    return presentMessage(doc);
  }

  /** Knowledge gaps, newest first (for the admin). */
  async listKnowledgeGaps(limit = 100) {
    const docs = await KnowledgeGapModel.find({})
      .sort({ timestamp: -1, _id: -1 })
      .limit(Math.min(Math.max(limit, 1), 1000))
      .lean();
    return docs.map((d) => ({
      id: String(d._id),
      question: d.question,
      userId: String(d.userId),
      sessionId: d.sessionId,
      timestamp: d.timestamp,
    }));
  }

  /**
   * Mark answers left pending/streaming by a dead process as retryable errors: those whose last heartbeat is
   * older than `staleAfterMs` and that are not generating in this process. Safe with several live processes
   * (their answers keep beating). Returns how many were marked.
   */
  async recoverInterrupted(staleAfterMs = this.limits.staleAfterMs): Promise<number> {
    if (this.closed || mongoose.connection.readyState !== 1) return 0;
    try {
      const res = await ChatMessageModel.updateMany(
        {
          role: "assistant",
          status: { $in: IN_PROGRESS },
          _id: { $nin: [...this.inFlight.keys()].map((id) => new mongoose.Types.ObjectId(id)) },
          $or: [{ heartbeatAt: null }, { heartbeatAt: { $lt: new Date(Date.now() - staleAfterMs) } }],
        },
        {
          $set: {
            status: "error",
            error: { code: "INTERRUPTED", message: chatMessages.interrupted, retryable: true },
            worker: null,
          },
        },
      );
      if (res.modifiedCount > 0)
        logger.warn({ count: res.modifiedCount }, "marked interrupted chat answers as errors");
      return res.modifiedCount;
    } catch (err) {
      logger.error({ err }, "chat recovery failed");
      return 0;
    }
  }

  /**
   * The live events of one of the user's sessions (CREATED, each DELTA, COMPLETED/STOPPED/ERROR), for the
   * subscription. NOT_FOUND for another user's or an unknown session, checked when subscribing.
   */
  async sessionEvents(
    userId: string,
    sessionId: string,
  ): Promise<AsyncIterableIterator<ChatMessageEventPayload>> {
    await this.ownSession(userId, sessionId);
    return this.hub.events(sessionId, userId);
  }

  /** Live subscriptions to session events in this process. */
  subscriberCount(): number {
    return this.hub.listenerCount();
  }

  /** Answers generating in this process right now (all users, or one). */
  inFlightCount(userId?: string): number {
    if (!userId) return this.inFlight.size;
    let n = 0;
    for (const f of this.inFlight.values()) if (f.userId === userId) n++;
    return n;
  }

  /**
   * Resolves when every answer generating now (or started meanwhile) is stored, with the bookkeeping of its
   * question (activity log, session title). For tests and shutdown.
   */
  async whenIdle(): Promise<void> {
    while (this.inFlight.size > 0 || this.background.size > 0) {
      await Promise.all([...[...this.inFlight.values()].map((f) => f.done), ...this.background]);
    }
  }

  /**
   * Stop: new questions are refused, every answer is stopped (kept as stopped), and nothing of the service
   * outlives this: the recovery timer and pass, subscriptions, sends under way, background bookkeeping.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.recoveryTimer);
    this.releaseNoneStarting();
    this.shutdown.abort();
    await this.recovering;
    await this.preferenceEvents?.return?.();
    await this.hub.close();
    // a send under way starts its answer after the insert: stop those too, until nothing is left
    while (this.inFlight.size > 0 || this.background.size > 0) {
      for (const f of this.inFlight.values()) f.controller.abort();
      await Promise.all([...[...this.inFlight.values()].map((f) => f.done), ...this.background]);
    }
  }

  // ---- internals -----------------------------------------------------------------------------------

  private userOid(userId: string): mongoose.Types.ObjectId {
    const oid = objectId(userId);
    if (!oid) throw Errors.unauthenticated();
    return oid;
  }

  /** The user's session (as it was before `touch` set its lastUpdated); NOT_FOUND otherwise. */
  private async ownSession(userId: string, sessionId: string, { touch }: { touch?: Date } = {}) {
    if (typeof sessionId !== "string" || !sessionId || sessionId.length > 100) {
      throw Errors.notFound(chatMessages.sessionNotFound);
    }
    const filter = { sessionId, userId: this.userOid(userId) };
    const doc = touch
      ? await ChatSessionModel.findOneAndUpdate(
          filter,
          { $set: { lastUpdated: touch, hasMessages: true } },
          { returnDocument: "before" },
        ).lean()
      : await ChatSessionModel.findOne(filter).lean();
    if (!doc) throw Errors.notFound(chatMessages.sessionNotFound);
    return doc;
  }

  private async ownMessage(userId: string, messageId: string) {
    const oid = objectId(messageId);
    if (!oid) throw Errors.notFound(chatMessages.messageNotFound);
    const doc = await ChatMessageModel.findOne({ _id: oid, userId: this.userOid(userId) }).lean();
    if (!doc) throw Errors.notFound(chatMessages.messageNotFound);
    return doc;
  }

  private cleanTitle(title: unknown, allowEmpty: boolean): string | null {
    if (typeof title !== "string")
      throw Errors.invalidFields([{ field: "title", message: chatMessages.titleEmpty }]);
    const t = title.replace(/\s+/g, " ").trim();
    if (!t) {
      if (allowEmpty) return null;
      throw Errors.invalidFields([{ field: "title", message: chatMessages.titleEmpty }]);
    }
    if (t.length > SESSION_TITLE_MAX_LENGTH) {
      throw Errors.invalidFields([{ field: "title", message: chatMessages.titleTooLong }]);
    }
    return t;
  }

  /** Count a send (or retry) as on its way to the model; the returned function ends that (idempotent). */
  private beginStarting(): () => void {
    this.starting++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.starting--;
      if (this.starting === 0) this.releaseNoneStarting();
    };
  }

  private releaseNoneStarting(): void {
    for (const resolve of [...this.noneStarting]) resolve();
  }

  /**
   * Resolves when no send is on its way to the model (or after BOOKKEEPING_MAX_DELAY_MS, or at close). When 50
   * questions arrive at once, their bookkeeping then runs while the model thinks, not before the last request.
   */
  private untilNoneStarting(): Promise<void> {
    if (this.starting === 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.noneStarting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, BOOKKEEPING_MAX_DELAY_MS);
      this.noneStarting.add(done);
    });
  }

  /** Keep `p` in `background` until it settles (whenIdle() and close() wait for it). */
  private track<T>(p: Promise<T>): Promise<T> {
    const settled: Promise<void> = p.then(
      () => undefined,
      () => undefined,
    );
    this.background.add(settled);
    void settled.then(() => this.background.delete(settled));
    return p;
  }

  /** Run `work` in the background (tracked); a failure is logged as a warning with `failure`. */
  private inBackground(work: () => Promise<unknown>, failure: string): void {
    void this.track(work().catch((err) => logger.warn({ err }, failure)));
  }

  /** Take one of the user's answer slots synchronously (no await between check and take); returns release. */
  private reserveSlot(userId: string): () => void {
    const key = userId;
    const used = this.slots.get(key) ?? 0;
    if (used >= this.limits.maxInFlightPerUser) {
      throw new AppError("TOO_MANY_REQUESTS", chatMessages.tooManyAnswers(used), { retryAfter: 5 });
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

  /** The user's e-mail for the activity log (an account's e-mail never changes, so it is cached). */
  private async emailOf(userId: string): Promise<string | null> {
    const cached = this.emails.get(userId);
    if (cached !== undefined) return cached;
    const user = await mongoose.connection
      .collection("users")
      .findOne({ _id: this.userOid(userId) }, { projection: { email: 1 } });
    const email = (user?.email as string | undefined) ?? null;
    if (this.emails.size >= LANGUAGE_CACHE_MAX) this.emails.clear();
    if (email) this.emails.set(userId, email);
    return email;
  }

  /** The user's answer language; cached briefly (saved preferences drop the entry at once). */
  private async languageOf(userId: string): Promise<AnswerLanguage> {
    const cached = this.languages.get(userId);
    if (cached && Date.now() - cached.at < LANGUAGE_CACHE_MS) return cached.language;
    try {
      const language: AnswerLanguage = (await getPreferences(userId)).language === "en" ? "en" : "da";
      if (this.languages.size >= LANGUAGE_CACHE_MAX) this.languages.clear();
      this.languages.set(userId, { language, at: Date.now() });
      return language;
    } catch {
      return "da";
    }
  }

  private async nameSessionWithLlm(
    sessionId: string,
    userId: mongoose.Types.ObjectId,
    question: string,
    language: AnswerLanguage,
  ): Promise<void> {
    try {
      const title = await suggestSessionTitle(question, {
        llm: this.llm ?? undefined,
        language,
        signal: this.shutdown.signal,
      });
      if (this.closed) return;
      // only if nobody renamed it meanwhile (the fallback title is still there)
      await ChatSessionModel.updateOne(
        { sessionId, userId, title: fallbackSessionTitle(question) },
        { $set: { title } },
      );
    } catch (err) {
      logger.warn({ err, sessionId }, "could not name chat session");
    }
  }

  private emit(
    type: ChatMessageEventType,
    message: ChatMessageView,
    userId: string,
    delta: string | null = null,
  ) {
    const payload: ChatMessageEventPayload = {
      type,
      sessionId: message.sessionId,
      userId,
      messageId: message.id,
      delta,
      message: type === "DELTA" ? null : message,
    };
    publish("CHAT_MESSAGE_EVENT", payload);
  }

  /** The turns before the question (complete answers and kept partial ones), oldest first. */
  private async historyBefore(sessionId: string, userId: string, before: Date): Promise<HistoryTurn[]> {
    const docs = await ChatMessageModel.find({
      sessionId,
      userId: this.userOid(userId),
      timestamp: { $lt: before },
    })
      .sort({ timestamp: -1, _id: -1 })
      .limit(this.limits.historyMessages)
      .lean();
    return docs
      .reverse()
      .filter((d) => d.role === "user" || d.status === "complete" || (d.status === "stopped" && d.content))
      .map((d) => ({ role: d.role as HistoryTurn["role"], content: d.content ?? "" }));
  }

  /**
   * Generate the answer in the background. Resolves when it is under way (its model request sent, or decided
   * without the model) or over. CREATED is published then, after the request has left, and always before the
   * answer's first DELTA and its outcome event.
   */
  private startAnswer(
    message: ChatMessageView,
    userId: string,
    question: string,
    history: HistoryTurn[],
    language: AnswerLanguage,
    release: () => void,
    retrieve: RetrieveFn,
  ): Promise<void> {
    const controller = new AbortController();
    if (this.closed) controller.abort();
    const entry: InFlight = { userId, sessionId: message.sessionId, controller, done: Promise.resolve() };
    this.inFlight.set(message.id, entry);
    let created = false;
    const announce = () => {
      if (created) return;
      created = true;
      this.emit("CREATED", message, userId);
    };
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    entry.done = this.runAnswer(message, userId, question, history, language, retrieve, controller.signal, {
      announce,
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

  private async runAnswer(
    message: ChatMessageView,
    userId: string,
    question: string,
    history: HistoryTurn[],
    language: AnswerLanguage,
    retrieve: RetrieveFn,
    signal: AbortSignal,
    hooks: { announce: () => void; onStarted: () => void },
  ): Promise<void> {
    const id = new mongoose.Types.ObjectId(message.id);
    let partial = "";
    let dirty = false;
    // Save the partial text and show life every heartbeat (readers see progress, recovery sees we are alive).
    // Not per token: every write competes with other users' questions for the store.
    const beat = setInterval(() => {
      const set: Record<string, unknown> = { heartbeatAt: new Date() };
      if (dirty) {
        set.content = partial;
        set.status = "streaming";
        dirty = false;
      }
      void ChatMessageModel.updateOne({ _id: id, status: { $in: IN_PROGRESS } }, { $set: set }).catch(
        () => undefined,
      );
    }, this.limits.heartbeatMs);
    beat.unref();

    let result: AnswerResult;
    try {
      result = await answerQuestion({
        question,
        history,
        language,
        retrieve,
        llm: this.llm ?? undefined,
        signal,
        staleDays: this.deps.config.knowledgeStaleDays,
        onStarted: hooks.onStarted,
        onDelta: (delta) => {
          partial += delta;
          dirty = true;
          hooks.announce();
          publish("CHAT_MESSAGE_EVENT", {
            type: "DELTA",
            sessionId: message.sessionId,
            userId,
            messageId: message.id,
            delta,
            message: null,
          });
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
          message: "AI-assistenten er ikke tilgængelig i øjeblikket. Prøv igen om lidt.",
          retryable: true,
        },
        knowledgeGap: false,
        freshnessWarnings: [],
        retrievalQuery: question,
        sources: [],
      };
    } finally {
      clearInterval(beat);
    }

    if (result.error) {
      logger.warn(
        { messageId: message.id, code: result.error.code, detail: result.error.detail },
        "chat answer failed",
      );
    }
    const doc = await ChatMessageModel.findOneAndUpdate(
      { _id: id },
      {
        $set: {
          content: result.content,
          status: result.status,
          citations: result.citations.map((c) => ({
            ...c,
            url: c.url ?? null,
            updatedAt: c.updatedAt ?? null,
          })),
          usedNumbers: result.usedNumbers,
          mode: result.mode,
          error: result.error
            ? { code: result.error.code, message: result.error.message, retryable: result.error.retryable }
            : null,
          knowledgeGap: result.knowledgeGap,
          freshnessWarnings: result.freshnessWarnings,
          worker: null,
          heartbeatAt: new Date(),
        },
      },
      { returnDocument: "after" },
    ).lean();
    if (!doc) return; // the session was deleted meanwhile
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
    this.emit(type, presentMessage(doc), userId);
  }
}

/**
 * Sending and everything done to an answer afterwards: send, retry, stop and feedback.
 *
 * Sending: one store round trip claims the question's place (chat.send-claim.ts), then the model is asked while
 * the user message is stored together with the assistant message as pending (nothing is lost: the answer's
 * events wait for that write, and a failed write stops the answer), and the runner generates the answer in the
 * background. Only what the first token needs comes before the model request; the activity log's `message` and
 * the model's session title come after it, in the background (tracked: whenIdle() and close() wait for them).
 */
import { setMaxListeners } from "node:events";
import type mongoose from "mongoose";
import { ACTIVITY_BACKGROUND_WAIT_MS, recordActivity } from "../activity/activity.service";
import { AppError, Errors } from "../errors";
import type { LlmClient } from "../llm";
import { logger } from "../logger";
import {
  type AnswerLanguage,
  fallbackSessionTitle,
  prefetchRetrieval,
  suggestSessionTitle,
  validateChatMessage,
} from "./answer";
import {
  type BranchContext,
  type BranchResult,
  editQuestion,
  newQuestionParent,
  regenerateAnswer,
} from "./chat.branches";
import type { ChatUserCache } from "./chat.cache";
import { historyFor, loadHistoryTree } from "./chat.history";
import type { ChatLimits } from "./chat.limits";
import { ChatMessageModel, ChatSessionModel, type MessageStatus } from "./chat.model";
import { ownMessage } from "./chat.ownership";
import { countAddedPlaces } from "./chat.pages";
import { mayBeKept } from "./chat.place-cache";
import { type ChatMessageView, type ChatSessionView, presentMessage, presentSession } from "./chat.presenter";
import type { RetrieveFn } from "./chat.retrieval";
import { cleanFeedback, IN_PROGRESS, objectId, userOid } from "./chat.rules";
import type { AnswerRunner } from "./chat.runner";
import { type ChatScopeInput, ChatScopes, NO_SCOPE_SOURCES, scopedRetrieve } from "./chat.scope";
import { scopeNote, storedScope } from "./chat.scope-view";
import { claimSend, noTree } from "./chat.send-claim";
import { modelCollection } from "./chat.store";
import { asLean, newTurn } from "./chat.turn";

/** the sendMessage response waits for its answer to get under way at most this long (slow retrieval) */
export const RESPOND_AFTER_START_MAX_MS = 250;
/** background bookkeeping waits for answers on their way to the model at most this long */
export const BOOKKEEPING_MAX_DELAY_MS = 2_000;

export interface SendResult {
  session: ChatSessionView;
  userMessage: ChatMessageView;
  assistantMessage: ChatMessageView;
}

export interface ChatSenderDeps {
  /** the knowledge service's retrieval */
  retrieve: RetrieveFn;
  llm: LlmClient | null;
  limits: ChatLimits;
  runner: AnswerRunner;
  users: ChatUserCache;
  /** the sessions' scopes (chat.scope.ts); default: none known */
  scopes?: ChatScopes;
}

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

export class ChatSender {
  private closed = false;
  /** sends and retries on their way to the model: from the request until the answer got under way */
  private starting = 0;
  private readonly noneStarting = new Set<() => void>();
  /** work that outlives its request (activity log, the model's session title): whenIdle() and close() wait */
  private readonly background = new Set<Promise<void>>();
  /** aborted by close(): stops the model's session titles still being written */
  private readonly shutdown = new AbortController();

  private readonly scopes: ChatScopes;

  constructor(private readonly deps: ChatSenderDeps) {
    this.scopes = deps.scopes ?? new ChatScopes(NO_SCOPE_SOURCES);
    // every title being written listens for shutdown: many at once is normal, not a leak
    setMaxListeners(0, this.shutdown.signal);
  }

  /**
   * Send a question: validate, store it with a pending answer (and an untitled session's first title), and
   * start generating the answer in the background. Resolves when both messages are stored and the answer is
   * under way (at most RESPOND_AFTER_START_MAX_MS later). Refused with TOO_MANY_REQUESTS when the user already
   * has `maxInFlightPerUser` answers generating, and with CHAT_SESSION_FULL when the session has no room for the
   * question and its answer (`messagesPerSession`); nothing is stored then.
   */
  sendMessage(
    userId: string,
    sessionId: string,
    content: unknown,
    scope?: ChatScopeInput,
  ): Promise<SendResult> {
    return this.track(this.send(userId, sessionId, content, scope));
  }

  /**
   * Generate an answer again (after an error or a stop) from the same question, with the turns before it.
   * The message keeps its id and place in the conversation.
   */
  retryMessage(userId: string, messageId: string): Promise<ChatMessageView> {
    return this.track(this.retry(userId, messageId));
  }

  /**
   * Stop generating an answer: the text so far is kept and the message is marked stopped. An answer that is
   * already finished is returned unchanged.
   */
  async stopMessage(userId: string, messageId: string): Promise<ChatMessageView> {
    const msg = await ownMessage(userId, messageId);
    if (msg.role !== "assistant") throw Errors.badInput("chat.notAnswer");
    const stoppedHere = await this.deps.runner.stop(messageId);
    if (!stoppedHere && IN_PROGRESS.includes(msg.status as MessageStatus)) {
      // generating in a process that is gone (or another one): mark it stopped here
      const doc = await ChatMessageModel.findOneAndUpdate(
        { _id: msg._id, status: { $in: IN_PROGRESS } },
        { $set: { status: "stopped", worker: null } },
        { returnDocument: "after" },
      ).lean();
      if (doc) this.deps.runner.publishEvent("STOPPED", presentMessage(doc), String(msg.userId));
    }
    return presentMessage(await ownMessage(userId, messageId));
  }

  /** Edit a question: a new branch with its answer (chat.branches.ts); the same limits as a send. */
  editMessage(userId: string, messageId: string, content: unknown): Promise<BranchResult> {
    return this.track(editQuestion(this.branchContext(), userId, messageId, content));
  }

  /** A new answer beside an answer (chat.branches.ts); the same limits as a send. */
  regenerateMessage(userId: string, messageId: string): Promise<ChatMessageView> {
    return this.track(regenerateAnswer(this.branchContext(), userId, messageId));
  }

  private branchContext(): BranchContext {
    return {
      runner: this.deps.runner,
      users: this.deps.users,
      retrieve: this.deps.retrieve,
      scopes: this.scopes,
      limits: this.deps.limits,
      beginStarting: () => this.beginStarting(),
      closed: () => this.closed,
    };
  }

  /** Thumbs up/down with an optional comment on an assistant message (its owner only). */
  async setFeedback(
    userId: string,
    messageId: string,
    rating: string,
    comment?: string | null,
  ): Promise<ChatMessageView> {
    const feedback = cleanFeedback(rating, comment);
    const msg = await ownMessage(userId, messageId);
    if (msg.role !== "assistant") throw Errors.badInput("chat.notAnswer");
    const doc = await ChatMessageModel.findOneAndUpdate(
      { _id: msg._id },
      { $set: { feedback: { ...feedback, at: new Date() } } },
      { returnDocument: "after" },
    ).lean();
    if (!doc) throw Errors.notFound("chat.messageNotFound");
    return presentMessage(doc);
  }

  /** Each send, retry and piece of background bookkeeping under way, settling when it is done. */
  pending(): Promise<void>[] {
    return [...this.background];
  }

  /** Start closing: new questions are refused, bookkeeping stops waiting and titles being written stop. */
  close(): void {
    this.closed = true;
    this.releaseNoneStarting();
    this.shutdown.abort();
  }

  private async send(
    userId: string,
    sessionId: string,
    content: unknown,
    scopeInput?: ChatScopeInput,
  ): Promise<SendResult> {
    const valid = validateChatMessage(content);
    if (!valid.ok) throw Errors.invalidField("content", valid.key, valid.params);
    if (this.closed) throw new AppError("INTERNAL_SERVER_ERROR", "chat.shuttingDown");
    // a scope sent with the question is saved on the session first (and kept for the next questions)
    if (scopeInput) await this.scopes.setScope(userId, sessionId, scopeInput);
    const { runner, users } = this.deps;
    const uid = userOid(userId);
    const now = new Date();
    // plain documents, inserted through the driver (chat.turn.ts): no mongoose documents on the hot path
    const { question: userMessage, answer: assistant } = newTurn({
      userId: uid,
      sessionId,
      content: valid.content,
      now,
      mode: runner.mode,
      worker: runner.workerId,
    });
    // One round trip before the model is asked, in parallel: one of the user's answer slots, the ownership check
    // with "last used" (the session as it was before; the answer becomes the shown branch's end), the messages
    // before it (read by owner: another user's session gives none) and the user's language. The question goes
    // after the shown branch's end; its history is that branch.
    const { release, session, tree, language } = await claimSend(
      this.deps,
      userId,
      sessionId,
      now,
      assistant._id,
    );
    const starting = this.beginStarting();
    let started = false;
    try {
      const parent = newQuestionParent(session.activeLeafId, tree);
      userMessage.parentId = parent ? objectId(parent) : null;
      const history = await historyFor(tree, parent, this.deps.limits.historyMessages, userId);
      // the first question names the session: its first words now, the model's title later (in the background)
      const title = session.titled ? session.title : fallbackSessionTitle(valid.content);
      // the session's scope: retrieval sees only its articles, and the answer keeps the scope it was made in
      const scope = storedScope(session.scope);
      if (scope) assistant.scope = scope;
      const filter = await this.scopes.filterOf(userId, scope);
      // The model is asked while the question is being stored: the insert and the retrieval run beside the
      // model request, and the answer's events wait for the insert (the runner holds them until `stored`). One
      // ordered insert stores the question first: if it fails, no answer is stored, the model request is
      // stopped and the caller gets the error (keeping its text).
      const retrieve = prefetchRetrieval(valid.content, history, scopedRetrieve(this.deps.retrieve, filter));
      const stored = Promise.all([
        modelCollection(ChatMessageModel).insertMany([userMessage, assistant], { ordered: true }),
        session.titled
          ? undefined
          : ChatSessionModel.updateOne(
              { sessionId, userId: uid, titled: false },
              { $set: { title, titled: true } },
            ).catch((err) => logger.warn({ err, sessionId }, "chat: session title not saved")),
      ]).then(() => undefined);
      const assistantView = presentMessage(asLean(assistant));
      const answerStarted = runner.start(
        {
          message: assistantView,
          userId,
          question: valid.content,
          questionParentId: parent,
          history,
          language,
          retrieve,
          scopeNote: scopeNote(scope, language === "en" ? "en" : "da"),
          stored,
        },
        release,
      );
      started = true;
      void answerStarted.then(starting);
      await stored;
      // the session's places changed: trees other processes keep of it are read again (before the response, so
      // a page read after it holds the question). A session too short to be kept anywhere, even with the user's
      // other sends in flight, is not counted: no extra write on the send path of most chats.
      const known = tree.olderUnread || tree.readFailed ? null : tree.size;
      const counted = mayBeKept(known, 2 * this.deps.limits.maxInFlightPerUser)
        ? countAddedPlaces(sessionId, userId).catch((err) =>
            logger.warn({ err, sessionId }, "chat: new messages not counted on the session"),
          )
        : undefined;

      // Bookkeeping the first token does not wait for: in the background, after the answers on their way to the
      // model have been sent off (whenIdle() and close() wait for it). A failure is logged, not reported.
      const sendId = String(userMessage._id);
      const titleByModel = !session.titled && this.deps.llm !== null;
      this.inBackground(async () => {
        await answerStarted;
        await this.untilNoneStarting();
        await Promise.all([
          titleByModel ? this.nameSessionWithLlm(sessionId, uid, sendId, valid.content, language) : undefined,
          users.emailOf(userId).then((email) =>
            recordActivity(
              {
                action: "message",
                message: { key: "log.message" },
                userId,
                userEmail: email,
                metadata: { sessionId, messageId: sendId, length: valid.content.length },
              },
              { waitMs: ACTIVITY_BACKGROUND_WAIT_MS }, // one insert with the other sends of the moment
            ),
          ),
        ]);
      }, "chat: activity or session title not saved");

      // answer the mutation once the answer is under way (its model request sent), not before: the response is
      // work the first token need not wait for. Bounded, in case retrieval is slow (an index still loading).
      await Promise.all([firstOf(answerStarted, RESPOND_AFTER_START_MAX_MS), counted]);
      return {
        session: presentSession({ ...session, title, lastUpdated: now }),
        userMessage: presentMessage(asLean(userMessage)),
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

  private async retry(userId: string, messageId: string): Promise<ChatMessageView> {
    if (this.closed) throw new AppError("INTERNAL_SERVER_ERROR", "chat.shuttingDown");
    const { runner, users } = this.deps;
    const msg = await ownMessage(userId, messageId);
    if (msg.role !== "assistant") throw Errors.badInput("chat.notAnswer");
    if (msg.status !== "error" && msg.status !== "stopped") throw Errors.conflict("chat.notRetryable");
    const question = msg.replyTo ? await ChatMessageModel.findById(msg.replyTo).lean() : null;
    if (!question) throw Errors.notFound("chat.messageNotFound");
    const release = await runner.reserve(userId);
    const starting = this.beginStarting();
    let started = false;
    try {
      // the answer is made again in the scope it was made in
      const scope = storedScope(msg.scope);
      const [tree, language, filter] = await Promise.all([
        loadHistoryTree(msg.sessionId, userId).catch(noTree),
        users.languageOf(userId),
        this.scopes.filterOf(userId, scope),
      ]);
      const questionParentId = tree.parent(String(question._id));
      const history = await historyFor(tree, questionParentId, this.deps.limits.historyMessages, userId);
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
            mode: runner.mode,
            worker: runner.workerId,
            heartbeatAt: new Date(),
          },
        },
        { returnDocument: "after" },
      ).lean();
      // someone else retried it at the same moment
      if (!doc) throw Errors.conflict("chat.notRetryable");
      const view = presentMessage(doc);
      const answerStarted = runner.start(
        {
          message: view,
          userId,
          question: question.content ?? "",
          questionParentId,
          history,
          language,
          retrieve: scopedRetrieve(this.deps.retrieve, filter),
          scopeNote: scopeNote(scope, language === "en" ? "en" : "da"),
        },
        release,
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

  /** The model's title for a new session, in its place unless the user renamed it meanwhile; subscribers hear of it. */
  private async nameSessionWithLlm(
    sessionId: string,
    userId: mongoose.Types.ObjectId,
    questionId: string,
    question: string,
    language: AnswerLanguage,
  ): Promise<void> {
    try {
      const title = await suggestSessionTitle(question, {
        llm: this.deps.llm ?? undefined,
        language,
        signal: this.shutdown.signal,
      });
      if (this.closed) return;
      // only if nobody renamed it meanwhile (the fallback title is still there)
      const { modifiedCount } = await ChatSessionModel.updateOne(
        { sessionId, userId, title: fallbackSessionTitle(question) },
        { $set: { title } },
      );
      // the session list the user has open read the fallback title, maybe after the answer ended: it reads again
      if (modifiedCount === 1) this.deps.runner.publishTitled(sessionId, String(userId), questionId, title);
    } catch (err) {
      logger.warn({ err, sessionId }, "could not name chat session");
    }
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

  /** Keep `p` in `background` until it settles (pending() lists it). */
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
}

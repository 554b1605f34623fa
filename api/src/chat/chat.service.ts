/**
 * The chat assistant: sessions, messages and answers. GraphQL, REST and the CLI call these methods with the
 * signed-in user's id. The service is a facade over the files that each do one job:
 *
 * - chat.rules.ts     the checks and Danish messages (titles, search, feedback), written once
 * - chat.sessions.ts  sessions and their messages: CRUD, ownership (NOT_FOUND for another user's), search, export
 * - chat.send.ts      send / retry / stop / feedback, and the bookkeeping that follows a send
 * - chat.runner.ts    the answers generating in this process: per-user slots, heartbeat, crash recovery, events
 * - chat.cache.ts     what the chat remembers about users (e-mail, language), from the users module
 * - chat.events.ts    per-session delivery of the live events to subscriptions
 *
 * Answering (sendMessage): the user message is stored first (nothing is lost) together with the assistant
 * message as pending, and the answer runs in the background: retrieval → LLM (or retrieval-only) → deltas
 * published on CHAT_MESSAGE_EVENT → the final message stored with its citations. A failure or a stop is stored
 * on the assistant message (status error / stopped) and can be retried.
 */
import type { AppConfig } from "../config";
import type { EventBus } from "../events/bus";
import { createInProcessBus } from "../events/in-process";
import { PROCESS_ID } from "../events/origin";
import { createLlmClient, type LlmClient } from "../llm";
import { switchBranch } from "./chat.branches";
import { ChatUserCache, type ChatUserDirectory } from "./chat.cache";
import { followForCatchUp } from "./chat.catch-up";
import { type ChatMessageEventPayload, SessionEventHub } from "./chat.events";
import { type ChatLimits, DEFAULT_CHAT_LIMITS, DEFAULT_CHAT_MODEL } from "./chat.limits";
import { ownSession } from "./chat.ownership";
import type { MessagePage } from "./chat.pages";
import type { ChatMessageView, ChatSessionView } from "./chat.presenter";
import type { RetrieveFn } from "./chat.retrieval";
import { AnswerRunner } from "./chat.runner";
import { type ChatScopeInput, type ChatScopeSources, ChatScopes, NO_SCOPE_SOURCES } from "./chat.scope";
import { ChatSender, type SendResult } from "./chat.send";
import { ChatSessions, type MessagePageQuery } from "./chat.sessions";
import { StoreAnswerSlots } from "./chat.slots";

export type { ChatUserDirectory } from "./chat.cache";
export {
  FEEDBACK_COMMENT_MAX_LENGTH,
  NEW_SESSION_TITLE,
  SEARCH_QUERY_MAX_LENGTH,
} from "./chat.rules";
export type { SendResult } from "./chat.send";

export interface ChatServiceDeps {
  config: AppConfig;
  /** the knowledge service's retrieval (answer-engine passages, relevance in [0, 1]) */
  retrieve: RetrieveFn;
  /** what the chat needs to know about users (e-mail, language), from the users module */
  users: ChatUserDirectory;
  /** the LLM; default: built from config (OPENAI_*), none configured = retrieval-only */
  llm?: LlmClient | null;
  limits?: Partial<ChatLimits>;
  /** the app's event bus (answer events out, saved preferences in); default: one of its own (tests, bench) */
  events?: EventBus;
  /** several processes share the store: answers in flight are counted there too (chat.slots.ts) */
  sharedStore?: boolean;
  /** a session was deleted: other features remove what they hold of it (wired in services.ts) */
  sessionDeleted?: (sessionId: string) => Promise<void>;
  /** a knowledge article's Markdown (follow-up questions from its headings); absent: the passages' headings */
  articleText?: (articleId: string) => Promise<string | null>;
  /** articles, categories and bookmarks for the scope of a question (default: none known) */
  scopeSources?: ChatScopeSources;
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

export class ChatService {
  readonly limits: ChatLimits;
  readonly llm: LlmClient | null;
  private readonly users: ChatUserCache;
  private readonly runner: AnswerRunner;
  private readonly sessions: ChatSessions;
  private readonly sender: ChatSender;
  private readonly hub: SessionEventHub;
  private readonly stopFollowing: () => void;
  private readonly scopes: ChatScopes;

  constructor(deps: ChatServiceDeps) {
    const followed = followForCatchUp(deps.events ?? createInProcessBus());
    this.stopFollowing = followed.stop;
    const events = followed.events;
    const listen = events.listen;
    this.hub = new SessionEventHub(
      () => events.subscribe("CHAT_MESSAGE_EVENT"),
      listen && ((sessionId) => listen("CHAT_MESSAGE_EVENT", sessionId)),
    );
    this.limits = { ...DEFAULT_CHAT_LIMITS, ...deps.config.chatLimits, ...deps.limits };
    this.llm = deps.llm === undefined ? llmFromConfig(deps.config, this.limits) : deps.llm;
    this.runner = new AnswerRunner({
      config: deps.config,
      llm: this.llm,
      limits: this.limits,
      events,
      storeSlots: deps.sharedStore ? new StoreAnswerSlots(PROCESS_ID) : undefined,
      articleText: deps.articleText,
    });
    this.users = new ChatUserCache(deps.users, { events });
    this.sessions = new ChatSessions({
      emailOf: (userId) => this.users.emailOf(userId),
      stopAnswersIn: (sessionId) => this.runner.stopSession(sessionId),
      sessionDeleted: deps.sessionDeleted,
      sessionsPerUser: this.limits.sessionsPerUser,
    });
    this.scopes = new ChatScopes(deps.scopeSources ?? NO_SCOPE_SOURCES);
    this.sender = new ChatSender({
      scopes: this.scopes,
      retrieve: deps.retrieve,
      llm: this.llm,
      limits: this.limits,
      runner: this.runner,
      users: this.users,
    });
  }

  /** this process, on the messages it generates (crash recovery tells live answers from dead ones) */
  get workerId(): string {
    return this.runner.workerId;
  }

  /** 'llm' when a language model is configured, else 'retrieval' (the embedded default). */
  get mode(): "llm" | "retrieval" {
    return this.runner.mode;
  }

  // ---- sessions (chat.sessions.ts) ------------------------------------------------------------------

  /**
   * Create a session (NEW_SESSION_TITLE unless a title is given). CHAT_SESSION_LIMIT when the user has
   * `limits.sessionsPerUser` sessions already (chat.session-count.ts).
   */
  createSession(userId: string, title?: string | null): Promise<ChatSessionView> {
    return this.sessions.createSession(userId, title);
  }

  /** The user's sessions, most recently used first. */
  listSessions(userId: string): Promise<ChatSessionView[]> {
    return this.sessions.listSessions(userId);
  }

  /** One session of the user; NOT_FOUND for another user's or an unknown id. */
  getSession(userId: string, sessionId: string): Promise<ChatSessionView> {
    return this.sessions.getSession(userId, sessionId);
  }

  /** Rename a session (1–60 characters after trimming). */
  renameSession(userId: string, sessionId: string, title: string): Promise<ChatSessionView> {
    return this.sessions.renameSession(userId, sessionId, title);
  }

  /** Delete a session with its messages; answers still generating in it are stopped first. */
  deleteSession(userId: string, sessionId: string): Promise<void> {
    return this.sessions.deleteSession(userId, sessionId);
  }

  /** 'Søg i samtaler': title or any message contains the text (case-insensitive, literal). */
  searchSessions(userId: string, query: string): Promise<ChatSessionView[]> {
    return this.sessions.searchSessions(userId, query);
  }

  /** The session as a Markdown document. */
  exportSession(userId: string, sessionId: string): Promise<string> {
    return this.sessions.exportSession(userId, sessionId);
  }

  /**
   * A page of the session's shown branch, oldest first: the newest, or the one before `before` (chat.pages.ts);
   * `includeInProgress: false` (REST) leaves out unfinished answers.
   */
  listMessages(userId: string, sessionId: string, query: MessagePageQuery = {}): Promise<ChatMessageView[]> {
    return this.sessions.listMessages(userId, sessionId, query);
  }

  /** The newest `count` messages of the shown branch (callers with their own bound: export, shares). */
  newestMessages(userId: string, sessionId: string, count: number): Promise<MessagePage> {
    return this.sessions.newestMessages(userId, sessionId, count);
  }

  /** One message of the user; NOT_FOUND for another user's or an unknown id. */
  getMessage(userId: string, messageId: string): Promise<ChatMessageView> {
    return this.sessions.getMessage(userId, messageId);
  }

  /** Knowledge gaps, newest first (for the admin). */
  listKnowledgeGaps(limit?: number) {
    return this.sessions.listKnowledgeGaps(limit);
  }

  /** Sessions per user id (the admin's user list). */
  sessionCountsByUser(): Promise<Map<string, number>> {
    return this.sessions.sessionCountsByUser();
  }

  /** Remove the user's sessions, messages and knowledge gaps (users module hook, wired in services.ts). */
  removeUserData(userId: string): Promise<void> {
    return this.sessions.removeUserData(userId);
  }

  // ---- answers (chat.send.ts, chat.runner.ts) --------------------------------------------------------

  /**
   * Send a question; resolves when both messages are stored and the answer is under way. Follow it on
   * CHAT_MESSAGE_EVENT or by reading the messages. TOO_MANY_REQUESTS (nothing stored) when the user already has
   * `maxInFlightPerUser` answers generating; CHAT_SESSION_FULL (nothing stored) when the session holds
   * `limits.messagesPerSession` messages, or one less (chat.message-count.ts).
   */
  sendMessage(
    userId: string,
    sessionId: string,
    content: unknown,
    scope?: ChatScopeInput,
  ): Promise<SendResult> {
    return this.sender.sendMessage(userId, sessionId, content, scope);
  }

  /**
   * Set the scope of a session's questions (chat.scope.ts): kept until changed. NOT_FOUND for another user's or
   * an unknown session; SCOPE_ARTICLE_NOT_FOUND for an article id that names no article.
   */
  setChatScope(userId: string, sessionId: string, scope: ChatScopeInput): Promise<ChatSessionView> {
    return this.scopes.setScope(userId, sessionId, scope);
  }

  /** Stop generating an answer (the text so far is kept); a finished answer is returned unchanged. */
  stopMessage(userId: string, messageId: string): Promise<ChatMessageView> {
    return this.sender.stopMessage(userId, messageId);
  }

  /** Generate an answer again after an error or a stop; it keeps its id and place. */
  retryMessage(userId: string, messageId: string): Promise<ChatMessageView> {
    return this.sender.retryMessage(userId, messageId);
  }

  /** Edit a question: a new branch (question + pending answer) beside it, shown from now on; the old one stays. */
  editMessage(userId: string, messageId: string, content: unknown): Promise<SendResult> {
    return this.sender.editMessage(userId, messageId, content);
  }

  /** A new answer (pending) beside an answer, shown from now on; the old one stays. */
  regenerateMessage(userId: string, messageId: string): Promise<ChatMessageView> {
    return this.sender.regenerateMessage(userId, messageId);
  }

  /** Show the branch through a message; returns the shown thread. */
  switchBranch(userId: string, messageId: string): Promise<ChatMessageView[]> {
    return switchBranch(userId, messageId);
  }

  /** Thumbs up/down with an optional comment on an assistant message (its owner only). */
  setFeedback(userId: string, messageId: string, rating: string, comment?: string | null) {
    return this.sender.setFeedback(userId, messageId, rating, comment);
  }

  /** Mark answers left pending/streaming by a dead process as retryable errors; returns how many. */
  recoverInterrupted(staleAfterMs?: number): Promise<number> {
    return this.runner.recoverInterrupted(staleAfterMs);
  }

  /** Answers generating in this process right now (all users, or one). */
  inFlightCount(userId?: string): number {
    return this.runner.inFlightCount(userId);
  }

  // ---- live events ----------------------------------------------------------------------------------

  /**
   * The live events of one of the user's sessions (CREATED, each DELTA, COMPLETED/STOPPED/ERROR), for the
   * subscription. NOT_FOUND for another user's or an unknown session, checked when subscribing.
   */
  async sessionEvents(
    userId: string,
    sessionId: string,
  ): Promise<AsyncIterableIterator<ChatMessageEventPayload>> {
    await ownSession(userId, sessionId);
    return this.hub.events(sessionId, userId);
  }

  /** Live subscriptions to session events in this process. */
  subscriberCount(): number {
    return this.hub.listenerCount();
  }

  // ---- lifecycle ------------------------------------------------------------------------------------

  /**
   * Resolves when every answer generating now (or started meanwhile) is stored, with the bookkeeping of its
   * question (activity log, session title). For tests and shutdown.
   */
  async whenIdle(): Promise<void> {
    for (let work = this.work(); work.length > 0; work = this.work()) await Promise.all(work);
  }

  /**
   * Stop: new questions are refused, every answer is stopped (kept as stopped), and nothing of the service
   * outlives this: the recovery timer and pass, subscriptions, sends under way, background bookkeeping.
   */
  async close(): Promise<void> {
    const recovering = this.runner.close();
    this.sender.close();
    await recovering;
    await this.users.close();
    await this.hub.close();
    this.stopFollowing();
    // a send under way starts its answer after the insert: stop those too, until nothing is left
    for (let work = this.work(); work.length > 0; work = this.work()) {
      this.runner.abortAll();
      await Promise.all(work);
    }
  }

  /** Answers generating and sends, retries and bookkeeping under way. */
  private work(): Promise<void>[] {
    return [...this.runner.running(), ...this.sender.pending()];
  }
}

/**
 * Helpers for the chat tests and the chat benchmark: GraphQL documents, a graphql-ws collector, and a private
 * store for the focused tests of one chat file.
 */
import os from "node:os";
import { type Client, createClient } from "graphql-ws";
import WebSocket from "ws";
import { type AppConfig, loadConfig } from "../config";
import { openDatabase } from "../db/connection";
import { AppError } from "../errors";
import type { TestApp } from "../testing/app";
import { gql } from "../testing/client";

export const MESSAGE_FIELDS = `id sessionId role content timestamp status replyTo usedNumbers mode knowledgeGap
  citations { number articleId title headingPath heading url passage }
  error { code message retryable } feedback { rating comment }
  freshnessWarnings { number message }`;

/** a message's place among the alternatives, and an answer's follow-ups (chat.branches.ts) */
export const BRANCH_FIELDS = "parentId siblingIndex siblingCount siblingIds followUps";

export const Q = {
  sessions: `query Sessions { sessions { id sessionId title createdAt lastUpdated } }`,
  messages: `query Messages($sessionId: ID!) { messages(sessionId: $sessionId) { ${MESSAGE_FIELDS} } }`,
  search: `query SearchSessions($query: String!) { searchSessions(query: $query) { sessionId title } }`,
  export: `query ExportSession($sessionId: ID!) { exportSession(sessionId: $sessionId) }`,
  create: `mutation CreateSession($title: String) { createSession(title: $title) { id sessionId title createdAt lastUpdated } }`,
  rename: `mutation RenameSession($sessionId: ID!, $title: String!) { renameSession(sessionId: $sessionId, title: $title) { sessionId title } }`,
  delete: `mutation DeleteSession($sessionId: ID!) { deleteSession(sessionId: $sessionId) }`,
  setScope: `mutation SetChatScope($sessionId: ID!, $scope: ChatScopeInput!) {
    setChatScope(sessionId: $sessionId, scope: $scope) { sessionId scope { kind label } } }`,
  send: `mutation SendMessage($sessionId: ID!, $content: String!) { sendMessage(sessionId: $sessionId, content: $content) {
    session { sessionId title } userMessage { ${MESSAGE_FIELDS} } assistantMessage { ${MESSAGE_FIELDS} } } }`,
  stop: `mutation StopMessage($messageId: ID!) { stopMessage(messageId: $messageId) { ${MESSAGE_FIELDS} } }`,
  retry: `mutation RetryMessage($messageId: ID!) { retryMessage(messageId: $messageId) { ${MESSAGE_FIELDS} } }`,
  feedback: `mutation SetFeedback($messageId: ID!, $rating: FeedbackRating!, $comment: String) {
    setFeedback(messageId: $messageId, rating: $rating, comment: $comment) { id feedback { rating comment } } }`,
  edit: `mutation EditMessage($messageId: ID!, $content: String!) { editMessage(messageId: $messageId, content: $content) {
    session { sessionId title } userMessage { ${MESSAGE_FIELDS} ${BRANCH_FIELDS} } assistantMessage { ${MESSAGE_FIELDS} ${BRANCH_FIELDS} } } }`,
  regenerate: `mutation RegenerateMessage($messageId: ID!) { regenerateMessage(messageId: $messageId) { ${MESSAGE_FIELDS} ${BRANCH_FIELDS} } }`,
  switchBranch: `mutation SwitchBranch($messageId: ID!) { switchBranch(messageId: $messageId) { ${MESSAGE_FIELDS} ${BRANCH_FIELDS} } }`,
  branch: `query Branch($sessionId: ID!) { messages(sessionId: $sessionId) { ${MESSAGE_FIELDS} ${BRANCH_FIELDS} } }`,
  events: `subscription ChatMessageEvents($sessionId: ID!) { chatMessageEvents(sessionId: $sessionId) {
    type sessionId messageId delta questionParentId title message { ${MESSAGE_FIELDS} followUps } } }`,
};

export interface ChatEvent {
  type: "CREATED" | "DELTA" | "COMPLETED" | "STOPPED" | "ERROR" | "UPDATED" | "TITLED";
  sessionId: string;
  messageId: string;
  delta: string | null;
  /** TITLED: the session's new title */
  title: string | null;
  /** CREATED: the parent of the answer's question */
  questionParentId: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: the message as the test asked for it
  message: any;
}

export function wsClient(app: Pick<TestApp, "wsUrl">, authToken?: string): Client {
  return createClient({
    url: app.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: authToken ? { authToken } : undefined,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined,
  });
}

/** A subscription to one session's events, collecting them with their arrival time. */
export class EventCollector {
  readonly events: Array<ChatEvent & { at: number }> = [];
  errors: Array<{ message: string; extensions?: Record<string, unknown> }> | null = null;
  private waiters: Array<() => void> = [];
  private readonly endedIds = new Set<string>();
  private readonly endWaiters = new Map<string, Array<() => void>>();
  /** messageId → when its first DELTA arrived (performance.now()) */
  readonly firstDeltaAt = new Map<string, number>();
  private readonly dispose: () => void;

  constructor(client: Client, sessionId: string) {
    this.dispose = client.subscribe<{ chatMessageEvents: ChatEvent }>(
      { query: Q.events, variables: { sessionId } },
      {
        next: (r) => {
          const at = performance.now();
          const e = r.data?.chatMessageEvents;
          if (e) {
            this.events.push({ ...e, at });
            if (e.type === "DELTA" && !this.firstDeltaAt.has(e.messageId))
              this.firstDeltaAt.set(e.messageId, at);
            if (e.type === "COMPLETED" || e.type === "STOPPED" || e.type === "ERROR") {
              this.endedIds.add(e.messageId);
              for (const w of this.endWaiters.get(e.messageId) ?? []) w();
              this.endWaiters.delete(e.messageId);
            }
          }
          if (r.errors) this.errors = r.errors as EventCollector["errors"];
          this.notify();
        },
        error: (e) => {
          this.errors = Array.isArray(e) ? e : [{ message: String(e) }];
          this.notify();
        },
        complete: () => this.notify(),
      },
    );
  }

  private notify() {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves when `pred` holds for the collected events (or rejects after timeoutMs). */
  async until(pred: (events: ChatEvent[]) => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.events)) {
      if (this.errors) throw new Error(`subscription failed: ${JSON.stringify(this.errors)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; events: ${this.events.map((e) => e.type).join(",")}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Resolves when the message's outcome event arrived (cheap: no scan of the events). */
  untilEnded(messageId: string, timeoutMs = 10_000): Promise<void> {
    if (this.endedIds.has(messageId)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`no outcome for ${messageId} in ${timeoutMs} ms`)),
        timeoutMs,
      );
      const list = this.endWaiters.get(messageId) ?? [];
      list.push(() => {
        clearTimeout(t);
        resolve();
      });
      this.endWaiters.set(messageId, list);
    });
  }

  /** Resolves when the subscription reported errors (e.g. NOT_FOUND). */
  async untilError(timeoutMs = 5_000) {
    const deadline = Date.now() + timeoutMs;
    while (!this.errors) {
      if (Date.now() > deadline) throw new Error("no subscription error");
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.errors;
  }

  close() {
    this.dispose();
  }
}

export function ended(messageId: string) {
  return (events: ChatEvent[]) =>
    events.some((e) => e.messageId === messageId && ["COMPLETED", "STOPPED", "ERROR"].includes(e.type));
}

/** The id of a sample article (content/<sourcePath>) as imported by the knowledge service. */
export async function sampleArticleId(app: Pick<TestApp, "services">, sourcePath: string): Promise<string> {
  const found = (await app.services.knowledge.listArticles()).find((a) => a.sourceId === sourcePath);
  if (!found) throw new Error(`no sample article ${sourcePath}`);
  return found.id;
}

/** A GraphQL call that must succeed. */
// biome-ignore lint/suspicious/noExplicitAny: test documents are typed by what they ask for
export async function gqlOk<T = any>(
  app: Pick<TestApp, "graphqlUrl">,
  query: string,
  variables: Record<string, unknown>,
  token: string,
): Promise<T> {
  const res = await gql<T>(app, query, variables, token);
  if (res.errors) throw new Error(`GraphQL errors: ${JSON.stringify(res.errors)}`);
  return res.data as T;
}

/** Poll until `check` returns a value (not undefined), or fail after timeoutMs. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  stepMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/**
 * A private in-memory embedded store on mongoose's default connection, for the focused tests of one chat file
 * (one per test file: vitest runs each file in its own process). `config` is a test configuration.
 */
export async function openTestStore(
  overrides: Partial<AppConfig> = {},
): Promise<{ config: AppConfig; close(): Promise<void> }> {
  const config = loadConfig({ NODE_ENV: "test" }, { dataDir: os.tmpdir(), ...overrides });
  const db = await openDatabase(config, { memory: true });
  return { config, close: () => db.close() };
}

/** The code of the AppError `p` rejects with ("no error" when it resolves). */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
  return "no error";
}

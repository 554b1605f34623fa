/** Chat documents as the outside sees them (GraphQL, REST, events, export). Never raw documents. */
import { isUntitledTitle } from "@vidensbank/shared";
import type { ChatMessageFields, ChatSessionFields, MessageRole, MessageStatus } from "./chat.model";
import { type ChatScopeView, presentScope } from "./chat.scope-view";

export interface CitationView {
  number: number;
  articleId: string;
  title: string;
  headingPath: string[];
  /** the headings joined with ' › ' ('' for an article's intro) */
  heading: string;
  url: string | null;
  passage: string;
  updatedAt: Date | null;
}

export interface FreshnessWarningView {
  number: number;
  articleId: string;
  title: string;
  updatedAt: Date;
  message: string;
}

export interface MessageErrorView {
  code: string;
  message: string;
  retryable: boolean;
}

export interface FeedbackView {
  rating: "up" | "down";
  comment: string | null;
  at: Date | null;
}

export interface ChatMessageView {
  id: string;
  sessionId: string;
  role: MessageRole;
  content: string;
  timestamp: Date;
  /** assistant messages only; null for user messages */
  status: MessageStatus | null;
  replyTo: string | null;
  citations: CitationView[];
  usedNumbers: number[];
  mode: string | null;
  error: MessageErrorView | null;
  knowledgeGap: boolean;
  freshnessWarnings: FreshnessWarningView[];
  feedback: FeedbackView | null;
  /** the message before it in its branch; siblings: the alternatives at its point (chat.tree.ts) */
  parentId: string | null;
  siblingIndex: number;
  siblingCount: number;
  siblingIds: string[];
  followUps: string[];
  /** assistant messages: the scope the answer was made in; null = all articles (or made before scopes) */
  scope?: ChatScopeView | null;
}

export interface ChatSessionView {
  id: string;
  sessionId: string;
  title: string | null;
  /** GraphQL only (REST carries the stored title alone, spec §6): no title yet (isUntitledTitle) */
  untitled: boolean;
  createdAt: Date;
  lastUpdated: Date;
  /** which articles its questions are answered from (kind ALL when unset) */
  scope?: ChatScopeView;
}

type Lean<T> = T & { _id: unknown };

export function presentSession(s: Lean<ChatSessionFields>): ChatSessionView {
  return {
    id: s.sessionId,
    sessionId: s.sessionId,
    title: s.title ?? null,
    untitled: isUntitledTitle(s.title),
    createdAt: s.createdAt,
    lastUpdated: s.lastUpdated,
    scope: presentScope(s.scope),
  };
}

export function presentMessage(m: Lean<ChatMessageFields>): ChatMessageView {
  const err = m.error as { code?: string; message?: string; retryable?: boolean } | null | undefined;
  const fb = m.feedback as
    | { rating?: "up" | "down"; comment?: string | null; at?: Date | null }
    | null
    | undefined;
  return {
    id: String(m._id),
    sessionId: m.sessionId,
    role: m.role as MessageRole,
    content: m.content ?? "",
    timestamp: m.timestamp,
    status: (m.status as MessageStatus | null | undefined) ?? null,
    replyTo: m.replyTo ? String(m.replyTo) : null,
    citations: (m.citations ?? []).map((c) => ({
      number: c.number,
      articleId: c.articleId,
      title: c.title,
      headingPath: [...(c.headingPath ?? [])],
      heading: (c.headingPath ?? []).join(" › "),
      url: c.url ?? null,
      passage: c.passage ?? "",
      updatedAt: c.updatedAt ?? null,
    })),
    usedNumbers: [...(m.usedNumbers ?? [])],
    mode: m.mode ?? null,
    error: err?.code
      ? { code: err.code, message: err.message ?? "", retryable: err.retryable ?? false }
      : null,
    knowledgeGap: m.knowledgeGap ?? false,
    freshnessWarnings: (m.freshnessWarnings ?? []).map((w) => ({
      number: w.number ?? 0,
      articleId: w.articleId ?? "",
      title: w.title ?? "",
      updatedAt: w.updatedAt ?? new Date(0),
      message: w.message ?? "",
    })),
    feedback: fb?.rating ? { rating: fb.rating, comment: fb.comment ?? null, at: fb.at ?? null } : null,
    // one alternative until the tree says otherwise (chat.branches.ts withBranch)
    parentId: m.parentId ? String(m.parentId) : null,
    siblingIndex: 1,
    siblingCount: 1,
    siblingIds: [String(m._id)],
    followUps: [...(m.followUps ?? [])],
    scope: m.scope ? presentScope(m.scope) : null,
  };
}

/** REST (spec §7): the session list is `[{ session_id, title }]`. */
export function presentSessionRest(s: ChatSessionView) {
  return {
    session_id: s.sessionId,
    title: s.title,
    createdAt: s.createdAt,
    lastUpdated: s.lastUpdated,
    scope: s.scope,
  };
}

/** REST (spec §7): messages are read as `{ id, role, content }`; the rest is extra. */
export function presentMessageRest(m: ChatMessageView) {
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    timestamp: m.timestamp,
    session_id: m.sessionId,
    sessionId: m.sessionId,
    status: m.status,
    citations: m.citations,
    error: m.error,
    knowledgeGap: m.knowledgeGap,
    feedback: m.feedback,
    parentId: m.parentId,
    siblingIndex: m.siblingIndex,
    siblingCount: m.siblingCount,
    followUps: m.followUps,
    scope: m.scope,
  };
}

/**
 * The scope of a session's questions: all articles, one category, chosen articles (at most
 * MAX_SCOPE_ARTICLES), or the user's bookmarks. It is stored on the session until changed, and each answer
 * keeps the scope it was made in. Retrieval (and so the relevance gate and the model) only sees the scope's
 * articles: the filter goes to the knowledge side, which applies it inside the index before ranking.
 *
 * Validation: an unknown kind or category is BAD_USER_INPUT; an article id that names no article (the user can
 * see every article, so "cannot see" = does not exist) is SCOPE_ARTICLE_NOT_FOUND. The session is checked first:
 * another user's session answers NOT_FOUND exactly like an unknown one (ownSession).
 */
import { AppError, Errors } from "../errors";
import { ChatSessionModel } from "./chat.model";
import { ownSession } from "./chat.ownership";
import { type ChatSessionView, presentSession } from "./chat.presenter";
import type { RetrieveFilter, RetrieveFn } from "./chat.retrieval";
import { userOid } from "./chat.rules";
import { MAX_SCOPE_ARTICLES, MAX_SCOPE_VALUE_LENGTH, SCOPE_KINDS, type StoredScope } from "./chat.scope-view";

/** What the scope needs from the other features (wired in services.ts). */
export interface ChatScopeSources {
  /** the title of each id that names an article; ids that do not are left out */
  articleTitles(ids: string[]): Promise<Map<string, string>>;
  /** the categories that have articles */
  categoryNames(): Promise<string[]>;
  /** the ids of the articles the user has bookmarked */
  bookmarkedArticleIds(userId: string): Promise<string[]>;
}

/** The retrieval limited to a scope's filter (unchanged for all articles). */
export function scopedRetrieve(retrieve: RetrieveFn, filter: RetrieveFilter | undefined): RetrieveFn {
  return filter ? (query, k) => retrieve(query, k, filter) : retrieve;
}

/** Sources that know no article, category or bookmark (a chat service built without them: tests, bench). */
export const NO_SCOPE_SOURCES: ChatScopeSources = {
  articleTitles: async () => new Map(),
  categoryNames: async () => [],
  bookmarkedArticleIds: async () => [],
};

/** The raw scope argument (GraphQL input, REST body). */
export interface ChatScopeInput {
  kind?: unknown;
  category?: unknown;
  articleIds?: unknown;
}

function text(value: unknown, field: string): string {
  if (typeof value !== "string" || !value.trim() || value.length > MAX_SCOPE_VALUE_LENGTH) {
    throw Errors.invalidField(
      field,
      field === "scope.category" ? "chat.scopeCategoryUnknown" : "chat.scopeArticleNotFound",
    );
  }
  return value.trim();
}

export class ChatScopes {
  constructor(private readonly sources: ChatScopeSources) {}

  /** Check a scope argument; the stored form (null for all articles). */
  async validate(input: ChatScopeInput | null | undefined): Promise<StoredScope | null> {
    const kind = input?.kind;
    if (typeof kind !== "string" || !(SCOPE_KINDS as readonly string[]).includes(kind)) {
      throw Errors.invalidField("scope.kind", "chat.scopeKind");
    }
    if (kind === "ALL") return null;
    if (kind === "BOOKMARKS") return { kind, category: null, articles: [] };
    if (kind === "CATEGORY") {
      const category = text(input?.category, "scope.category");
      if (!(await this.sources.categoryNames()).includes(category)) {
        throw Errors.invalidField("scope.category", "chat.scopeCategoryUnknown");
      }
      return { kind, category, articles: [] };
    }
    const raw = input?.articleIds;
    if (!Array.isArray(raw) || raw.length === 0) {
      throw Errors.invalidField("scope.articleIds", "chat.scopeArticlesEmpty");
    }
    if (raw.length > MAX_SCOPE_ARTICLES) {
      throw Errors.invalidField("scope.articleIds", "chat.scopeTooManyArticles", { max: MAX_SCOPE_ARTICLES });
    }
    const ids = [...new Set(raw.map((id) => text(id, "scope.articleIds")))];
    const titles = await this.sources.articleTitles(ids);
    if (ids.some((id) => !titles.has(id))) {
      throw new AppError("SCOPE_ARTICLE_NOT_FOUND", "chat.scopeArticleNotFound");
    }
    return {
      kind: "ARTICLES",
      category: null,
      articles: ids.map((id) => ({ id, title: titles.get(id) ?? "" })),
    };
  }

  /**
   * Set the scope of one of the user's sessions (it stays until changed). NOT_FOUND for another user's or an
   * unknown session, before the scope is looked at.
   */
  async setScope(userId: string, sessionId: string, input: ChatScopeInput): Promise<ChatSessionView> {
    await ownSession(userId, sessionId);
    const scope = await this.validate(input);
    const doc = await ChatSessionModel.findOneAndUpdate(
      { sessionId, userId: userOid(userId) },
      { $set: { scope } },
      { returnDocument: "after" },
    ).lean();
    // deleted meanwhile
    if (!doc) throw Errors.notFound("chat.sessionNotFound");
    return presentSession(doc);
  }

  /** The retrieval filter of a scope (undefined: all articles). Bookmarks are read now: the list as it is today. */
  async filterOf(userId: string, scope: StoredScope | null): Promise<RetrieveFilter | undefined> {
    if (!scope) return undefined;
    if (scope.kind === "CATEGORY") return { category: scope.category ?? "" };
    if (scope.kind === "ARTICLES") return { articleIds: scope.articles.map((a) => a.id) };
    return { articleIds: await this.sources.bookmarkedArticleIds(userId) };
  }
}

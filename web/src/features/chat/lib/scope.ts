/**
 * The scope of a question (issue 17) on the client: what the chips show and the input the server takes. The
 * server checks everything again (at most MAX_SCOPE_ARTICLES articles, known ids and categories).
 */
import { formatMessage } from "@vidensbank/shared";
import type { ChatScopeFieldsFragment, ChatScopeInput } from "../../../gql/graphql";
import type { Translate } from "../../../i18n/i18n";

export type Scope = Omit<ChatScopeFieldsFragment, "__typename">;
export interface ScopeArticle {
  id: string;
  title: string;
}

/** At most this many articles in one scope (the server's MAX_SCOPE_ARTICLES). */
export const MAX_SCOPE_ARTICLES = 20;

export const ALL_SCOPE: Scope = { kind: "ALL", category: null, articles: [], label: "" };

export const categoryScope = (category: string): Scope => ({
  kind: "CATEGORY",
  category,
  articles: [],
  label: "",
});
export const BOOKMARKS_SCOPE: Scope = { kind: "BOOKMARKS", category: null, articles: [], label: "" };
export const articlesScope = (articles: ScopeArticle[]): Scope =>
  articles.length === 0 ? ALL_SCOPE : { kind: "ARTICLES", category: null, articles, label: "" };

/** The input the server takes for a scope. */
export function scopeInput(scope: Scope): ChatScopeInput {
  if (scope.kind === "CATEGORY") return { kind: "CATEGORY", category: scope.category };
  if (scope.kind === "ARTICLES") return { kind: "ARTICLES", articleIds: scope.articles.map((a) => a.id) };
  return { kind: scope.kind };
}

/** The scope with `article` added (an article scope keeps its others; any other scope becomes this article). */
export function withArticle(scope: Scope, article: ScopeArticle): Scope {
  const current = scope.kind === "ARTICLES" ? scope.articles : [];
  if (current.some((a) => a.id === article.id)) return scope;
  if (current.length >= MAX_SCOPE_ARTICLES) return scope;
  return articlesScope([...current, { id: article.id, title: article.title }]);
}

/** The scope without one of its articles (all articles when none is left). */
export function withoutArticle(scope: Scope, id: string): Scope {
  return articlesScope(scope.articles.filter((a) => a.id !== id).map(({ id, title }) => ({ id, title })));
}

/** The scope's label in the user's language. */
export function scopeLabel(scope: Scope, t: Translate): string {
  if (scope.kind === "CATEGORY") return t("chat.scope.category", { category: scope.category ?? "" });
  if (scope.kind === "BOOKMARKS") return t("chat.scope.bookmarks");
  if (scope.kind === "ARTICLES") {
    return scope.articles.length === 1
      ? t("chat.scope.article", { title: scope.articles[0].title })
      : t("chat.scope.articles", { n: scope.articles.length });
  }
  return t("chat.scope.all");
}

/** How the server's scope line starts in each answer language ("Søgt i: ", "Searched in: "). */
const SCOPE_NOTE_STARTS = (["da", "en"] as const).map((locale) =>
  formatMessage("chat.scopeSearchedIn", { scope: "" }, locale),
);

/**
 * The answer's text without its last paragraph when that is the server's scope line ("Søgt i: Kategori: Økonomi"):
 * a retrieval-only answer ends with it for readers without the badge (the CLI, copied text), and the web shows the
 * scope as a badge above the answer, so the text need not say it again.
 */
export function withoutScopeNote(content: string): string {
  const cut = content.lastIndexOf("\n\n");
  if (cut < 0) return content;
  const last = content.slice(cut + 2);
  if (last.includes("\n") || !SCOPE_NOTE_STARTS.some((start) => last.startsWith(start))) return content;
  return content.slice(0, cut);
}

/**
 * Whether an edit of the question typed a `#` that starts a word (the article picker opens): one character more,
 * a `#` just before the caret, at the start or after white space. Returns the text without that `#`, else null.
 */
export function typedHash(before: string, after: string, caret: number | null): string | null {
  if (after.length !== before.length + 1 || caret === null || caret < 1) return null;
  if (after[caret - 1] !== "#") return null;
  if (caret > 1 && !/\s/.test(after[caret - 2])) return null;
  const without = after.slice(0, caret - 1) + after.slice(caret);
  return without === before ? without : null;
}

/**
 * How a chat scope looks from outside (chat.scope.ts holds the rules): its stored form, its label in Danish or
 * English and the "Søgt i: …" line of an answer made in it. No imports from the chat's services, so the
 * presenter can use it.
 */
import { formatMessage, type Locale } from "@vidensbank/shared";

export const SCOPE_KINDS = ["ALL", "CATEGORY", "ARTICLES", "BOOKMARKS"] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];
/** At most this many articles in one scope. */
export const MAX_SCOPE_ARTICLES = 20;
/** An article id or a category name is at most this long. */
export const MAX_SCOPE_VALUE_LENGTH = 200;
/** How many article titles the label names before "…". */
const LABEL_TITLES = 3;

/** A scope as stored on a session or an answer; null = all articles. */
export interface StoredScope {
  kind: Exclude<ScopeKind, "ALL">;
  category: string | null;
  articles: Array<{ id: string; title: string }>;
}

/** A scope as GraphQL and REST show it (label: the server's Danish text). */
export interface ChatScopeView {
  kind: ScopeKind;
  category: string | null;
  articles: Array<{ id: string; title: string }>;
  label: string;
}

/** A stored scope of a document (lean, possibly from before scopes) as a StoredScope, or null for all. */
export function storedScope(raw: unknown): StoredScope | null {
  const s = raw as {
    kind?: string;
    category?: string | null;
    articles?: Array<{ id?: string; title?: string }>;
  };
  if (!s || (s.kind !== "CATEGORY" && s.kind !== "ARTICLES" && s.kind !== "BOOKMARKS")) return null;
  return {
    kind: s.kind,
    category: s.category ?? null,
    articles: (s.articles ?? []).map((a) => ({ id: a.id ?? "", title: a.title ?? "" })),
  };
}

/** The scope's label in a language: "Alle artikler", "Kategori: Økonomi", "Artikel: …", "Mine bogmærker". */
export function scopeLabel(scope: StoredScope | null, locale: Locale = "da"): string {
  if (!scope) return formatMessage("chat.scopeAll", {}, locale);
  if (scope.kind === "CATEGORY")
    return formatMessage("chat.scopeCategory", { category: scope.category ?? "" }, locale);
  if (scope.kind === "BOOKMARKS") return formatMessage("chat.scopeBookmarks", {}, locale);
  const titles = scope.articles.map((a) => a.title);
  if (titles.length === 1) return formatMessage("chat.scopeArticle", { title: titles[0] }, locale);
  const shown = titles.slice(0, LABEL_TITLES).join(", ") + (titles.length > LABEL_TITLES ? ", …" : "");
  return formatMessage("chat.scopeArticles", { count: titles.length, titles: shown }, locale);
}

/** The scope as GraphQL and REST show it. */
export function presentScope(raw: unknown): ChatScopeView {
  const scope = storedScope(raw);
  return {
    kind: scope?.kind ?? "ALL",
    category: scope?.category ?? null,
    articles: scope?.articles.map((a) => ({ ...a })) ?? [],
    label: scopeLabel(scope),
  };
}

/**
 * The line a retrieval-only (or "not covered") answer ends with when it was made in a scope, in the answer's
 * language: "Søgt i: Kategori: Økonomi". Undefined for all articles.
 */
export function scopeNote(scope: StoredScope | null, locale: Locale): string | undefined {
  if (!scope) return undefined;
  return formatMessage("chat.scopeSearchedIn", { scope: scopeLabel(scope, locale) }, locale);
}

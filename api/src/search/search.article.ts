/**
 * Articles arriving at the index from outside: checked field by field and copied clean (trimmed category,
 * subcategory and tags), so the index never holds a malformed article and a caller learns which field was wrong.
 */
import type { IndexableArticle } from "./search.types";

export type SearchIndexErrorCode = "INVALID_ARTICLE";

/** A rejected input; `code` is stable, `message` names the offending field. */
export class SearchIndexError extends Error {
  constructor(
    readonly code: SearchIndexErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SearchIndexError";
  }
}

/** Checks an article from outside and returns a clean copy; throws SearchIndexError naming the field. */
export function validateArticle(input: unknown): IndexableArticle {
  const a = input as Record<string, unknown> | null;
  const bad = (field: string, why: string) =>
    new SearchIndexError(
      "INVALID_ARTICLE",
      `Artikel${typeof a?.id === "string" ? ` ${a.id}` : ""}: ${field} ${why}`,
    );
  if (!a || typeof a !== "object")
    throw new SearchIndexError("INVALID_ARTICLE", "Artikel: skal være et objekt");
  if (typeof a.id !== "string" || !a.id.trim()) throw bad("id", "skal være en ikke-tom tekst");
  if (typeof a.title !== "string") throw bad("title", "skal være en tekst");
  if (typeof a.content !== "string") throw bad("content", "skal være en tekst");
  if (typeof a.category !== "string" || !a.category.trim())
    throw bad("category", "skal være en ikke-tom tekst");
  if (a.subcategory !== undefined && a.subcategory !== null && typeof a.subcategory !== "string") {
    throw bad("subcategory", "skal være en tekst");
  }
  if (a.tags !== undefined && (!Array.isArray(a.tags) || a.tags.some((t) => typeof t !== "string"))) {
    throw bad("tags", "skal være en liste af tekster");
  }
  return {
    id: a.id,
    title: a.title,
    content: a.content,
    category: a.category.trim(),
    subcategory: typeof a.subcategory === "string" && a.subcategory.trim() ? a.subcategory.trim() : undefined,
    tags: ((a.tags as string[] | undefined) ?? []).map((t) => t.trim()).filter(Boolean),
    updatedAt: a.updatedAt as IndexableArticle["updatedAt"],
  };
}

/** A number clamped to an integer in [min, max]; `fallback` when it is not a finite number. */
export function clampInt(value: unknown, min: number, max: number, fallback: number): number {
  if (typeof value !== "number" || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * What the knowledge base accepts from outside, checked in one place for every door (GraphQL, REST, CLI,
 * importers): article fields, search texts, categories, ids, and the message keys that name what was wrong.
 */
import type { FieldError } from "@vidensbank/shared";
import { Errors } from "../errors";
import { plainText, stripHtml } from "../markdown/sanitize";

/** A search text longer than this is refused (the index itself only reads the first 256 characters). */
export const MAX_SEARCH_INPUT = 10_000;

export interface ArticleInput {
  title: string;
  content: string;
  category: string;
  subcategory?: string | null;
  tags?: string[] | null;
}

/** ArticleInput after validateArticleInput(). */
export interface CleanArticleInput {
  title: string;
  content: string;
  category: string;
  subcategory: string | null;
  tags: string[];
}

/** ids are checked in one place (db/ids.ts); re-exported for this module's callers */
export { isObjectIdString } from "../db/ids";

/** The search text, or BAD_USER_INPUT for a non-string or one longer than MAX_SEARCH_INPUT. */
export function readQuery(query: unknown): string {
  if (typeof query !== "string") throw Errors.invalidField("query", "knowledge.queryNotText");
  if (query.length > MAX_SEARCH_INPUT) {
    throw Errors.invalidField("query", "knowledge.queryTooLong", { max: MAX_SEARCH_INPUT });
  }
  return query;
}

/** A category filter: undefined for none (absent, null, blank), BAD_USER_INPUT for a non-string or over-long one. */
export function readCategory(category: unknown): string | undefined {
  if (category === undefined || category === null || category === "") return undefined;
  if (typeof category !== "string" || category.length > 200) {
    throw Errors.invalidField("category", "knowledge.categoryInvalid");
  }
  return category.trim() || undefined;
}

/** A whole number within [min, max]; `fallback` for anything that is not a finite number. */
export function clamp(n: number | null | undefined, min: number, max: number, fallback: number): number {
  if (typeof n !== "number" || !Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(n)));
}

/** Trimmed, checked article fields; BAD_USER_INPUT naming every wrong field. */
export function validateArticleInput(input: ArticleInput): CleanArticleInput {
  const fields: FieldError[] = [];
  // stored as plain text / Markdown without HTML, whatever door it came through (admin, CLI, Notion)
  const text = (v: unknown) => (typeof v === "string" ? plainText(v).trim() : "");
  const title = text(input.title);
  const content = typeof input.content === "string" ? stripHtml(input.content) : "";
  const category = text(input.category);
  const subcategory = text(input.subcategory) || null;
  if (!title) fields.push({ field: "title", key: "knowledge.titleRequired" });
  else if (title.length > 200) fields.push({ field: "title", key: "knowledge.titleTooLong" });
  if (!content.trim()) fields.push({ field: "content", key: "knowledge.contentRequired" });
  else if (content.length > 200_000) fields.push({ field: "content", key: "knowledge.contentTooLong" });
  if (!category) fields.push({ field: "category", key: "knowledge.categoryRequired" });
  else if (category.length > 100) fields.push({ field: "category", key: "knowledge.categoryTooLong" });
  if (subcategory && subcategory.length > 100) {
    fields.push({ field: "subcategory", key: "knowledge.subcategoryTooLong" });
  }
  const rawTags = input.tags ?? [];
  const tagsOk =
    Array.isArray(rawTags) &&
    rawTags.length <= 30 &&
    rawTags.every((t) => typeof t === "string" && t.length <= 50);
  if (!tagsOk) fields.push({ field: "tags", key: "knowledge.tagsInvalid" });
  if (fields.length > 0) throw Errors.invalidFields(fields);
  const tags = [...new Set((rawTags as string[]).map((t) => plainText(t).trim()).filter(Boolean))];
  return { title, content, category, subcategory, tags };
}

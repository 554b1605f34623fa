/**
 * The knowledge base: articles in the store (knowledge_articles), the categories with their style, full-text
 * search for people (with snippets and highlight ranges), passage retrieval for the chat assistant, the
 * signed-in user's recent searches, per-category view counts ('Populære kategorier') and imports from a
 * folder of Markdown files (the sample content on first start, `vidensbank knowledge import DIR`).
 *
 * Reads come from memory (KnowledgeCatalog), which follows the store: at once for changes made here, within a
 * few seconds for changes made by another process.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import mongoose from "mongoose";
import { recordActivities } from "../activity/activity.service";
import { BookmarkModel } from "../bookmarks/bookmark.model";
import type { Passage } from "../chat/answer/types";
import type { AppConfig } from "../config";
import { Errors } from "../errors";
import { createLlmClient, type LlmClient } from "../llm";
import { logger } from "../logger";
import { questionTerms, relevanceOf } from "../search/search.passage-relevance";
import type {
  EmbedFunction,
  QueryCorrection,
  RetrievalResult,
  RetrievedPassage,
  TextRange,
} from "../search/search.types";
import type { UserDoc } from "../users/user.model";
import { type ArticleDoc, ArticleModel, type ArticleRecord, type ArticleSource } from "./article.model";
import { type ArticleView, articleUrl } from "./article.presenter";
import { CATEGORY_STYLES, type CategoryStyle, categoryStyle, compareCategories } from "./categories";
import { CategoryViewModel } from "./category-view.model";
import { loadContentDir } from "./content";
import { KnowledgeCatalog, toView } from "./knowledge.catalog";
import { RecentSearchModel } from "./recent-search.model";

/** The repository's sample articles, imported on the first start of an empty store. */
export const SAMPLE_CONTENT_DIR = fileURLToPath(new URL("../../../content", import.meta.url));

/** knowledge_meta document recording that the first start has happened (the samples were offered). */
const SAMPLE_MARKER = "sample-content";

/** A search text longer than this is refused (the index itself only reads the first 256 characters). */
export const MAX_SEARCH_INPUT = 10_000;
/** Searches of one user waiting to be recorded; more are not recorded until these are written. */
export const MAX_PENDING_SEARCHES = 50;
/** Searches are recorded this long after the first unwritten one, together (one write per collection). */
export const SEARCH_RECORD_DELAY_MS = 50;
/** Recent searches kept per user. */
export const RECENT_SEARCHES_KEPT = 20;
export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;
export const RETRIEVE_K_MAX = 20;

export const knowledgeMessages = {
  notFound: "Artiklen blev ikke fundet",
  queryNotText: "Søgningen skal være tekst",
  queryTooLong: `Søgningen er for lang (højst ${MAX_SEARCH_INPUT} tegn)`,
  categoryInvalid: "Ugyldig kategori (en tekst på højst 200 tegn)",
  adminOnly: "Kun administratorer kan redigere artikler",
  titleRequired: "Titel er påkrævet",
  titleTooLong: "Titlen må højst være 200 tegn",
  contentRequired: "Indhold er påkrævet",
  contentTooLong: "Indholdet må højst være 200.000 tegn",
  categoryRequired: "Kategori er påkrævet",
  categoryTooLong: "Kategorien må højst være 100 tegn",
  subcategoryTooLong: "Underkategorien må højst være 100 tegn",
  tagsInvalid: "Tags skal være en liste af korte tekster (højst 30, hver højst 50 tegn)",
} as const;

/** Articles by category, with the catalog version they were read at (equal versions = equal content). */
export interface ArticleGroups {
  version: number;
  groups: Map<string, ArticleView[]>;
}

export interface CategorySummary extends CategoryStyle {
  name: string;
  /** articles in the category */
  count: number;
}

export interface SearchInput {
  query: unknown;
  category?: unknown;
  limit?: number | null;
  offset?: number | null;
}

export interface KnowledgeSearchHit {
  article: ArticleView;
  score: number;
  snippet: string;
  highlights: TextRange[];
  titleHighlights: TextRange[];
}

export interface KnowledgeSearchResult {
  hits: KnowledgeSearchHit[];
  total: number;
  /** the text actually searched (trimmed; cut when long) */
  query: string;
  truncated: boolean;
  /** words replaced by a close indexed word (typos) */
  corrections: QueryCorrection[];
}

/** A search waiting to be written to the user's recent searches and the activity log. */
interface PendingSearch {
  userId: mongoose.Types.ObjectId;
  userKey: string;
  userName: string;
  userEmail: string;
  query: string;
  category: string | null;
  results: number;
  at: Date;
}

export interface RecentSearchView {
  id: string;
  query: string;
  timestamp: Date;
}

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

export interface SourcedArticleInput extends ArticleInput {
  source: ArticleSource;
  /** the idempotency key within the source: a local file's relative path, a Notion page id */
  sourceId: string;
  sourceUrl?: string | null;
  /** computed from the fields when absent */
  contentHash?: string;
}

export type SaveStatus = "created" | "updated" | "unchanged";

export interface ImportResult {
  created: number;
  updated: number;
  unchanged: number;
  total: number;
}

export interface TopCategory {
  category: string;
  count: number;
}

export interface KnowledgeServiceDeps {
  config: AppConfig;
  /** LLM client for embeddings; default: one built from config when OPENAI_EMBEDDING_MODEL is set */
  llm?: LlmClient;
  /** an embed function instead of the LLM client's (tests) */
  embed?: EmbedFunction;
  /** the folder ensureSampleContent() imports (default SAMPLE_CONTENT_DIR) */
  sampleContentDir?: string;
  /** how often at most reads check the store for changes by other processes (default 2 s) */
  checkIntervalMs?: number;
  /** how often at most passages left without embeddings are retried (default 60 s) */
  embedRetryMs?: number;
}

const OBJECT_ID_RE = /^[0-9a-f]{24}$/i;

/** true for a 24-hex-digit id (mongoose also accepts any 12-character string, which we do not want). */
export function isObjectIdString(id: unknown): id is string {
  return typeof id === "string" && OBJECT_ID_RE.test(id);
}

/** sha256 of the fields an article shows (for articles that do not bring their own hash). */
export function hashArticle(a: ArticleInput): string {
  return createHash("sha256")
    .update(JSON.stringify([a.title, a.category, a.subcategory ?? null, a.tags ?? [], a.content]))
    .digest("hex");
}

function embedFromConfig(config: AppConfig, llm?: LlmClient): EmbedFunction | undefined {
  if (!config.openaiEmbeddingModel) return undefined;
  const client = llm?.embeddingModel
    ? llm
    : createLlmClient({
        apiKey: config.openaiApiKey ?? "not-needed",
        baseURL: config.openaiBaseUrl,
        model: config.openaiModel ?? "unused",
        embeddingModel: config.openaiEmbeddingModel,
        timeoutMs: 30_000,
        maxRetries: 2,
      });
  return (texts) => client.embed(texts);
}

/**
 * Cosine similarities of unrelated texts are not 0 for embedding models (about 0.1-0.2 for OpenAI's
 * text-embedding-3 models); those of a passage that answers the question lie around 0.4-0.7. Map that band
 * onto 0..1: COSINE_FLOOR → 0, COSINE_FLOOR + COSINE_SPAN → 1.
 */
export const COSINE_FLOOR = 0.2;
export const COSINE_SPAN = 0.5;

/**
 * The chat's relevance gate compares a passage's score with a fixed threshold, so scores must be relevances in
 * 0..1 comparable across queries. Text matches use the chat module's rule (the share of the question's terms a
 * passage contains, weighted by its BM25 rank: relevanceOf); with embeddings, a passage is as relevant as the
 * better of that and its rescaled cosine similarity to the question (the fused rank score of hybrid retrieval
 * orders passages but does not say how relevant they are: rank 1 of either list alone is always 0.5).
 */
function relevances(res: RetrievalResult): number[] {
  const terms = questionTerms(res);
  const lexicalOf = (p: RetrievedPassage) => (res.mode === "hybrid" ? (p.lexicalScore ?? 0) : p.score);
  const maxLexical = Math.max(0, ...res.passages.map(lexicalOf));
  return res.passages.map((p) => {
    const lexical =
      lexicalOf(p) > 0 ? relevanceOf({ ...p, score: lexicalOf(p) }, terms, maxLexical, false) : 0;
    const vector = p.vectorScore === undefined ? 0 : (p.vectorScore - COSINE_FLOOR) / COSINE_SPAN;
    return Math.min(1, Math.max(0, lexical, vector));
  });
}

function readQuery(query: unknown): string {
  if (typeof query !== "string")
    throw Errors.invalidFields([{ field: "query", message: knowledgeMessages.queryNotText }]);
  if (query.length > MAX_SEARCH_INPUT) {
    throw Errors.invalidFields([{ field: "query", message: knowledgeMessages.queryTooLong }]);
  }
  return query;
}

function readCategory(category: unknown): string | undefined {
  if (category === undefined || category === null || category === "") return undefined;
  if (typeof category !== "string" || category.length > 200) {
    throw Errors.invalidFields([{ field: "category", message: knowledgeMessages.categoryInvalid }]);
  }
  return category.trim() || undefined;
}

function clamp(n: number | null | undefined, min: number, max: number, fallback: number): number {
  if (typeof n !== "number" || !Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(n)));
}

/** Trimmed, checked article fields; BAD_USER_INPUT naming every wrong field. */
export function validateArticleInput(input: ArticleInput): CleanArticleInput {
  const fields: { field: string; message: string }[] = [];
  const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  const title = text(input.title);
  const content = typeof input.content === "string" ? input.content : "";
  const category = text(input.category);
  const subcategory = text(input.subcategory) || null;
  if (!title) fields.push({ field: "title", message: knowledgeMessages.titleRequired });
  else if (title.length > 200) fields.push({ field: "title", message: knowledgeMessages.titleTooLong });
  if (!content.trim()) fields.push({ field: "content", message: knowledgeMessages.contentRequired });
  else if (content.length > 200_000)
    fields.push({ field: "content", message: knowledgeMessages.contentTooLong });
  if (!category) fields.push({ field: "category", message: knowledgeMessages.categoryRequired });
  else if (category.length > 100)
    fields.push({ field: "category", message: knowledgeMessages.categoryTooLong });
  if (subcategory && subcategory.length > 100) {
    fields.push({ field: "subcategory", message: knowledgeMessages.subcategoryTooLong });
  }
  const rawTags = input.tags ?? [];
  const tagsOk =
    Array.isArray(rawTags) &&
    rawTags.length <= 30 &&
    rawTags.every((t) => typeof t === "string" && t.length <= 50);
  if (!tagsOk) fields.push({ field: "tags", message: knowledgeMessages.tagsInvalid });
  if (fields.length > 0) throw Errors.invalidFields(fields);
  const tags = [...new Set((rawTags as string[]).map((t) => t.trim()).filter(Boolean))];
  return { title, content, category, subcategory, tags };
}

export class KnowledgeService {
  private readonly catalog: KnowledgeCatalog;
  private readonly sampleContentDir: string;
  private grouped: ArticleGroups | null = null;
  /** searches not written yet, in order */
  private unrecorded: PendingSearch[] = [];
  /** per user id: their searches not written yet or being written */
  private readonly recordingPerUser = new Map<string, number>();
  private recordTimer: NodeJS.Timeout | null = null;
  /** per user id: searches not recorded since the last warning (one warning per batch, not one per search) */
  private readonly unrecordable = new Map<string, number>();
  /** the writes of recorded searches, one batch after another */
  private recording: Promise<void> = Promise.resolve();

  constructor(deps: KnowledgeServiceDeps) {
    this.catalog = new KnowledgeCatalog({
      embed: deps.embed ?? embedFromConfig(deps.config, deps.llm),
      checkIntervalMs: deps.checkIntervalMs,
      embedRetryMs: deps.embedRetryMs,
    });
    this.sampleContentDir = deps.sampleContentDir ?? SAMPLE_CONTENT_DIR;
  }

  /** true when retrieval combines text search with embeddings */
  get hybrid(): boolean {
    return this.catalog.index.hybrid;
  }

  /** Increases whenever the articles in memory change (for caching presented output). */
  get version(): number {
    return this.catalog.version;
  }

  // ---- start-up and imports ---------------------------------------------------------------------

  /**
   * Start-up: on the first start of an empty store, import the sample content; then load the articles into
   * memory and the search index. Safe to call on every start: a store that has (or once had) articles is
   * never filled again, so an admin who removed the samples does not get them back on restart.
   */
  async ensureSampleContent(): Promise<ImportResult | null> {
    let result: ImportResult | null = null;
    const meta = mongoose.connection.collection<{ _id: string; importedAt: Date }>("knowledge_meta");
    const empty = (await ArticleModel.countDocuments({})) === 0;
    if (empty && !(await meta.findOne({ _id: SAMPLE_MARKER }))) {
      if (fs.existsSync(this.sampleContentDir)) {
        result = await this.importDirectory(this.sampleContentDir);
        logger.info(result, "sample knowledge imported");
      } else {
        logger.warn(
          { dir: this.sampleContentDir },
          "no sample content folder; the knowledge base starts empty",
        );
      }
    }
    await meta.updateOne(
      { _id: SAMPLE_MARKER },
      { $setOnInsert: { importedAt: new Date() } },
      { upsert: true },
    );
    await this.catalog.refresh();
    return result;
  }

  /** Re-read every article from the store into memory and the search index now (after bulk writes). */
  async reload(): Promise<void> {
    await this.catalog.refresh();
  }

  /**
   * Import every Markdown file under `dir` (front matter: title, category, subcategory, tags) as a local
   * article keyed by its relative path: new paths are created, changed files updated, unchanged files not
   * written. Throws ContentError (naming the file and field) before writing anything when a file is invalid.
   */
  async importDirectory(dir: string): Promise<ImportResult> {
    const files = await loadContentDir(dir);
    const result: ImportResult = { created: 0, updated: 0, unchanged: 0, total: files.length };
    for (const f of files) {
      const { status } = await this.saveFromSource({
        source: "local",
        sourceId: f.sourcePath,
        title: f.title,
        content: f.content,
        category: f.category,
        subcategory: f.subcategory ?? null,
        tags: f.tags,
        contentHash: f.contentHash,
      });
      result[status]++;
    }
    return result;
  }

  /**
   * Create or update the article of (source, sourceId): unchanged content hash = no write. For importers
   * (local folders, Notion sync). A changed title is copied to the article's bookmarks.
   */
  async saveFromSource(input: SourcedArticleInput): Promise<{ status: SaveStatus; article: ArticleView }> {
    const fields = validateArticleInput(input);
    const contentHash = input.contentHash ?? hashArticle(fields);
    const sourceUrl = input.sourceUrl ?? null;
    const attempt = async (retried: boolean): Promise<{ status: SaveStatus; article: ArticleView }> => {
      const existing = await ArticleModel.findOne({ source: input.source, sourceId: input.sourceId });
      if (existing && existing.contentHash === contentHash && (existing.sourceUrl ?? null) === sourceUrl) {
        return { status: "unchanged", article: toView(existing.toObject() as ArticleRecord) };
      }
      if (!existing) {
        let created: ArticleDoc;
        try {
          created = await ArticleModel.create({
            ...fields,
            source: input.source,
            sourceId: input.sourceId,
            sourceUrl,
            contentHash,
          });
        } catch (err) {
          // another process (a second server starting, the CLI) created it a moment ago: update that one
          if ((err as { code?: number }).code === 11000 && !retried) return attempt(true);
          throw err;
        }
        const view = toView(created.toObject() as ArticleRecord);
        await this.catalog.apply(view);
        return { status: "created", article: view };
      }
      const oldTitle = existing.title;
      existing.set({ ...fields, sourceUrl, contentHash });
      await existing.save();
      const view = toView(existing.toObject() as ArticleRecord);
      if (oldTitle !== view.title) {
        await BookmarkModel.updateMany({ articleId: existing._id }, { $set: { articleTitle: view.title } });
      }
      await this.catalog.apply(view);
      return { status: "updated", article: view };
    };
    return this.catalog.exclusive(() => attempt(false));
  }

  // ---- editing (admin) ----------------------------------------------------------------------------

  private assertAdmin(actor: UserDoc): void {
    if (actor.role !== "admin") throw Errors.forbidden(knowledgeMessages.adminOnly);
  }

  /** Create an article by hand (admin). It is searchable when this resolves. */
  async createArticle(actor: UserDoc, input: ArticleInput): Promise<ArticleView> {
    this.assertAdmin(actor);
    const sourceId = `manual:${new mongoose.Types.ObjectId().toHexString()}`;
    const { article } = await this.saveFromSource({ ...input, source: "local", sourceId });
    return article;
  }

  /** Change an article (admin): found by its new words, and no longer by its old ones, when this resolves. */
  async updateArticle(actor: UserDoc, id: string, input: ArticleInput): Promise<ArticleView> {
    this.assertAdmin(actor);
    const doc = await this.findDoc(id);
    const { article } = await this.saveFromSource({
      ...input,
      source: doc.source as ArticleSource,
      sourceId: doc.sourceId,
      sourceUrl: doc.sourceUrl ?? null,
    });
    return article;
  }

  /** Delete an article (admin): gone from lists, search and retrieval, and from everyone's bookmarks. */
  async deleteArticle(actor: UserDoc, id: string): Promise<void> {
    this.assertAdmin(actor);
    const doc = await this.findDoc(id);
    await this.removeDoc(doc._id);
  }

  /** Delete the article of (source, sourceId) if there is one (importers: a Notion page archived). */
  async deleteFromSource(source: ArticleSource, sourceId: string): Promise<boolean> {
    const doc = await ArticleModel.findOne({ source, sourceId }, { _id: 1 }).lean();
    if (!doc) return false;
    await this.removeDoc(doc._id as mongoose.Types.ObjectId);
    return true;
  }

  private async removeDoc(id: mongoose.Types.ObjectId): Promise<void> {
    await this.catalog.exclusive(async () => {
      await ArticleModel.deleteOne({ _id: id });
      await BookmarkModel.deleteMany({ articleId: id });
      await this.catalog.remove(String(id));
    });
  }

  private async findDoc(id: string) {
    if (!isObjectIdString(id)) throw Errors.notFound(knowledgeMessages.notFound);
    const doc = await ArticleModel.findById(id);
    if (!doc) throw Errors.notFound(knowledgeMessages.notFound);
    return doc;
  }

  // ---- reading ------------------------------------------------------------------------------------

  /** Every article, by title. */
  async listArticles(category?: string | null): Promise<ArticleView[]> {
    await this.catalog.ensureFresh();
    const cat = readCategory(category);
    return this.catalog
      .all()
      .filter((a) => cat === undefined || a.category === cat)
      .sort((a, b) => a.title.localeCompare(b.title, "da"));
  }

  /**
   * Articles grouped by category (spec §7 GET /api/knowledge): known categories first, in their order,
   * then the others; articles by title within each.
   */
  async articlesByCategory(): Promise<ArticleGroups> {
    await this.catalog.ensureFresh();
    const version = this.catalog.version;
    if (this.grouped?.version === version) return this.grouped;
    const groups = new Map<string, ArticleView[]>();
    for (const a of await this.listArticles()) {
      const list = groups.get(a.category) ?? [];
      list.push(a);
      groups.set(a.category, list);
    }
    const sorted = new Map([...groups.entries()].sort(([a], [b]) => compareCategories(a, b)));
    this.grouped = { version, groups: sorted };
    return this.grouped;
  }

  /** The four known categories (also when empty) and every other category that has articles, with counts. */
  async categories(): Promise<CategorySummary[]> {
    await this.catalog.ensureFresh();
    const counts = new Map<string, number>(Object.keys(CATEGORY_STYLES).map((c) => [c, 0]));
    for (const a of this.catalog.all()) counts.set(a.category, (counts.get(a.category) ?? 0) + 1);
    return [...counts.entries()]
      .sort(([a], [b]) => compareCategories(a, b))
      .map(([name, count]) => ({ name, count, ...categoryStyle(name) }));
  }

  /** An article from memory (no store read; null when unknown): for lists that show article details. */
  async peekArticle(id: string): Promise<ArticleView | null> {
    await this.catalog.ensureFresh();
    return this.catalog.get(id) ?? null;
  }

  /** One article by id, read from the store; NOT_FOUND for unknown or malformed ids. */
  async getArticle(id: string): Promise<ArticleView> {
    const doc = await this.findDoc(id);
    return toView(doc.toObject() as ArticleRecord);
  }

  /** A user opened an article: one article by id, counted toward its category's views. */
  async viewArticle(user: UserDoc, id: string): Promise<ArticleView> {
    const article = await this.getArticle(id);
    try {
      await CategoryViewModel.updateOne(
        { category: article.category },
        { $inc: { views: 1 }, $set: { lastViewedAt: new Date() } },
        { upsert: true },
      );
    } catch (err) {
      // a lost view count must not hide the article
      logger.error(
        { err, userId: String(user._id), category: article.category },
        "could not count an article view",
      );
    }
    return article;
  }

  /** The most viewed categories, most first (admin statistics: 'Populære kategorier', 'N visninger'). */
  async topCategories(limit = 5): Promise<TopCategory[]> {
    const n = clamp(limit, 1, 100, 5);
    const rows = await CategoryViewModel.find({ views: { $gt: 0 } })
      .sort({ views: -1, category: 1 })
      .limit(n)
      .lean();
    return rows.map((r) => ({ category: r.category, count: r.views }));
  }

  // ---- search -------------------------------------------------------------------------------------

  /**
   * Full-text search (Danish stemming, typo tolerance, compound prefixes), with a snippet and highlight
   * ranges per hit; optionally within one category. Empty or stop-word-only queries give no hits. A
   * non-empty search by a signed-in user is kept in their recent searches and logged as `search`.
   */
  async search(user: UserDoc | null, input: SearchInput): Promise<KnowledgeSearchResult> {
    const raw = readQuery(input.query);
    const category = readCategory(input.category);
    const limit = clamp(input.limit, 1, SEARCH_LIMIT_MAX, SEARCH_LIMIT_DEFAULT);
    const offset = clamp(input.offset, 0, 10_000, 0);
    await this.catalog.ensureFresh();
    const res = this.catalog.index.search(raw, { limit, offset, category });
    const hits: KnowledgeSearchHit[] = [];
    for (const h of res.hits) {
      const article = this.catalog.get(h.articleId);
      if (!article) continue;
      hits.push({
        article,
        score: h.score,
        snippet: h.snippet,
        highlights: h.highlights,
        titleHighlights: h.titleHighlights,
      });
    }
    const result: KnowledgeSearchResult = {
      hits,
      total: res.total,
      query: res.query.text,
      truncated: res.query.truncated,
      corrections: res.query.corrections,
    };
    // paging through the same results is one search
    if (user && result.query && offset === 0) this.recordSearch(user, result, category);
    return result;
  }

  /**
   * Recording a search takes store writes; the searcher should not wait for them, and one write per search
   * (through mongoose, the driver and the store) cost more than the search itself. So searches are queued
   * and written together SEARCH_RECORD_DELAY_MS after the first unwritten one: one bulk upsert of recent
   * searches (a text searched twice in the batch counts once, at its latest time) and one insert of activity
   * entries (each with the time of its search). Batches are written one after another, in order; reading a
   * user's recent searches first writes theirs. Recording never fails the search (errors are logged). A user
   * with MAX_PENDING_SEARCHES still unwritten (a script hammering the search) is not recorded further until
   * they are written: memory stays bounded.
   */
  private recordSearch(user: UserDoc, result: KnowledgeSearchResult, category: string | undefined): void {
    const userKey = String(user._id);
    const queued = this.recordingPerUser.get(userKey) ?? 0;
    if (queued >= MAX_PENDING_SEARCHES) {
      this.unrecordable.set(userKey, (this.unrecordable.get(userKey) ?? 0) + 1);
      return;
    }
    this.recordingPerUser.set(userKey, queued + 1);
    this.unrecorded.push({
      userId: user._id,
      userKey,
      userName: user.name,
      userEmail: user.email,
      query: result.query,
      category: category ?? null,
      results: result.total,
      at: new Date(),
    });
    if (!this.recordTimer) {
      this.recordTimer = setTimeout(() => void this.writeRecordedSearches(), SEARCH_RECORD_DELAY_MS);
      this.recordTimer.unref();
    }
  }

  /** Start writing every queued search now; resolves when they (and every earlier batch) are written. */
  private writeRecordedSearches(): Promise<void> {
    if (this.recordTimer) {
      clearTimeout(this.recordTimer);
      this.recordTimer = null;
    }
    for (const [userId, skipped] of this.unrecordable) {
      logger.warn({ userId, skipped }, "searches arrived faster than they could be recorded; some were not");
    }
    this.unrecordable.clear();
    const batch = this.unrecorded;
    if (batch.length === 0) return this.recording;
    this.unrecorded = [];
    this.recording = this.recording
      .then(() => this.writeSearches(batch))
      .catch((err) => logger.error({ err, searches: batch.length }, "could not record searches"))
      .finally(() => {
        for (const s of batch) {
          const n = (this.recordingPerUser.get(s.userKey) ?? 1) - 1;
          if (n <= 0) this.recordingPerUser.delete(s.userKey);
          else this.recordingPerUser.set(s.userKey, n);
        }
      });
    return this.recording;
  }

  /** Resolves when every search recorded so far has been written (tests, shutdown). */
  async searchesRecorded(): Promise<void> {
    while (this.unrecorded.length > 0 || this.recordingPerUser.size > 0) await this.writeRecordedSearches();
  }

  private async writeSearches(batch: PendingSearch[]): Promise<void> {
    await Promise.all([
      this.rememberSearches(batch),
      recordActivities(
        batch.map((s) => ({
          action: "search",
          description: `${s.userName} søgte efter "${s.query}"`,
          userEmail: s.userEmail,
          userId: s.userKey,
          metadata: { query: s.query, category: s.category, results: s.results },
          timestamp: s.at,
        })),
      ),
    ]);
  }

  /**
   * Keep searches in their users' recent searches (one entry per text: again = to the top), at most
   * RECENT_SEARCHES_KEPT per user.
   */
  private async rememberSearches(batch: PendingSearch[]): Promise<void> {
    const latest = new Map<string, PendingSearch>();
    for (const s of batch) {
      const key = `${s.userKey}\u0000${s.query}`;
      latest.delete(key); // keep the order of the last search of each text
      latest.set(key, s);
    }
    const searches = [...latest.values()];
    const ops = searches.map((s) => ({
      updateOne: {
        filter: { userId: s.userId, query: s.query },
        update: { $set: { timestamp: s.at } },
        upsert: true,
      },
    }));
    let upserted: Record<string, unknown> = {};
    try {
      const res = await RecentSearchModel.bulkWrite(ops, { ordered: false });
      upserted = res.upsertedIds ?? {};
    } catch (err) {
      // the same search written at the same moment by another process meets the unique index: it is kept
      // once, as wanted; the other searches of the batch are written all the same (unordered)
      const e = err as {
        writeErrors?: { code?: number }[];
        code?: number;
        result?: { upsertedIds?: Record<string, unknown> };
      };
      const errors = e.writeErrors ?? [e];
      if (!errors.every((w) => w.code === 11000)) {
        logger.error({ err, searches: ops.length }, "could not save recent searches");
      }
      upserted = e.result?.upsertedIds ?? {};
    }
    // users with a new entry may now have more than RECENT_SEARCHES_KEPT
    const grown = new Map<string, mongoose.Types.ObjectId>();
    for (const i of Object.keys(upserted)) {
      const s = searches[Number(i)];
      if (s) grown.set(s.userKey, s.userId);
    }
    for (const userId of grown.values()) {
      try {
        const old = await RecentSearchModel.find({ userId }, { _id: 1 })
          .sort({ timestamp: -1, _id: -1 })
          .skip(RECENT_SEARCHES_KEPT)
          .lean();
        if (old.length > 0) await RecentSearchModel.deleteMany({ _id: { $in: old.map((o) => o._id) } });
      } catch (err) {
        logger.error({ err, userId: String(userId) }, "could not trim recent searches");
      }
    }
  }

  /** The user's last searches, newest first (at most RECENT_SEARCHES_KEPT). */
  async recentSearches(
    userId: string,
    limit: number | null = RECENT_SEARCHES_KEPT,
  ): Promise<RecentSearchView[]> {
    const n = clamp(limit, 1, RECENT_SEARCHES_KEPT, RECENT_SEARCHES_KEPT);
    if (this.recordingPerUser.has(userId)) await this.writeRecordedSearches();
    const rows = await RecentSearchModel.find({ userId: new mongoose.Types.ObjectId(userId) })
      .sort({ timestamp: -1, _id: -1 })
      .limit(n)
      .lean();
    return rows.map((r) => ({ id: String(r._id), query: r.query, timestamp: r.timestamp }));
  }

  /** Forget the user's recent searches. */
  async clearRecentSearches(userId: string): Promise<number> {
    // searches made before the clear, still waiting to be written, are cleared too
    if (this.recordingPerUser.has(userId)) await this.writeRecordedSearches();
    const res = await RecentSearchModel.deleteMany({ userId: new mongoose.Types.ObjectId(userId) });
    return res.deletedCount ?? 0;
  }

  /**
   * The k passages that best answer `query`, for the chat assistant (hybrid text + embeddings when an
   * embedding model is configured). Scores are relevances in 0..1, comparable across queries. Never throws
   * on odd input: a non-string or empty query gives [].
   */
  async retrievePassages(query: string, k = 6): Promise<Passage[]> {
    if (typeof query !== "string" || !query.trim()) return [];
    await this.catalog.ensureFresh();
    const res = await this.catalog.index.retrieve(query.slice(0, MAX_SEARCH_INPUT), {
      k: clamp(k, 1, RETRIEVE_K_MAX, 6),
    });
    const scores = relevances(res);
    const out: Passage[] = [];
    res.passages.forEach((p, i) => {
      const article = this.catalog.get(p.articleId);
      if (!article) return;
      out.push({
        articleId: p.articleId,
        title: p.title,
        headingPath: p.headingPath,
        text: p.text,
        score: scores[i],
        updatedAt: article.updatedAt,
        url: articleUrl(article),
      });
    });
    // best first by relevance (the index order is its ranking; the relevance decides what the chat uses)
    return out.sort((a, b) => b.score - a.score);
  }

  /** Article counts and index figures (admin, CLI). */
  async stats() {
    await this.catalog.ensureFresh();
    return this.catalog.index.stats();
  }
}

/** For other modules: is this an existing article? Returns its id and title. */
export async function findArticleRef(
  id: string,
): Promise<{ id: mongoose.Types.ObjectId; title: string } | null> {
  if (!isObjectIdString(id)) return null;
  const doc = await ArticleModel.findById(id, { title: 1 }).lean();
  return doc ? { id: doc._id, title: doc.title } : null;
}

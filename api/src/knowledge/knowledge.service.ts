/**
 * The knowledge base as the doors (GraphQL, REST, CLI) and the chat see it: one facade over the modules that
 * each do one job, sharing the articles in memory (KnowledgeCatalog, which follows the store: at once for changes
 * made here, within a few seconds for changes made by another process):
 *
 * - knowledge.import.ts      writing articles (saveFromSource), folder imports, the sample content on first start
 * - articles.service.ts      lists, categories, one article, the admin's create / edit / delete
 * - knowledge.search.ts      full-text search with snippets and typo correction
 * - recent-searches.recorder.ts  the user's recent searches and `search` log entries, written behind the search
 * - knowledge.retrieval.ts   passages with 0..1 relevances for the chat assistant
 *
 * Other features hear of deleted and renamed articles through KnowledgeHooks (wired in services.ts).
 */
import type { AppConfig } from "../config";
import type { ChangeFeed } from "../events/change-feed";
import { createLlmClient, type LlmClient } from "../llm";
import type { EmbedFunction } from "../search/search.types";
import type { UserDoc, UserIdentity } from "../users/user.model";
import type { ArticleSource } from "./article.model";
import type { ArticleView } from "./article.presenter";
import {
  type ArticleGroups,
  ArticlesService,
  type CategorySummary,
  type TopCategory,
} from "./articles.service";
import { KnowledgeCatalog } from "./knowledge.catalog";
import {
  type ImportResult,
  type KnowledgeHooks,
  KnowledgeImporter,
  type SaveStatus,
  type SourcedArticleInput,
} from "./knowledge.import";
import type { ArticleInput } from "./knowledge.input";
import { PersistedIndex, searchIndexFile } from "./knowledge.persisted-index";
import {
  type KnowledgePassage,
  RETRIEVE_K_DEFAULT,
  type RetrievalFilter,
  retrievePassages,
} from "./knowledge.retrieval";
import { KnowledgeSearch, type KnowledgeSearchResult, type SearchInput } from "./knowledge.search";
import { watchArticles } from "./knowledge.watch";
import {
  RECENT_SEARCHES_KEPT,
  RecentSearchRecorder,
  type RecentSearchView,
} from "./recent-searches.recorder";

// The names this module exported before it was split: callers keep importing them from here.
export {
  type ArticleGroups,
  type CategorySummary,
  findArticleRef,
  type TopCategory,
} from "./articles.service";
export {
  hashArticle,
  type ImportResult,
  type KnowledgeHooks,
  SAMPLE_CONTENT_DIR,
  type SaveStatus,
  type SourcedArticleInput,
} from "./knowledge.import";
export {
  type ArticleInput,
  type CleanArticleInput,
  isObjectIdString,
  MAX_SEARCH_INPUT,
  validateArticleInput,
} from "./knowledge.input";
export { COSINE_FLOOR, COSINE_SPAN, RETRIEVE_K_MAX } from "./knowledge.retrieval";
export {
  type KnowledgeSearchHit,
  type KnowledgeSearchResult,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  type SearchInput,
} from "./knowledge.search";
export {
  MAX_PENDING_SEARCHES,
  RECENT_SEARCHES_KEPT,
  type RecentSearchView,
  SEARCH_RECORD_DELAY_MS,
} from "./recent-searches.recorder";

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
  /** what other features must hear about article changes (services.ts wires bookmarks here) */
  hooks?: KnowledgeHooks;
  /** where the search index persists between starts; default DATA_DIR/search-index.bin, null = nowhere */
  persistedIndex?: PersistedIndex | null;
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

export class KnowledgeService {
  private readonly catalog: KnowledgeCatalog;
  private readonly importer: KnowledgeImporter;
  private readonly articles: ArticlesService;
  private readonly searcher: KnowledgeSearch;
  private readonly recorder = new RecentSearchRecorder();

  constructor(deps: KnowledgeServiceDeps) {
    const embed = deps.embed ?? embedFromConfig(deps.config, deps.llm);
    // vectors of one embedding model are no use to another: the model is part of what a persisted index fits
    const embedModel = embed ? (deps.embed ? "custom" : (deps.config.openaiEmbeddingModel ?? null)) : null;
    this.catalog = new KnowledgeCatalog({
      embed,
      checkIntervalMs: deps.checkIntervalMs,
      embedRetryMs: deps.embedRetryMs,
      persisted:
        deps.persistedIndex === undefined
          ? new PersistedIndex(searchIndexFile(deps.config.dataDir), embedModel)
          : (deps.persistedIndex ?? undefined),
    });
    this.importer = new KnowledgeImporter(this.catalog, deps.hooks, deps.sampleContentDir);
    this.articles = new ArticlesService(this.catalog, this.importer);
    this.searcher = new KnowledgeSearch(this.catalog, this.recorder);
  }

  /**
   * Follow article changes made by any process (other servers, the CLI, a Notion sync) through a change
   * stream, so they are searchable here within moments; the periodic stamp check stays as the fallback (in the
   * background while the stream is caught up).
   */
  followStoreChanges(): ChangeFeed {
    const feed = watchArticles(this.catalog);
    // while the stream is caught up, no read waits for the catalog's periodic store check
    this.catalog.follow(() => feed.caughtUpTo());
    return {
      ...feed,
      close: async () => {
        this.catalog.follow(null);
        await feed.close();
      },
    };
  }

  /** Changes may have been missed: compare memory with the store at the next read. */
  resync(): void {
    this.catalog.markStale();
  }

  /** true when retrieval combines text search with embeddings */
  get hybrid(): boolean {
    return this.catalog.index.hybrid;
  }

  /** Increases whenever the articles in memory change (for caching presented output). */
  get version(): number {
    return this.catalog.version;
  }

  // ---- start-up and imports (knowledge.import.ts) -------------------------------------------------

  /** On the first start of an empty store, import the sample content; then load memory and the index. */
  ensureSampleContent(): Promise<ImportResult | null> {
    return this.importer.ensureSampleContent();
  }

  /** Writes the search index to DATA_DIR if it changed since the last write (shutdown). */
  close(): Promise<void> {
    return this.catalog.close();
  }

  /** Re-read every article from the store into memory and the search index now (after bulk writes). */
  reload(): Promise<void> {
    return this.catalog.refresh();
  }

  /** Import (create or update) every Markdown file under `dir`, keyed by its relative path. */
  importDirectory(dir: string): Promise<ImportResult> {
    return this.importer.importDirectory(dir);
  }

  /** Create or update the article of (source, sourceId) (importers: folders, the Notion sync). */
  saveFromSource(source: SourcedArticleInput): Promise<{ status: SaveStatus; article: ArticleView }> {
    return this.importer.saveFromSource(source);
  }

  /** Delete the article of (source, sourceId) if there is one (importers: a Notion page archived). */
  deleteFromSource(source: ArticleSource, sourceId: string): Promise<boolean> {
    return this.importer.deleteFromSource(source, sourceId);
  }

  // ---- articles (articles.service.ts) ---------------------------------------------------------------

  createArticle(actor: UserDoc, input: ArticleInput): Promise<ArticleView> {
    return this.articles.createArticle(actor, input);
  }

  updateArticle(actor: UserDoc, id: string, input: ArticleInput): Promise<ArticleView> {
    return this.articles.updateArticle(actor, id, input);
  }

  deleteArticle(actor: UserDoc, id: string): Promise<void> {
    return this.articles.deleteArticle(actor, id);
  }

  listArticles(category?: string | null): Promise<ArticleView[]> {
    return this.articles.listArticles(category);
  }

  articlesByCategory(): Promise<ArticleGroups> {
    return this.articles.articlesByCategory();
  }

  categories(): Promise<CategorySummary[]> {
    return this.articles.categories();
  }

  peekArticle(id: string): Promise<ArticleView | null> {
    return this.articles.peekArticle(id);
  }

  getArticle(id: string): Promise<ArticleView> {
    return this.articles.getArticle(id);
  }

  viewArticle(user: UserIdentity, id: string): Promise<ArticleView> {
    return this.articles.viewArticle(user, id);
  }

  topCategories(limit = 5): Promise<TopCategory[]> {
    return this.articles.topCategories(limit);
  }

  // ---- search (knowledge.search.ts, recent-searches.recorder.ts) ------------------------------------

  search(user: UserIdentity | null, input: SearchInput): Promise<KnowledgeSearchResult> {
    return this.searcher.search(user, input);
  }

  /** Resolves when every search recorded so far has been written (tests, shutdown). */
  searchesRecorded(): Promise<void> {
    return this.recorder.searchesRecorded();
  }

  recentSearches(userId: string, limit: number | null = RECENT_SEARCHES_KEPT): Promise<RecentSearchView[]> {
    return this.recorder.recentSearches(userId, limit);
  }

  clearRecentSearches(userId: string): Promise<number> {
    return this.recorder.clearRecentSearches(userId);
  }

  // ---- the chat's retrieval (knowledge.retrieval.ts) ------------------------------------------------

  /** The k passages that best answer `query`, with 0..1 relevances, best first. */
  retrievePassages(
    query: string,
    k = RETRIEVE_K_DEFAULT,
    filter?: RetrievalFilter,
  ): Promise<KnowledgePassage[]> {
    return retrievePassages(this.catalog, query, k, filter);
  }

  /**
   * The chat's candidates: the k passages that best answer `query`, followed by the best article's other sections
   * below the gate (LEAD_SECTION_SCORE), so a retrieval-only answer may quote the section that answers.
   */
  chatPassages(query: string, k = RETRIEVE_K_DEFAULT, filter?: RetrievalFilter): Promise<KnowledgePassage[]> {
    return retrievePassages(this.catalog, query, k, filter, { leadSections: true });
  }

  /** Article counts and index figures (admin, CLI). */
  async stats() {
    await this.catalog.ensureFresh();
    return this.catalog.index.stats();
  }
}

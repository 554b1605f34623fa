/**
 * The knowledge index: the orama databases of articles and passages, kept in step with the vocabulary, the
 * passage embeddings and the fingerprint, behind one public API (KnowledgeIndex). The jobs it composes live
 * beside it: the orama layout (search.orama.ts), what is kept per article (search.stored.ts), query analysis
 * (search.query.ts) over the vocabulary with typo correction (search.vocabulary.ts), embeddings and cosine
 * search (search.vectors.ts), passage retrieval for the chat (search.retrieve.ts), rank fusion (search.fusion.ts),
 * input checks (search.article.ts), scoring (search.scorer.ts) and snippets (search.snippet.ts).
 */
import type { AnyOrama } from "@orama/orama";
import { clampInt, errorMessage, validateArticle } from "./search.article";
import { RERANK_POOL, rerank, TermSetCache, type TermSets, withBestSection } from "./search.coverage";
import { preloadDanish, preloadDanishSoon } from "./search.danish";
import { formatFingerprint, revisionOf } from "./search.fingerprint";
import {
  ARTICLE_BOOST,
  articleDoc,
  headingsOf,
  insertArticleDoc,
  insertPassageDoc,
  newArticleDb,
  newPassageDb,
  passageDoc,
  removeDoc,
} from "./search.orama";
import { type IndexSnapshot, type IndexState, restoreIndex } from "./search.persist";
import { dropDocs, packPostings } from "./search.persist-orama";
import { type AnalysedQuery, analyseQuery, MAX_CACHED_QUERY, QueryCache } from "./search.query-cache";
import { type RetrieveSource, retrievePassages } from "./search.retrieve";
import { scoreTopK } from "./search.scorer";
import { buildSnippet, matchRanges, SnippetSourceCache } from "./search.snippet";
import {
  inCategory,
  indexStats,
  isCurrent,
  type Prepared,
  prepareArticle,
  publicPassage,
  reusableVectors,
  type StoredArticle,
} from "./search.stored";
import type {
  ChunkOptions,
  IndexableArticle,
  IndexStats,
  KnowledgeIndexOptions,
  Passage,
  RebuildResult,
  RetrievalResult,
  RetrieveOptions,
  SearchHit,
  SearchOptions,
  SearchResult,
  UpsertResult,
} from "./search.types";
import { PassageEmbedder, type StoredPassage } from "./search.vectors";
import { Vocabulary } from "./search.vocabulary";

// The index's public API as it was before the split: callers keep importing these from here.
export { SearchIndexError, type SearchIndexErrorCode, validateArticle } from "./search.article";
export { MAX_QUERY_LENGTH, MAX_QUERY_TERMS } from "./search.query";

/**
 * In-process search over knowledge articles: full-text search of whole articles (for the knowledge
 * pages) and passage retrieval (for the chat assistant), both Danish-stemmed and typo tolerant,
 * with hybrid BM25 + vector retrieval when an embed function is given.
 *
 * Both indexes change together: once upsertArticle()/removeArticle() resolve, search and retrieve
 * see the new state; mutations run one at a time in call order. Searches are synchronous.
 */
export class KnowledgeIndex {
  private articleDb = newArticleDb();
  private passageDb = newPassageDb();
  private articles = new Map<string, StoredArticle>();
  /** The analysed plain text of the articles shown most recently (snippets). */
  private readonly snippetSources = new SnippetSourceCache();
  /** The index terms of the articles and passages ranked most recently (coverage of the question). */
  private readonly termSets = new TermSetCache();
  private passages = new Map<string, StoredPassage>();
  /** The words of the indexed articles (compound and prefix lookups, typo correction). */
  private vocabulary = new Vocabulary();
  /** Analysed queries (read-only once built), valid while the vocabulary (dbVersion) stays the same. */
  private readonly queries = new QueryCache();
  private fingerprintXor = 0n;
  private versionCounter = 0;
  /** Moves on every insert into or removal from the orama databases (scoreTopK's per-document cache). */
  private dbVersion = 0;
  private tail: Promise<unknown> = Promise.resolve();
  /** Set when an embed function was given: passages get vectors and retrieval is hybrid. */
  private readonly embedder?: PassageEmbedder;
  private readonly minSimilarity: number;
  private readonly chunkOptions: ChunkOptions;

  constructor(options: KnowledgeIndexOptions = {}) {
    if (options.embed) {
      this.embedder = new PassageEmbedder(options.embed, clampInt(options.embedBatchSize, 1, 2048, 64));
    }
    this.minSimilarity = options.minSimilarity ?? 0.2;
    this.chunkOptions = options.chunk ?? {};
  }

  /** True when passages are embedded and retrieve() is hybrid. */
  get hybrid(): boolean {
    return this.embedder !== undefined;
  }

  /** Increases by one on every change made in this process. */
  get version(): number {
    return this.versionCounter;
  }

  /** Equals computeFingerprint(articles) for exactly the indexed articles at their revisions. */
  get fingerprint(): string {
    return formatFingerprint(this.articles.size, this.fingerprintXor);
  }

  has(articleId: string): boolean {
    return this.articles.has(articleId);
  }

  /** The revision the index holds for an article (see revisionOf()), or undefined. */
  revisionOf(articleId: string): string | undefined {
    return this.articles.get(articleId)?.revision;
  }

  /**
   * Adds or replaces an article in both indexes (and embeds its changed passages). Throws
   * SearchIndexError for an invalid article; an embedding failure does not throw: the text is
   * indexed and the error is reported in the result.
   */
  upsertArticle(article: IndexableArticle): Promise<UpsertResult> {
    let clean: IndexableArticle;
    try {
      clean = validateArticle(article);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.serial(async () => {
      const existing = this.articles.get(clean.id);
      const revision = revisionOf(clean);
      if (isCurrent(existing, clean, revision)) {
        return {
          articleId: clean.id,
          changed: false,
          passages: existing.passages.length,
          embedded: existing.passages.filter((p) => p.vector).length,
        };
      }
      const prepared = this.prepare(clean, revision, reusableVectors(existing ? [existing] : []));
      const embeddingError = await this.embedMissing(prepared.missing);
      this.commitRemove(clean.id);
      this.commitInsert(prepared.article);
      this.versionCounter++;
      const embedded = prepared.article.passages.filter((p) => p.vector).length;
      return {
        articleId: clean.id,
        changed: true,
        passages: prepared.article.passages.length,
        embedded,
        ...(embeddingError ? { embeddingError } : {}),
      };
    });
  }

  /** Removes an article from search and retrieval. Resolves to false when it was not indexed. */
  removeArticle(articleId: string): Promise<boolean> {
    return this.serial(async () => {
      if (typeof articleId !== "string" || !this.articles.has(articleId)) return false;
      this.commitRemove(articleId);
      this.versionCounter++;
      return true;
    });
  }

  /**
   * Makes the index hold exactly `articles`: removes the missing ones and re-indexes only those whose
   * revision changed (embeddings of unchanged passages are reused). Invalid articles are skipped and
   * listed. With `force`, every article is re-indexed into fresh indexes.
   */
  rebuildFrom(
    articles: Iterable<IndexableArticle>,
    options: { force?: boolean } = {},
  ): Promise<RebuildResult> {
    const wanted = new Map<string, IndexableArticle>();
    const invalid: string[] = [];
    for (const raw of articles) {
      try {
        const clean = validateArticle(raw);
        wanted.set(clean.id, clean);
      } catch (err) {
        invalid.push(errorMessage(err));
      }
    }
    return this.serial(async () => {
      const reuse = reusableVectors(this.articles.values());
      const previous = new Map(this.articles);
      if (options.force) this.reset();
      const prepared: Prepared[] = [];
      let added = 0;
      let updated = 0;
      let unchanged = 0;
      for (const a of wanted.values()) {
        const revision = revisionOf(a);
        const current = this.articles.get(a.id);
        if (isCurrent(current, a, revision)) {
          unchanged++;
          continue;
        }
        if (previous.has(a.id)) updated++;
        else added++;
        prepared.push(this.prepare(a, revision, reuse));
      }
      const embeddingError = await this.embedMissing(prepared.flatMap((p) => p.missing));
      let removed = 0;
      for (const id of previous.keys()) {
        if (wanted.has(id)) continue;
        removed++;
        if (this.articles.has(id)) this.commitRemove(id);
      }
      for (const p of prepared) {
        this.commitRemove(p.article.id);
        this.commitInsert(p.article);
      }
      if (prepared.length > 0) {
        // hold what a restored index holds: the words' documents in one block, not orama's Sets; no documents
        for (const db of [this.articleDb, this.passageDb]) {
          packPostings(db);
          dropDocs(db);
        }
      }
      this.versionCounter++;
      preloadDanish(); // the first build (start-up): read the dictionary now, not on a user's first query
      return {
        added,
        updated,
        removed,
        unchanged,
        invalid,
        fingerprint: this.fingerprint,
        ...(embeddingError ? { embeddingError } : {}),
      };
    });
  }

  /** What a persisted snapshot is made of (search.persist.ts); read it synchronously, between two commits. */
  persistedState(): IndexState {
    const { articleDb, passageDb, articles, vocabulary } = this;
    return { articleDb, passageDb, articles, vocabulary };
  }

  /** Replaces the whole index with a snapshot; rejects, leaving the index as it was, when it does not hang together. */
  restore(snapshot: IndexSnapshot): Promise<void> {
    return this.serial(async () => {
      const vocabulary = new Vocabulary();
      const restored = restoreIndex(snapshot, vocabulary); // throws before anything here changes
      this.reset();
      this.vocabulary = vocabulary;
      // the restored maps are taken as they are (restoreIndex built them for this index)
      ({ articleDb: this.articleDb, passageDb: this.passageDb } = restored);
      ({ articles: this.articles, passages: this.passages } = restored);
      for (const a of this.articles.values()) this.fingerprintXor ^= a.digest;
      this.versionCounter++;
      performance.mark("search-index:vocabulary");
      preloadDanishSoon(); // after the server listens: the first searches rarely need it (search.danish.ts)
    });
  }

  /** Retries embedding passages left without a vector by an earlier failure. Resolves to how many got one. */
  embedPending(): Promise<number> {
    return this.serial(async () => {
      if (!this.embedder) return 0;
      const missing = [...this.passages.values()].filter((p) => !p.vector);
      const error = await this.embedMissing(missing);
      if (error) throw new Error(`Embedding fejlede: ${error}`);
      return missing.length;
    });
  }

  /**
   * Full-text search over articles (title boosted over tags, subcategory, category and content).
   * Never throws on bad input: a non-string, empty or stop-word-only query gives no hits; a long
   * query is cut to MAX_QUERY_LENGTH.
   */
  search(query: unknown, options: SearchOptions = {}): SearchResult {
    const q = this.analyse(query);
    const limit = clampInt(options?.limit, 1, 100, 10);
    const offset = clampInt(options?.offset, 0, 10_000, 0);
    if (q.oramaTerms.length === 0) return { hits: [], total: 0, query: q.info };
    const category = typeof options?.category === "string" && options.category ? options.category : undefined;
    const depth = Math.max(offset + limit, RERANK_POOL);
    const { res, ranked } = this.articleRanking(q, depth, category);
    const hits: SearchHit[] = [];
    for (const h of ranked.slice(offset, offset + limit)) {
      const a = this.articles.get(h.id);
      if (!a) continue;
      const { snippet, highlights } = buildSnippet(
        this.snippetSources.sourceOf(a.id, a, a.content),
        q.highlight,
      );
      hits.push({
        articleId: a.id,
        title: a.title,
        category: a.category,
        ...(a.subcategory ? { subcategory: a.subcategory } : {}),
        tags: a.tags,
        score: h.score,
        snippet,
        highlights,
        titleHighlights: matchRanges(a.title, q.highlight),
      });
    }
    return { hits, total: res.total, query: q.info };
  }

  /**
   * The k passages that best answer a question, for the chat assistant (search.retrieve.ts): BM25 over passages,
   * fused with vector similarity when an embed function is configured and the query embeds. Never throws on bad input.
   */
  retrieve(query: unknown, options: RetrieveOptions = {}): Promise<RetrievalResult> {
    const source: RetrieveSource = {
      passageDb: this.passageDb,
      passages: this.passages,
      dbVersion: this.dbVersion,
      queries: this.queries,
      passageTerms: (id) => this.passageTerms(id),
      embedder: this.embedder,
      minSimilarity: this.minSimilarity,
    };
    return retrievePassages(source, this.analyse(query), options);
  }

  /**
   * Articles ranked for a query (kept with the query): BM25's best `depth`, re-ranked by how much of the question
   * each article covers (its headings counting extra) and by its best section (the answer is in one place).
   */
  private articleRanking(q: AnalysedQuery, depth: number, category: string | undefined) {
    return this.queries.ranking(q, `a\0${depth}\0${category ?? ""}`, () => {
      const res = scoreTopK(this.articleDb, q.oramaTerms, {
        fields: ARTICLE_BOOST,
        k: depth,
        version: this.dbVersion,
        weights: q.weights,
        accept: category ? this.inCategory(this.articleDb, category) : undefined,
      });
      const ranked = withBestSection(
        rerank(res.top, q.concepts, (id) => this.articleTerms(id)),
        q.concepts,
        (id) => this.sectionTerms(id),
      );
      return { res, ranked };
    });
  }

  /** The passages of an indexed article, in order (for citations and tests). */
  passagesOf(articleId: string): Passage[] {
    return (this.articles.get(articleId)?.passages ?? []).map(publicPassage);
  }

  stats(): IndexStats {
    const { articles, passages, vocabulary, hybrid, fingerprint } = this;
    return indexStats({ articles, passages, vocabulary, hybrid, fingerprint, version: this.versionCounter });
  }

  // ---- internals -------------------------------------------------------------------------------

  /** Filter by category on orama internal ids (articles and passages carry their category). */
  private inCategory(db: AnyOrama, category: string): (internalId: number) => boolean {
    return inCategory(db, db === this.articleDb ? this.articles : this.passages, category);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private reset(): void {
    this.dbVersion++;
    this.articleDb = newArticleDb();
    this.passageDb = newPassageDb();
    this.articles.clear();
    this.snippetSources.clear();
    this.termSets.clear();
    this.passages.clear();
    this.vocabulary.clear();
    this.fingerprintXor = 0n;
  }

  private prepare(a: IndexableArticle, revision: string, reuse: Map<string, Float32Array>): Prepared {
    return prepareArticle(a, revision, { chunk: this.chunkOptions, embedding: !!this.embedder, reuse });
  }

  /** Embeds passages in batches, setting their vectors; returns an error message instead of throwing. */
  private embedMissing(missing: StoredPassage[]): Promise<string | undefined> {
    return this.embedder ? this.embedder.embedPassages(missing) : Promise.resolve(undefined);
  }

  /** An article's index terms: all of them, and those of its title, headings and tags. */
  private articleTerms(id: string): TermSets | null {
    const a = this.articles.get(id);
    if (!a) return null;
    return this.termSets.setsOf(id, a, () => ({
      headings: [a.title, headingsOf(a.content), ...a.tags].join("\n"),
      body: `${a.category}\n${a.subcategory ?? ""}\n${a.content}`,
    }));
  }

  /** The index terms of each of an article's passages (its sections). */
  private sectionTerms(articleId: string): TermSets[] {
    const out: TermSets[] = [];
    for (const p of this.articles.get(articleId)?.passages ?? []) {
      const sets = this.passageTerms(p.id);
      if (sets) out.push(sets);
    }
    return out;
  }

  /** A passage's index terms: all of them, and those of its article's title and its headings. */
  private passageTerms(id: string): TermSets | null {
    const p = this.passages.get(id);
    if (!p) return null;
    return this.termSets.setsOf(`#${id}`, p, () => ({
      headings: [p.title, ...p.headingPath].join("\n"),
      body: p.text,
    }));
  }

  private commitInsert(a: StoredArticle): void {
    this.dbVersion++;
    insertArticleDoc(this.articleDb, a);
    for (const p of a.passages) {
      insertPassageDoc(this.passageDb, a, p);
      this.passages.set(p.id, p);
    }
    this.articles.set(a.id, a);
    this.vocabulary.count(a, +1);
    this.fingerprintXor ^= a.digest;
  }

  private commitRemove(id: string): void {
    const a = this.articles.get(id);
    if (!a) return;
    this.dbVersion++;
    removeDoc(this.articleDb, id, () => articleDoc(a));
    for (const p of a.passages) {
      removeDoc(this.passageDb, p.id, () => passageDoc(a, p));
      this.passages.delete(p.id);
    }
    this.articles.delete(id);
    this.snippetSources.delete(id);
    this.termSets.delete(id);
    for (const p of a.passages) this.termSets.delete(`#${p.id}`);
    this.vocabulary.count(a, -1);
    this.fingerprintXor ^= a.digest;
  }

  /** Query text → index terms, against the words indexed now. */
  private analyse(query: unknown): AnalysedQuery {
    if (typeof query !== "string" || query.length > MAX_CACHED_QUERY)
      return analyseQuery(query, this.vocabulary);
    return this.queries.get(query, this.dbVersion, () => analyseQuery(query, this.vocabulary));
  }
}

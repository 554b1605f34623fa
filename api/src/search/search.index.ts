import { createHash } from "node:crypto";
import { type AnyOrama, create, insert, remove, type Tokenizer } from "@orama/orama";
import { analyse, boundedEditDistance, fold, normaliseWord, typoBudget, wordSpans } from "./search.analyzer";
import { chunkArticle } from "./search.chunker";
import { entryDigest, formatFingerprint, hashArticleFields, revisionOf } from "./search.fingerprint";
import { createIndexComponent, scoreTopK } from "./search.scorer";
import { buildSnippet, matchRanges, type SnippetSource, snippetSource, toPlainText } from "./search.snippet";
import type {
  ChunkOptions,
  EmbedFunction,
  IndexableArticle,
  IndexStats,
  KnowledgeIndexOptions,
  Passage,
  QueryCorrection,
  QueryInfo,
  RebuildResult,
  RetrievalResult,
  RetrievedPassage,
  RetrieveOptions,
  SearchHit,
  SearchOptions,
  SearchResult,
  UpsertResult,
} from "./search.types";

/** Queries longer than this are cut (at a word boundary) before analysis. */
export const MAX_QUERY_LENGTH = 256;
/** At most this many distinct terms of a query are searched. */
export const MAX_QUERY_TERMS = 16;
const MAX_HIGHLIGHT_EXPANSIONS = 500;
/**
 * Appended to every indexed term. orama's term lookup always matches by prefix; searching
 * `term + TERM_END` matches the whole term only, while a bare `term` still matches as a prefix.
 * Terms are letters and digits only, so '_' never occurs inside one.
 */
const TERM_END = "_";
/** Written words at least this long also match as the start of longer (compound) words. */
const MIN_PREFIX_LENGTH = 5;
const RRF_K = 60;
/**
 * Articles whose analysed plain text (for snippets) is kept. Working it out is most of a search's cost, and a
 * search shows the same popular articles again and again; a few kB each.
 */
const SNIPPET_SOURCES_KEPT = 1_000;

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

interface StoredArticle {
  id: string;
  title: string;
  content: string;
  category: string;
  subcategory?: string;
  tags: string[];
  revision: string;
  /** Hash of the indexed fields: an edit is re-indexed even if the caller kept the same updatedAt. */
  fieldsHash: string;
  digest: bigint;
  passages: StoredPassage[];
}

interface StoredPassage extends Passage {
  embedKey: string;
  vector?: Float32Array;
}

interface Prepared {
  article: StoredArticle;
  /** Passages still needing a vector. */
  missing: StoredPassage[];
}

interface AnalysedQuery {
  info: QueryInfo;
  /** Terms to look up in orama's trees: whole-word terms end in TERM_END, prefix terms do not. */
  oramaTerms: string[];
  /** Index terms whose words are highlighted (query terms plus their prefix expansions). */
  highlight: Set<string>;
}

const ARTICLE_SCHEMA = {
  title: "string",
  headings: "string",
  tags: "string[]",
  category: "string",
  subcategory: "string",
  content: "string",
} as const;

const PASSAGE_SCHEMA = {
  title: "string",
  tags: "string[]",
  heading: "string",
  text: "string",
} as const;

const ARTICLE_BOOST = { title: 3, headings: 2, tags: 2, subcategory: 1.5, category: 1, content: 1 };
// Title and tags give every passage its article's context.
const PASSAGE_BOOST = { heading: 2, title: 1.5, tags: 1, text: 1 };

/**
 * Our tokenizer for orama: documents are analysed with the Danish analyser; a search term arrives
 * already analysed by analyseQuery() (space-separated index terms), so it is only split. This keeps
 * query analysis (typo correction, truncation) in one place and avoids stemming a stem twice.
 */
function createDanishTokenizer(): Tokenizer {
  return {
    language: "danish",
    normalizationCache: new Map(),
    tokenize(raw: string, _language?: string, prop?: string): string[] {
      if (typeof raw !== "string") return [];
      if (prop === undefined) return raw.split(" ").filter(Boolean);
      return analyse(raw).map((t) => `${t}${TERM_END}`);
    },
  };
}

function newArticleDb(): AnyOrama {
  return create({
    schema: ARTICLE_SCHEMA,
    components: { tokenizer: createDanishTokenizer(), index: createIndexComponent() },
  }) as AnyOrama;
}

function newPassageDb(): AnyOrama {
  return create({
    schema: PASSAGE_SCHEMA,
    components: { tokenizer: createDanishTokenizer(), index: createIndexComponent() },
  }) as AnyOrama;
}

/** orama runs synchronously with our synchronous components; a promise here would break atomic updates. */
function sync<T>(value: T | Promise<T>): T {
  if (value instanceof Promise)
    throw new Error("orama returned a promise; the index expects synchronous components");
  return value;
}

function clampInt(value: unknown, min: number, max: number, fallback: number): number {
  if (typeof value !== "number" || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function embedInput(p: Passage): string {
  return [p.title, p.headingPath.join(" › "), p.text].filter(Boolean).join("\n");
}

function headingsOf(markdown: string): string {
  const out: string[] = [];
  for (const line of markdown.split("\n")) {
    const m = /^#{1,6}\s+(.+)$/.exec(line.trim());
    if (m) out.push(m[1]);
  }
  return out.join("\n");
}

function sha1(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

function normalise(vector: readonly number[]): Float32Array {
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i] / norm;
  return out;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
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
  private readonly articles = new Map<string, StoredArticle>();
  /** Article id → its snippet source, most recently used last (at most SNIPPET_SOURCES_KEPT). */
  private readonly snippetSources = new Map<string, { article: StoredArticle; source: SnippetSource }>();
  private readonly passages = new Map<string, StoredPassage>();
  /** Index term → number of articles containing it. */
  private readonly termCounts = new Map<string, number>();
  /** Folded word as written → its index term and the number of articles containing it (typo correction). */
  private readonly words = new Map<string, { term: string; word: string; count: number }>();
  private sortedTerms: string[] | null = null;
  private fingerprintXor = 0n;
  private versionCounter = 0;
  /** Moves on every insert into or removal from the orama databases (scoreTopK's per-document cache). */
  private dbVersion = 0;
  private dimension: number | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly embed?: EmbedFunction;
  private readonly embedBatchSize: number;
  private readonly minSimilarity: number;
  private readonly chunkOptions: ChunkOptions;

  constructor(options: KnowledgeIndexOptions = {}) {
    this.embed = options.embed;
    this.embedBatchSize = clampInt(options.embedBatchSize, 1, 2048, 64);
    this.minSimilarity = options.minSimilarity ?? 0.2;
    this.chunkOptions = options.chunk ?? {};
  }

  /** True when passages are embedded and retrieve() is hybrid. */
  get hybrid(): boolean {
    return this.embed !== undefined;
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
      if (existing && existing.revision === revision && existing.fieldsHash === hashArticleFields(clean)) {
        return {
          articleId: clean.id,
          changed: false,
          passages: existing.passages.length,
          embedded: existing.passages.filter((p) => p.vector).length,
        };
      }
      const prepared = this.prepare(clean, revision, this.vectorsOf(existing ? [existing] : []));
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
      const reuse = this.vectorsOf(this.articles.values());
      const previous = new Map(this.articles);
      if (options.force) this.reset();
      const prepared: Prepared[] = [];
      let added = 0;
      let updated = 0;
      let unchanged = 0;
      for (const a of wanted.values()) {
        const revision = revisionOf(a);
        const current = this.articles.get(a.id);
        if (current && current.revision === revision && current.fieldsHash === hashArticleFields(a)) {
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
      this.versionCounter++;
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

  /** Retries embedding passages left without a vector by an earlier failure. Resolves to how many got one. */
  embedPending(): Promise<number> {
    return this.serial(async () => {
      if (!this.embed) return 0;
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
    const q = this.analyseQuery(query);
    const limit = clampInt(options?.limit, 1, 100, 10);
    const offset = clampInt(options?.offset, 0, 10_000, 0);
    if (q.oramaTerms.length === 0) return { hits: [], total: 0, query: q.info };
    const category = typeof options?.category === "string" && options.category ? options.category : undefined;
    const res = scoreTopK(this.articleDb, q.oramaTerms, {
      fields: ARTICLE_BOOST,
      k: offset + limit,
      version: this.dbVersion,
      accept: category ? this.inCategory(this.articleDb, category) : undefined,
    });
    const hits: SearchHit[] = [];
    for (const h of res.top.slice(offset)) {
      const a = this.articles.get(h.id);
      if (!a) continue;
      const { snippet, highlights } = buildSnippet(this.snippetSourceOf(a), q.highlight);
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
   * The k passages that best answer a question, for the chat assistant: BM25 over passages, fused
   * with vector similarity (reciprocal rank fusion) when an embed function is configured and the
   * query embeds; otherwise BM25 alone. Never throws on bad input.
   */
  async retrieve(query: unknown, options: RetrieveOptions = {}): Promise<RetrievalResult> {
    const q = this.analyseQuery(query);
    const k = clampInt(options?.k, 1, 50, 5);
    const minScore =
      typeof options?.minScore === "number" && Number.isFinite(options.minScore) ? options.minScore : 0;
    const category = typeof options?.category === "string" && options.category ? options.category : undefined;
    const pool = Math.max(k * 4, 20);

    const lexical: { id: string; score: number }[] = [];
    if (q.oramaTerms.length > 0) {
      const res = scoreTopK(this.passageDb, q.oramaTerms, {
        fields: PASSAGE_BOOST,
        k: pool,
        version: this.dbVersion,
        accept: category ? this.inCategory(this.passageDb, category) : undefined,
      });
      lexical.push(...res.top);
    }

    const vectorHits = q.info.text ? await this.vectorSearch(q.info.text, pool, category) : null;
    if (!vectorHits) {
      const passages = lexical
        .filter((l) => l.score >= minScore)
        .slice(0, k)
        .map((l) => this.present(l.id, l.score, l.score, undefined))
        .filter((p): p is RetrievedPassage => p !== null);
      return { passages, mode: "bm25", query: q.info };
    }

    // Reciprocal rank fusion, scaled so that rank 1 in both lists scores 1.
    const fused = new Map<string, { score: number; lexical?: number; vector?: number }>();
    const maxRrf = 2 / (RRF_K + 1);
    lexical.forEach((l, rank) => {
      fused.set(l.id, { score: 1 / (RRF_K + rank + 1) / maxRrf, lexical: l.score });
    });
    vectorHits.forEach((v, rank) => {
      const entry = fused.get(v.id) ?? { score: 0 };
      entry.score += 1 / (RRF_K + rank + 1) / maxRrf;
      entry.vector = v.similarity;
      fused.set(v.id, entry);
    });
    const passages = [...fused.entries()]
      .filter(([, f]) => f.score >= minScore)
      .sort((a, b) => b[1].score - a[1].score)
      .slice(0, k)
      .map(([id, f]) => this.present(id, f.score, f.lexical, f.vector))
      .filter((p): p is RetrievedPassage => p !== null);
    return { passages, mode: "hybrid", query: q.info };
  }

  /** The passages of an indexed article, in order (for citations and tests). */
  passagesOf(articleId: string): Passage[] {
    return (this.articles.get(articleId)?.passages ?? []).map(({ embedKey: _k, vector: _v, ...p }) => p);
  }

  stats(): IndexStats {
    let embedded = 0;
    for (const p of this.passages.values()) if (p.vector) embedded++;
    return {
      articles: this.articles.size,
      passages: this.passages.size,
      embeddedPassages: embedded,
      pendingEmbeddings: this.embed ? this.passages.size - embedded : 0,
      vocabulary: this.words.size,
      hybrid: this.hybrid,
      version: this.versionCounter,
      fingerprint: this.fingerprint,
    };
  }

  // ---- internals -------------------------------------------------------------------------------

  /** The article's plain text analysed for snippets, from the cache when the article has not changed since. */
  private snippetSourceOf(a: StoredArticle): SnippetSource {
    const cached = this.snippetSources.get(a.id);
    this.snippetSources.delete(a.id);
    const source = cached?.article === a ? cached.source : snippetSource(toPlainText(a.content));
    this.snippetSources.set(a.id, { article: a, source });
    if (this.snippetSources.size > SNIPPET_SOURCES_KEPT) {
      this.snippetSources.delete(this.snippetSources.keys().next().value as string);
    }
    return source;
  }

  /** Filter by category on orama internal ids (articles and passages carry their category). */
  private inCategory(db: AnyOrama, category: string): (internalId: number) => boolean {
    const ids = (db.internalDocumentIDStore as unknown as { internalIdToId: string[] }).internalIdToId;
    const isArticles = db === this.articleDb;
    return (internalId) => {
      const id = ids[internalId - 1];
      const doc = isArticles ? this.articles.get(id) : this.passages.get(id);
      return doc?.category === category;
    };
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
    this.passages.clear();
    this.termCounts.clear();
    this.words.clear();
    this.sortedTerms = null;
    this.fingerprintXor = 0n;
  }

  private vectorsOf(articles: Iterable<StoredArticle>): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    for (const a of articles) for (const p of a.passages) if (p.vector) out.set(p.embedKey, p.vector);
    return out;
  }

  private prepare(a: IndexableArticle, revision: string, reuse: Map<string, Float32Array>): Prepared {
    const passages: StoredPassage[] = chunkArticle(a, this.chunkOptions).map((p) => {
      const embedKey = sha1(embedInput(p));
      return { ...p, embedKey, vector: this.embed ? reuse.get(embedKey) : undefined };
    });
    const article: StoredArticle = {
      id: a.id,
      title: a.title,
      content: a.content,
      category: a.category,
      subcategory: a.subcategory ?? undefined,
      tags: [...(a.tags ?? [])],
      revision,
      fieldsHash: hashArticleFields(a),
      digest: entryDigest(a.id, revision),
      passages,
    };
    return { article, missing: this.embed ? passages.filter((p) => !p.vector) : [] };
  }

  /** Embeds passages in batches, setting their vectors; returns an error message instead of throwing. */
  private async embedMissing(missing: StoredPassage[]): Promise<string | undefined> {
    if (!this.embed || missing.length === 0) return undefined;
    try {
      for (let i = 0; i < missing.length; i += this.embedBatchSize) {
        const batch = missing.slice(i, i + this.embedBatchSize);
        const vectors = await this.embedChecked(batch.map(embedInput));
        batch.forEach((p, j) => {
          p.vector = vectors[j];
        });
      }
      return undefined;
    } catch (err) {
      return errorMessage(err);
    }
  }

  private async embedChecked(texts: string[]): Promise<Float32Array[]> {
    if (!this.embed) throw new Error("no embed function");
    const out = await this.embed(texts);
    if (!Array.isArray(out) || out.length !== texts.length) {
      throw new Error(
        `embed returned ${Array.isArray(out) ? out.length : "no"} vectors for ${texts.length} texts`,
      );
    }
    return out.map((v) => {
      if (
        !Array.isArray(v) ||
        v.length === 0 ||
        !v.every((x) => typeof x === "number" && Number.isFinite(x))
      ) {
        throw new Error("embed returned a vector that is not a list of finite numbers");
      }
      if (this.dimension === null) this.dimension = v.length;
      if (v.length !== this.dimension)
        throw new Error(`embed returned dimension ${v.length}, expected ${this.dimension}`);
      return normalise(v);
    });
  }

  private async vectorSearch(
    text: string,
    limit: number,
    category: string | undefined,
  ): Promise<{ id: string; similarity: number }[] | null> {
    if (!this.embed) return null;
    let qv: Float32Array;
    try {
      [qv] = await this.embedChecked([text]);
    } catch {
      return null; // the caller falls back to BM25
    }
    const hits: { id: string; similarity: number }[] = [];
    for (const p of this.passages.values()) {
      if (!p.vector || (category && p.category !== category)) continue;
      const similarity = dot(qv, p.vector);
      if (similarity >= this.minSimilarity) hits.push({ id: p.id, similarity });
    }
    hits.sort((a, b) => b.similarity - a.similarity);
    return hits.slice(0, limit);
  }

  private present(id: string, score: number, lexical?: number, vector?: number): RetrievedPassage | null {
    const p = this.passages.get(id);
    if (!p) return null;
    const { embedKey: _k, vector: _v, ...passage } = p;
    return {
      ...passage,
      headingPath: [...passage.headingPath],
      score,
      ...(lexical !== undefined ? { lexicalScore: lexical } : {}),
      ...(vector !== undefined ? { vectorScore: vector } : {}),
    };
  }

  private commitInsert(a: StoredArticle): void {
    this.dbVersion++;
    sync(
      insert(this.articleDb, {
        id: a.id,
        title: a.title,
        // Section headings say what an article is about better than a word somewhere in its body.
        headings: headingsOf(a.content),
        tags: a.tags,
        category: a.category,
        subcategory: a.subcategory ?? "",
        content: a.content,
      }),
    );
    for (const p of a.passages) {
      sync(
        insert(this.passageDb, {
          id: p.id,
          title: a.title,
          tags: a.tags,
          heading: p.headingPath.join("\n"),
          text: p.text,
        }),
      );
      this.passages.set(p.id, p);
    }
    this.articles.set(a.id, a);
    this.countVocabulary(a, +1);
    this.fingerprintXor ^= a.digest;
  }

  private commitRemove(id: string): void {
    const a = this.articles.get(id);
    if (!a) return;
    this.dbVersion++;
    sync(remove(this.articleDb, id));
    for (const p of a.passages) {
      sync(remove(this.passageDb, p.id));
      this.passages.delete(p.id);
    }
    this.articles.delete(id);
    this.snippetSources.delete(id);
    this.countVocabulary(a, -1);
    this.fingerprintXor ^= a.digest;
  }

  private countVocabulary(a: StoredArticle, delta: 1 | -1): void {
    const text = [a.title, a.category, a.subcategory ?? "", ...a.tags, a.content].join("\n");
    const written = new Set<string>();
    for (const w of wordSpans(text)) written.add(w.word.toLowerCase());
    const keys = new Map<string, string>(); // folded word → word as written (first seen)
    for (const w of written) {
      const key = fold(w);
      if (!keys.has(key)) keys.set(key, w);
    }
    const terms = new Set<string>();
    for (const [key, word] of keys) {
      const term = normaliseWord(word);
      if (!term) continue;
      terms.add(term);
      const entry = this.words.get(key);
      const count = (entry?.count ?? 0) + delta;
      if (count <= 0) this.words.delete(key);
      else this.words.set(key, { term, word: entry?.word ?? word, count });
    }
    for (const t of terms) {
      const count = (this.termCounts.get(t) ?? 0) + delta;
      if (count <= 0) this.termCounts.delete(t);
      else this.termCounts.set(t, count);
    }
    this.sortedTerms = null;
  }

  /** Indexed terms starting with `prefix`, via binary search over the sorted vocabulary. */
  private termsWithPrefix(prefix: string, limit: number): string[] {
    if (!this.sortedTerms) this.sortedTerms = [...this.termCounts.keys()].sort();
    const terms = this.sortedTerms;
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < terms.length && out.length < limit && terms[i].startsWith(prefix); i++)
      out.push(terms[i]);
    return out;
  }

  /** The closest indexed word to a word that is not in the index, within the typo budget. */
  private correct(word: string): { term: string; word: string } | undefined {
    const key = fold(word);
    const budget = typoBudget(key.length);
    if (budget === 0) return undefined;
    let best: { term: string; word: string; distance: number; count: number } | undefined;
    for (const [w, entry] of this.words) {
      if (Math.abs(w.length - key.length) > budget) continue;
      const d = boundedEditDistance(key, w, budget);
      if (d > budget) continue;
      if (!best || d < best.distance || (d === best.distance && entry.count > best.count)) {
        best = { term: entry.term, word: entry.word, distance: d, count: entry.count };
      }
    }
    return best;
  }

  /** Query text → index terms (stemmed, stop words dropped, unknown words typo-corrected). */
  private analyseQuery(query: unknown): AnalysedQuery {
    const empty = (text = "", truncated = false): AnalysedQuery => ({
      info: { text, truncated, terms: [], corrections: [] },
      oramaTerms: [],
      highlight: new Set(),
    });
    if (typeof query !== "string") return empty();
    let text = query.replace(/\s+/g, " ").trim();
    let truncated = false;
    if (text.length > MAX_QUERY_LENGTH) {
      truncated = true;
      const cut = text.slice(0, MAX_QUERY_LENGTH);
      const lastSpace = cut.lastIndexOf(" ");
      text = (lastSpace > MAX_QUERY_LENGTH / 2 ? cut.slice(0, lastSpace) : cut).trim();
    }
    if (!text) return empty(text, truncated);

    const terms: string[] = [];
    const oramaTerms: string[] = [];
    const corrections: QueryCorrection[] = [];
    const highlight = new Set<string>();
    const addWhole = (term: string) => {
      terms.push(term);
      oramaTerms.push(`${term}${TERM_END}`);
      highlight.add(term);
    };
    for (const { word } of wordSpans(text)) {
      if (terms.length >= MAX_QUERY_TERMS) break;
      if (word.length < 2) continue;
      const term = normaliseWord(word);
      if (!term || terms.includes(term)) continue;
      const folded = fold(word);
      // Danish compounds: a written word of 5+ letters also matches indexed words that start with it
      // ('indsigt' finds 'indsigtsanmodning'), while a short word only matches whole ('dag' is not
      // 'dagsorden'). The prefix is the word as written: a stem is often too short ('inds').
      const compounds =
        folded.length >= MIN_PREFIX_LENGTH ? this.termsWithPrefix(folded, MAX_HIGHLIGHT_EXPANSIONS) : [];
      if (this.termCounts.has(term)) {
        terms.push(term);
        highlight.add(term);
        // When the stem is the word itself, the prefix search already covers the whole word.
        if (!compounds.includes(term)) oramaTerms.push(`${term}${TERM_END}`);
        if (compounds.length > 0) oramaTerms.push(folded);
        for (const e of compounds) highlight.add(e);
        continue;
      }
      // 2. The start of indexed words (someone still typing): match as a prefix.
      const expansions = this.termsWithPrefix(term, MAX_HIGHLIGHT_EXPANSIONS);
      if (expansions.length > 0) {
        terms.push(term);
        oramaTerms.push(term);
        for (const e of expansions) highlight.add(e);
        continue;
      }
      // 3. A typo: the closest indexed word within the typo budget.
      const corrected = this.correct(word);
      if (corrected && !terms.includes(corrected.term)) {
        addWhole(corrected.term);
        corrections.push({ from: word, to: corrected.word });
      }
      // An unknown word with no close match cannot match anything; it is left out.
    }
    return { info: { text, truncated, terms, corrections }, oramaTerms, highlight };
  }
}

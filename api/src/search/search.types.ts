/** What the index needs from a knowledge article (a knowledge_articles document maps onto it 1:1). */
export interface IndexableArticle {
  id: string;
  title: string;
  /** Markdown-ish body: '# ', '## ', '### ' headings, bullet and numbered lines. */
  content: string;
  category: string;
  subcategory?: string | null;
  tags?: readonly string[];
  /**
   * When given, the article's revision for fingerprints is its updatedAt (so a service can compare
   * the index with the database by reading only ids and updatedAt). Otherwise a hash of the fields.
   */
  updatedAt?: Date | string | number | null;
}

/** A [start, end) character range inside a returned text. */
export interface TextRange {
  start: number;
  end: number;
}

/** A query word that was not in the index and was replaced by a close indexed word. */
export interface QueryCorrection {
  from: string;
  to: string;
}

/** How the index understood the query (so a UI can say "viser resultater for …"). */
export interface QueryInfo {
  /** The text actually searched (trimmed, whitespace collapsed, cut to the maximum length). */
  text: string;
  truncated: boolean;
  /** Normalised search terms (after stemming, stop words and typo correction). */
  terms: string[];
  corrections: QueryCorrection[];
}

export interface SearchOptions {
  /** 1–100, default 10. */
  limit?: number;
  /** Default 0. */
  offset?: number;
  /** Exact category name, e.g. 'Økonomi'. */
  category?: string;
}

export interface SearchHit {
  articleId: string;
  title: string;
  category: string;
  subcategory?: string;
  tags: string[];
  /** BM25 score (title, tags and subcategory boosted); only comparable within one result. */
  score: number;
  /** Plain text (no markup, no HTML) around the best matches, with '…' where it was cut. */
  snippet: string;
  /** Ranges of matched words inside `snippet`, sorted, non-overlapping. Render as <mark> safely. */
  highlights: TextRange[];
  /** Ranges of matched words inside `title`. */
  titleHighlights: TextRange[];
}

export interface SearchResult {
  hits: SearchHit[];
  /** Number of matching articles (before limit/offset). */
  total: number;
  query: QueryInfo;
}

export interface RetrieveOptions {
  /** Number of passages, 1–50, default 5. */
  k?: number;
  /** Drop passages scoring below this. BM25 mode: raw BM25; hybrid mode: fused score in (0, 1]. */
  minScore?: number;
  /** Only passages of articles in this category. */
  category?: string;
  /** Only passages of these articles (the chat's scope); an empty list gives no passages. */
  articleIds?: readonly string[];
}

/** A piece of an article small enough to hand to a language model. */
export interface Passage {
  /** `${articleId}#${position}`. */
  id: string;
  articleId: string;
  title: string;
  category: string;
  /** Headings above the text, outermost first, e.g. ['Frister', 'Klagefrist']; the title is not repeated. */
  headingPath: string[];
  /** The passage text (original lines, without its heading lines). */
  text: string;
  /** 0-based order of the passage within its article. */
  position: number;
  wordCount: number;
}

export interface RetrievedPassage extends Passage {
  score: number;
  /** BM25 score when the passage matched the words of the query. */
  lexicalScore?: number;
  /** Cosine similarity to the query embedding (hybrid mode). */
  vectorScore?: number;
  /** IDF-weighted share of the question's meaningful words the passage (with its headings) contains, 0..1. */
  coverage?: number;
  /** Summed IDF of the question's words the passage contains. */
  matchedIdf?: number;
  /** How many of the question's meaningful words the passage contains (a related term counting partly). */
  matchedWords?: number;
  /** How many meaningful words the question has. */
  questionWords?: number;
  /** The question's telling text the passage leaves uncovered (summed evidence IDF, see QueryConcept.evidenceIdf). */
  uncoveredIdf?: number;
  /** Where the passage's article ranks for the question in search (1 = first); absent beyond the ranked pool. */
  articleRank?: number;
  /**
   * The same evidence with a compound's parts counted only together (search.coverage.ts
   * GATE_COMPOUND_PARTS_TOGETHER): what decides whether the question is covered at all; set only when the question
   * has such parts
   */
  compoundsWhole?: GateEvidence;
}

/** The evidence the relevance gate reads of a retrieved passage (search.passage-relevance.ts). */
export type GateEvidence = Pick<
  RetrievedPassage,
  "coverage" | "matchedIdf" | "matchedWords" | "questionWords" | "uncoveredIdf"
>;

export interface RetrievalResult {
  passages: RetrievedPassage[];
  /** 'hybrid' when the query was embedded and passage vectors took part; otherwise 'bm25'. */
  mode: "bm25" | "hybrid";
  query: QueryInfo;
}

/** Embeds texts; one vector per text, same order, same dimension. */
export type EmbedFunction = (texts: string[]) => Promise<number[][]>;

export interface ChunkOptions {
  /** Upper bound on words per passage (overlap included). Default 180. */
  maxWords?: number;
  /** Words repeated from the end of one chunk at the start of the next within a long section. Default 30. */
  overlapWords?: number;
  /** A section shorter than this is merged into the next one when that is its sub-section. Default 25. */
  minWords?: number;
}

export interface KnowledgeIndexOptions {
  /** Enables hybrid retrieval. Passage embeddings are computed on upsert, in batches. */
  embed?: EmbedFunction;
  /** Texts per embed() call. Default 64. */
  embedBatchSize?: number;
  /** Vector neighbours below this cosine similarity are ignored. Default 0.2. */
  minSimilarity?: number;
  chunk?: ChunkOptions;
}

export interface UpsertResult {
  articleId: string;
  /** False when the article was already indexed at the same revision with the same fields. */
  changed: boolean;
  passages: number;
  /** Passages with an embedding (0 without an embed function). */
  embedded: number;
  /** Set when embedding failed; the text is indexed anyway and embedPending() can retry. */
  embeddingError?: string;
}

export interface RebuildResult {
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  /** One message per skipped invalid article (naming its id and field). */
  invalid: string[];
  embeddingError?: string;
  fingerprint: string;
}

export interface IndexStats {
  articles: number;
  passages: number;
  embeddedPassages: number;
  pendingEmbeddings: number;
  /** Distinct words seen (used for typo correction). */
  vocabulary: number;
  hybrid: boolean;
  /** Increases by one on every change in this process. */
  version: number;
  /** Order-independent digest of (id, revision) of all indexed articles; see computeFingerprint(). */
  fingerprint: string;
}

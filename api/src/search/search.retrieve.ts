/**
 * Passage retrieval for the chat assistant (KnowledgeIndex.retrieve()): BM25 over passages re-ranked by how much
 * of the question each section covers, fused with vector similarity (reciprocal rank fusion) when passages are
 * embedded and the query embeds; otherwise BM25 alone. Reads the index through RetrieveSource.
 */
import type { AnyOrama } from "@orama/orama";
import { clampInt } from "./search.article";
import {
  type Coverage,
  coverageOf,
  gateConcepts,
  gateFields,
  hasCompoundParts,
  RERANK_POOL,
  rankArticlesOfSections,
  rerank,
  type TermSets,
} from "./search.coverage";
import { fuseRanks, topWithLexical } from "./search.fusion";
import { PASSAGE_BOOST } from "./search.orama";
import type { AnalysedQuery, QueryCache } from "./search.query-cache";
import { scoreTopK } from "./search.scorer";
import { passageFilter, retrievedPassage } from "./search.stored";
import type { RetrievalResult, RetrievedPassage, RetrieveOptions } from "./search.types";
import { nearestPassages, type PassageEmbedder, type StoredPassage } from "./search.vectors";

/** What retrieval reads of the index, at the moment of the call. */
export interface RetrieveSource {
  passageDb: AnyOrama;
  passages: Map<string, StoredPassage>;
  /** The databases' version (scoreTopK's per-document cache). */
  dbVersion: number;
  queries: QueryCache;
  /** A passage's index terms: all of them, and those of its article's title and its headings. */
  passageTerms(id: string): TermSets | null;
  /** Set when passages are embedded (hybrid retrieval). */
  embedder?: PassageEmbedder;
  /** Vector neighbours below this cosine similarity are ignored. */
  minSimilarity: number;
}

/**
 * A passage's coverage of the question, where its article ranks for the question, and its coverage with a
 * compound's parts only together (when the question has such parts). Kept apart, not spread into one object (a
 * spread copy per passage cost ~2 µs).
 */
interface PassageCover {
  cover: Coverage;
  articleRank?: number;
  whole?: Coverage;
}

/** The k passages that best answer the analysed question `q`. Never throws on bad options. */
export async function retrievePassages(
  src: RetrieveSource,
  q: AnalysedQuery,
  options: RetrieveOptions = {},
): Promise<RetrievalResult> {
  const k = clampInt(options?.k, 1, 50, 5);
  const minScore =
    typeof options?.minScore === "number" && Number.isFinite(options.minScore) ? options.minScore : 0;
  const category = typeof options?.category === "string" && options.category ? options.category : undefined;
  // the chat's scope: only these articles' passages are scored (an empty scope finds nothing)
  const articleIds = Array.isArray(options?.articleIds) ? new Set(options.articleIds) : undefined;
  if (articleIds?.size === 0) return { passages: [], mode: "bm25", query: q.info };
  const scopeKey = articleIds ? [...articleIds].sort().join(",") : "";
  const pool = Math.max(k * 4, 20);

  const lexical: { id: string; score: number }[] = [];
  // where each passage's article ranks for the question (by its best section in the pool)
  let articleRank = new Map<string, number>();
  if (q.oramaTerms.length > 0) {
    const depth = Math.max(pool, RERANK_POOL);
    const ranking = src.queries.ranking(q, `p\0${depth}\0${category ?? ""}\0${scopeKey}`, () => {
      const res = scoreTopK(src.passageDb, q.oramaTerms, {
        fields: PASSAGE_BOOST,
        k: depth,
        version: src.dbVersion,
        weights: q.weights,
        accept: passageFilter(src.passageDb, src.passages, { category, articleIds }),
      });
      // the section that covers the question best first (its heading counting extra), BM25 breaking ties
      const ranked = rerank(res.top, q.concepts, (id) => src.passageTerms(id));
      const articles = rankArticlesOfSections(ranked, (id) => src.passages.get(id)?.articleId);
      return { ranked, articles };
    });
    lexical.push(...ranking.ranked.slice(0, pool).map((r) => ({ id: r.id, score: r.score, rank: r.rank })));
    articleRank = ranking.articles;
  }
  // the gate's fields: the question as the relevance gate reads it (firmer lexicon evidence than ranking's)
  const gate = gateConcepts(q.concepts);
  // and whether the question is covered at all: a compound's parts only together (GATE_COMPOUND_PARTS_TOGETHER)
  const whole = hasCompoundParts(q.concepts) ? gateConcepts(q.concepts, undefined, true) : null;
  const coverOf = (id: string): PassageCover | undefined => {
    const sets = src.passageTerms(id);
    if (!sets) return undefined;
    const cover = coverageOf(gate, sets);
    const rank = articleRank.get(src.passages.get(id)?.articleId ?? "");
    return { cover, articleRank: rank, whole: whole ? coverageOf(whole, sets) : undefined };
  };

  const vectorHits = q.info.text ? await vectorSearch(src, q.info.text, pool, category, articleIds) : null;
  if (!vectorHits) {
    const passages = lexical
      .filter((l) => l.score >= minScore)
      .slice(0, k)
      .map((l) => present(src, l.id, l.score, l.score, undefined, coverOf(l.id)))
      .filter((p): p is RetrievedPassage => p !== null);
    return { passages, mode: "bm25", query: q.info };
  }

  const fused = fuseRanks(lexical, vectorHits).filter((f) => f.score >= minScore);
  const passages = topWithLexical(fused, lexical, k)
    .map((f) => present(src, f.id, f.score, f.lexical, f.vector, coverOf(f.id)))
    .filter((p): p is RetrievedPassage => p !== null);
  return { passages, mode: "hybrid", query: q.info };
}

/** The passages nearest to the query by embedding, or null when there are no embeddings to ask. */
async function vectorSearch(
  src: RetrieveSource,
  text: string,
  limit: number,
  category: string | undefined,
  articleIds?: ReadonlySet<string>,
): Promise<{ id: string; similarity: number }[] | null> {
  if (!src.embedder) return null;
  const vector = await src.embedder.embedQuery(text);
  if (!vector) return null; // the caller falls back to BM25
  return nearestPassages(vector, src.passages.values(), {
    limit,
    minSimilarity: src.minSimilarity,
    category,
    articleIds,
  });
}

function present(
  src: RetrieveSource,
  id: string,
  score: number,
  lexical?: number,
  vector?: number,
  cover?: PassageCover,
): RetrievedPassage | null {
  const p = src.passages.get(id);
  if (!p) return null;
  const out = retrievedPassage(p, score, lexical, vector);
  if (cover) {
    Object.assign(out, gateFields(cover.cover));
    if (cover.articleRank !== undefined) out.articleRank = cover.articleRank;
    if (cover.whole) out.compoundsWhole = gateFields(cover.whole);
  }
  return out;
}

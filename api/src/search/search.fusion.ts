/**
 * Reciprocal rank fusion of the text (BM25) ranking and the vector ranking of passages: each list gives a
 * passage 1 / (RRF_K + rank), so a passage high in both beats one high in only one, and neither list's raw
 * scores (BM25 is unbounded, cosine is not) need to be comparable.
 */

/** Damps the weight of the very first ranks (the usual constant from Cormack et al., 2009). */
export const RRF_K = 60;

export interface LexicalRank {
  id: string;
  /** BM25 score */
  score: number;
}

export interface VectorRank {
  id: string;
  /** cosine similarity */
  similarity: number;
}

export interface FusedRank {
  id: string;
  /** fused score in (0, 1]: 1 = first in both lists; first in one list alone = 0.5 */
  score: number;
  /** the passage's BM25 score when it was in the text ranking */
  lexical?: number;
  /** its cosine similarity when it was in the vector ranking */
  vector?: number;
}

/**
 * Fuses two rankings (each best first) into one, best first. The sum of reciprocal ranks is scaled so that rank
 * 1 in both lists scores 1. Equal scores keep text-ranking order, then vector-ranking order.
 */
export function fuseRanks(lexical: readonly LexicalRank[], vector: readonly VectorRank[]): FusedRank[] {
  const fused = new Map<string, FusedRank>();
  const maxRrf = 2 / (RRF_K + 1);
  lexical.forEach((l, rank) => {
    fused.set(l.id, { id: l.id, score: 1 / (RRF_K + rank + 1) / maxRrf, lexical: l.score });
  });
  vector.forEach((v, rank) => {
    const entry = fused.get(v.id) ?? { id: v.id, score: 0 };
    entry.score += 1 / (RRF_K + rank + 1) / maxRrf;
    entry.vector = v.similarity;
    fused.set(v.id, entry);
  });
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/**
 * The share of a hybrid retrieval's k passages kept for the text ranking's best: the relevance gate and the quote
 * choice stand on the words of the question (the vector similarity only lifts a passage a little above its text
 * evidence), so the passages with the most text evidence must be among the candidates, not be pushed out by
 * passages only the embedding ranks high (bench:answers, hybrid mode: half of k or any share from 1/3 to 3/4
 * equal on the calibration half).
 */
export const LEXICAL_SHARE = 0.5;

/**
 * The best `k` of a fused ranking, the text ranking's best ceil(k × LEXICAL_SHARE) always among them (in place of
 * the lowest-ranked others), best first by fused score.
 */
export function topWithLexical<T extends { id: string; score: number }>(
  fused: readonly T[],
  lexical: readonly { id: string }[],
  k: number,
): T[] {
  const kept = new Set(lexical.slice(0, Math.ceil(k * LEXICAL_SHARE)).map((l) => l.id));
  const mustKeep = fused.filter((f) => kept.has(f.id));
  const others = fused.filter((f) => !kept.has(f.id)).slice(0, Math.max(0, k - mustKeep.length));
  return [...mustKeep, ...others].sort((a, b) => b.score - a.score).slice(0, k);
}

/**
 * How relevant a retrieved passage is to the question, as a score in [0, 1] comparable across queries: the
 * relevance gate. The chat's answer engine keeps passages scoring at least its fixed threshold (0.25) and says
 * "not in the knowledge base" when none does; the knowledge service's retrievePassages() (the chat's retrieval)
 * applies this rule before handing passages to the chat.
 *
 * The evidence generalises across questions: how much of the question the passage covers (IDF-weighted coverage
 * of its meaningful words, and how many of them), how much telling text of the question it leaves uncovered (a
 * word only a related term stands for weighing what that term proves: QueryConcept.evidenceIdf), and its margin
 * over the best passage of any other article. A small logistic model over these gives the probability that the
 * question is covered; its weights were fitted on the calibration data of the evaluation sets (the tuned set and
 * the fresh set's even ids: bench/answers/fit-gate.ts) and the threshold GATE_PROBABILITY chosen there.
 */
import { analyse, normaliseWord } from "./search.analyzer";
import type { RetrievalResult, RetrievedPassage } from "./search.types";

/**
 * The question's terms as the passage must contain them: every meaningful word of the question, typo-corrected
 * where the index corrected it (kept for callers that match terms themselves; the gate reads the coverage the
 * index worked out).
 */
export function questionTerms(res: RetrievalResult): string[] {
  // `to` is the indexed word as written: its term is what the index searched for
  const corrected = new Map(res.query.corrections.map((c) => [normaliseWord(c.from), normaliseWord(c.to)]));
  return [...new Set(analyse(res.query.text).map((t) => corrected.get(t) ?? t))];
}

/**
 * The gate's model: intercept, then one weight per feature of gateFeatures(); fitted with
 * `npx tsx bench/answers/fit-gate.ts` on the calibration data (the tuned set and the fresh set's even ids), over the
 * evidence as the gate reads it (curated lexicon terms firmer than in ranking: search.coverage.ts gateConcepts), a
 * question no passage covers at all being no example (declined whatever the weights). Its features were chosen by
 * cross-validation (bench/answers/gate-cv.ts): every simpler model measured worse on the left-out folds (the best
 * two-feature one, words covered and uncovered IDF, 7.6 % balanced error against 7.0 %; coverage or ratios alone
 * 14–28 %), the margin over other articles adds nothing (weight ≈ 0.1, the same errors without it).
 */
export const GATE_WEIGHTS = [-0.51, 0.802, 0.544, -2.115, 0.128, 1.728, 0.342] as const;
/** A passage is relevant when the model's probability reaches this (the operating point, chosen there too). */
export const GATE_PROBABILITY = 0.6;
/**
 * The model before the index reported the uncovered evidence (RetrievedPassage.uncoveredIdf): its uncovered text
 * was the question's IDF less the matched, a word only a related term stands for weighing as the rarest word.
 * Used for a passage without uncoveredIdf, so a retrieval that does not report it keeps its operating point.
 */
const WITHOUT_EVIDENCE = {
  weights: [0.026, 0.731, 0.557, -1.962, 0.091, 1.86, 0.268],
  probability: 0.65,
} as const;
/** The chat's threshold on relevance (DEFAULT_MIN_SCORE): GATE_PROBABILITY maps onto it. */
export const CHAT_THRESHOLD = 0.25;

/** The features of the gate's model for a passage; runnerUp: the best coverage of another article's passage. */
export function gateFeatures(p: RetrievedPassage, runnerUp: number): number[] {
  const coverage = p.coverage ?? 0;
  const matched = p.matchedIdf ?? 0;
  const total = coverage > 0 ? matched / coverage : 0;
  const words = p.matchedWords ?? 0;
  const uncovered = Math.max(0, (p.questionWords ?? 0) - words);
  return [
    1,
    coverage,
    Math.log1p(matched),
    Math.log1p(Math.max(0, p.uncoveredIdf ?? total - matched)),
    coverage - runnerUp,
    Math.min(words, 3),
    uncovered,
  ];
}

/** The model (and its operating point) for a passage: WITHOUT_EVIDENCE when it lacks uncoveredIdf. */
function modelFor(p: RetrievedPassage): { weights: readonly number[]; probability: number } {
  return p.uncoveredIdf === undefined
    ? WITHOUT_EVIDENCE
    : { weights: GATE_WEIGHTS, probability: GATE_PROBABILITY };
}

/** The model's probability that the passage covers the question. */
export function gateProbability(p: RetrievedPassage, runnerUp: number): number {
  const x = gateFeatures(p, runnerUp);
  const { weights } = modelFor(p);
  let z = 0;
  for (let i = 0; i < x.length; i++) z += weights[i] * x[i];
  return 1 / (1 + Math.exp(-z));
}

/** Probability → relevance in [0, 1], the operating point landing on the chat's threshold. */
function relevanceFromProbability(probability: number, at: number): number {
  if (probability < at) return (0.9 * CHAT_THRESHOLD * probability) / at;
  return CHAT_THRESHOLD + ((1 - CHAT_THRESHOLD) * (probability - at)) / (1 - at);
}

/**
 * The relevance of a passage (see the module comment). `runnerUp` is the best coverage among the retrieved
 * passages of other articles (0 when none). `terms` and `maxScore` are unused since the index reports coverage
 * (kept so callers need not change); a passage without coverage (no words of the question) scores 0.
 */
export function relevanceOf(
  passage: RetrievedPassage,
  _terms: string[],
  _maxScore: number,
  _hybrid: boolean,
  runnerUp = 0,
): number {
  if (!(passage.coverage && passage.coverage > 0)) return 0;
  return relevanceFromProbability(gateProbability(passage, runnerUp), modelFor(passage).probability);
}

/**
 * How relevant a retrieved passage is to the question, as a score in [0, 1] comparable across queries. The chat's
 * answer engine gates passages with a fixed threshold, and BM25 scores only rank within one query; the knowledge
 * service's retrievePassages() (the chat's retrieval) applies this rule before handing passages to the chat.
 */
import { analyse, normaliseWord } from "./search.analyzer";
import type { RetrievalResult, RetrievedPassage } from "./search.types";

/**
 * The question's terms as the passage must contain them: every meaningful word of the question, typo-corrected
 * where the index corrected it. A word the index does not know at all stays in (as a term no passage has), so
 * it counts against coverage: "opskrift på lagkage" shares no word with the knowledge base but "god".
 */
export function questionTerms(res: RetrievalResult): string[] {
  // `to` is the indexed word as written: its term is what the index searched for
  const corrected = new Map(res.query.corrections.map((c) => [normaliseWord(c.from), normaliseWord(c.to)]));
  return [...new Set(analyse(res.query.text).map((t) => corrected.get(t) ?? t))];
}

/** Whole terms, or for longer terms also Danish compounds starting with them ('indsigt' in 'indsigtsanmodning'). */
function contains(own: Set<string>, term: string): boolean {
  if (own.has(term)) return true;
  if (term.length < COMPOUND_PREFIX_MIN) return false;
  for (const o of own) if (o.startsWith(term)) return true;
  return false;
}
const COMPOUND_PREFIX_MIN = 5;

/**
 * BM25 scores only rank within one query; the engine's relevance gate needs a score comparable across queries.
 * Here a passage is relevant when it contains at least two of the question's terms (all of them for a one-term
 * question): one incidental shared word ("god" in "opskrift på en god lagkage") is not enough, while noise
 * around a real question ("… og vis andre brugeres beskeder") does not hide it. Relevant passages score
 * 0.5–1 (by the share of terms covered and the BM25 rank); the others at most 0.22, below the default gate
 * (0.25). Hybrid scores (reciprocal rank fusion, already in (0, 1]) are kept.
 */
export function relevanceOf(
  passage: RetrievedPassage,
  terms: string[],
  maxScore: number,
  hybrid: boolean,
): number {
  if (hybrid) return Math.min(1, Math.max(0, passage.score));
  if (terms.length === 0 || maxScore <= 0) return 0;
  const own = new Set(analyse(`${passage.title}\n${passage.headingPath.join("\n")}\n${passage.text}`));
  const matched = terms.filter((t) => contains(own, t)).length;
  const needed = Math.min(terms.length, 2);
  const base = Math.min(matched, needed) / needed;
  const coverage = matched / terms.length;
  return base * base * (0.5 + 0.25 * coverage + 0.25 * (passage.score / maxScore));
}

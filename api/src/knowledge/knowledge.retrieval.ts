/**
 * Passages for the chat assistant: the k passages that best answer a question (text search, plus embeddings
 * when an embedding model is configured), each with a relevance in 0..1 comparable across questions, its
 * article's date and a link. The shape is the chat's answer-engine passage; knowledge does not import chat
 * (services.ts hands this function to the chat, and the compiler checks the shapes agree there).
 */
import { CHAT_THRESHOLD, questionTerms, relevanceOf } from "../search/search.passage-relevance";
import type { Passage, RetrievalResult, RetrievedPassage } from "../search/search.types";
import { articleUrl } from "./article.presenter";
import type { KnowledgeCatalog } from "./knowledge.catalog";
import { clamp, MAX_SEARCH_INPUT } from "./knowledge.input";

/** At most this many passages per retrieval. */
export const RETRIEVE_K_MAX = 20;
export const RETRIEVE_K_DEFAULT = 6;

/**
 * Cosine similarities of unrelated texts are not 0 for embedding models (about 0.1-0.2 for OpenAI's
 * text-embedding-3 models); those of a passage that answers the question lie around 0.4-0.7. Map that band
 * onto 0..1: COSINE_FLOOR → 0, COSINE_FLOOR + COSINE_SPAN → 1.
 */
export const COSINE_FLOOR = 0.2;
export const COSINE_SPAN = 0.5;

/** A passage for the chat (structurally the chat's answer-engine Passage). */
export interface KnowledgePassage {
  articleId: string;
  title: string;
  /** headings from the article's top down to this passage; [] for the intro */
  headingPath: string[];
  text: string;
  /** relevance to the question, 0..1 */
  score: number;
  /** the IDF-weighted share of the question's words the passage covers, 0..1 (the chat's quote choice) */
  coverage?: number;
  /** when the article was last updated (the chat's freshness warning) */
  updatedAt?: Date;
  /** link to the article in the app or in Notion */
  url?: string;
}

/** In hybrid mode the vector similarity may lift a passage's relevance this much above its text evidence. */
export const VECTOR_AGREEMENT_LIFT = 0.1;

/**
 * The chat's relevance gate compares a passage's score with a fixed threshold, so scores must be relevances in
 * 0..1 comparable across queries: the search module's rule (relevanceOf: coverage of the question, margin over
 * other articles). With embeddings, the rescaled cosine similarity counts as agreement only: it may lift a passage
 * a little (VECTOR_AGREEMENT_LIFT) above its text evidence, never carry a passage the words of the question do not
 * support (an embedding finds some nearest passage for any question, covered or not). Then the section of
 * search's first article leads (withSearchLead).
 */
export function relevances(res: RetrievalResult): number[] {
  const gate = gateScores(res, res.passages);
  // whether the question is covered at all is decided with a compound's parts only together (search.coverage.ts
  // GATE_COMPOUND_PARTS_TOGETHER); a covered question's passages keep the relevance of their parts (the quotes)
  if (res.passages.some((p) => p.compoundsWhole)) {
    const whole = gateScores(
      res,
      res.passages.map((p) => (p.compoundsWhole ? { ...p, ...p.compoundsWhole } : p)),
    );
    if (Math.max(0, ...whole) < CHAT_THRESHOLD) return withSearchLead(res.passages, whole);
  }
  return withSearchLead(res.passages, gate);
}

/** Each passage's relevance from its gate evidence (`passages`: res.passages, or their evidence read otherwise). */
function gateScores(res: RetrievalResult, passages: readonly RetrievedPassage[]): number[] {
  const terms = questionTerms(res);
  const bestOf = new Map<string, number>();
  for (const p of passages) bestOf.set(p.articleId, Math.max(bestOf.get(p.articleId) ?? 0, p.coverage ?? 0));
  const runnerUp = (p: RetrievedPassage) => {
    let best = 0;
    for (const [id, c] of bestOf) if (id !== p.articleId) best = Math.max(best, c);
    return best;
  };
  const lexicalOf = (p: RetrievedPassage) => (res.mode === "hybrid" ? (p.lexicalScore ?? 0) : p.score);
  const maxLexical = Math.max(0, ...passages.map(lexicalOf));
  return passages.map((p) => {
    const lexical = relevanceOf(p, terms, maxLexical, false, runnerUp(p));
    const vector = p.vectorScore === undefined ? 0 : (p.vectorScore - COSINE_FLOOR) / COSINE_SPAN;
    const agreed = lexical > 0 ? Math.min(vector, lexical + VECTOR_AGREEMENT_LIFT) : 0;
    return Math.min(1, Math.max(0, lexical, agreed));
  });
}

/** How far the section of search's first article is put above the best relevance: first among equals. */
export const SEARCH_LEAD = 0.001;

/**
 * The article search ranks first for the question (its coverage, its best section; see KnowledgeIndex.search)
 * carries the answer more often than a section of another article that happens to share more words: when the
 * question is covered at all, that article's first retrieved section gets the question's relevance (the best of
 * any passage) and leads by SEARCH_LEAD, so a retrieval-only answer opens with it and the chat and search agree.
 * Whether the question is covered is unchanged (the best relevance stays the best).
 */
export function withSearchLead(passages: readonly RetrievedPassage[], scores: number[]): number[] {
  const covered = Math.max(0, ...scores);
  const lead = passages.findIndex((p, i) => p.articleRank === 1 && scores[i] > 0);
  if (lead < 0 || covered <= 0) return scores;
  return scores.map((s, i) => (i === lead ? Math.min(1, covered + SEARCH_LEAD) : s));
}

/**
 * The relevance given to the sections of the best passage's article that retrieval did not return: below the chat's
 * gate (they never decide whether a question is covered, nor reach the model), at the chat's lead-article floor
 * (quotes.ts LEAD_ARTICLE_MIN_SCORE), so a retrieval-only answer may quote the section whose sentence answers
 * even when the passage ranking kept only its neighbours (a one-word question, a rule stated in the introduction).
 * A section of that article that retrieval did return counts at least as much (chat candidates only): retrieved at a
 * lower relevance, it was no candidate while its unretrieved neighbours were.
 */
export const LEAD_SECTION_SCORE = 0.1;

/** The article of the most relevant passage (the first among equals), or none when no passage is relevant at all. */
export function leadArticle(res: RetrievalResult, scores: readonly number[]): string | undefined {
  let top = -1;
  scores.forEach((s, i) => {
    if (s > 0 && (top < 0 || s > scores[top])) top = i;
  });
  return top < 0 ? undefined : res.passages[top].articleId;
}

/**
 * The sections of the article of the most relevant passage (the first among equals) that are not among the
 * retrieved passages, in article order, at most `max` (a retrieval gives at most RETRIEVE_K_MAX passages in all);
 * none when no passage is relevant at all.
 */
export function leadSections(
  res: RetrievalResult,
  scores: readonly number[],
  sectionsOf: (articleId: string) => Passage[],
  max = RETRIEVE_K_MAX - res.passages.length,
): Passage[] {
  const lead = leadArticle(res, scores);
  if (lead === undefined) return [];
  const retrieved = new Set(res.passages.map((p) => p.id));
  if (max <= 0) return [];
  return sectionsOf(lead)
    .filter((p) => !retrieved.has(p.id))
    .slice(0, max);
}

/** Which articles a retrieval may use (the chat's scope): a category, a set of articles, or both. */
export interface RetrievalFilter {
  category?: string;
  /** an empty list: no article (nothing is found) */
  articleIds?: readonly string[];
}

/**
 * The k passages that best answer `query`, best first by relevance. Never throws on odd input: a non-string or
 * empty query gives []; a long one is cut to MAX_SEARCH_INPUT (the index reads less still). A `filter` is
 * applied inside the index, before ranking and before the relevance rule: passages outside it are never scored,
 * so they neither appear nor lower the relevance of those inside. With `leadSections` (the chat's candidates), the
 * other sections of the best passage's article follow at LEAD_SECTION_SCORE (leadSections()), and its retrieved
 * sections count at least that much.
 */
export async function retrievePassages(
  catalog: KnowledgeCatalog,
  query: string,
  k = RETRIEVE_K_DEFAULT,
  filter?: RetrievalFilter,
  options: { leadSections?: boolean } = {},
): Promise<KnowledgePassage[]> {
  if (typeof query !== "string" || !query.trim()) return [];
  await catalog.ensureFresh();
  const res = await catalog.index.retrieve(query.slice(0, MAX_SEARCH_INPUT), {
    k: clamp(k, 1, RETRIEVE_K_MAX, RETRIEVE_K_DEFAULT),
    ...(filter?.category ? { category: filter.category } : {}),
    ...(filter?.articleIds ? { articleIds: filter.articleIds } : {}),
  });
  const scores = relevances(res);
  const out: KnowledgePassage[] = [];
  const add = (p: Passage & { coverage?: number }, score: number) => {
    const article = catalog.get(p.articleId);
    if (!article) return;
    out.push({
      articleId: p.articleId,
      title: p.title,
      headingPath: p.headingPath,
      text: p.text,
      score,
      ...(p.coverage !== undefined ? { coverage: p.coverage } : {}),
      updatedAt: article.updatedAt,
      url: articleUrl(article, p.headingPath),
    });
  };
  // a retrieved section of the lead article counts at least as much as one retrieval did not return (its relevance
  // below LEAD_SECTION_SCORE left the section that answers out of the quotes while its unretrieved neighbours were in)
  const lead = options.leadSections ? leadArticle(res, scores) : undefined;
  res.passages.forEach((p, i) => {
    add(p, p.articleId === lead ? Math.max(scores[i], LEAD_SECTION_SCORE) : scores[i]);
  });
  if (options.leadSections)
    for (const p of leadSections(res, scores, (id) => catalog.index.passagesOf(id)))
      add(p, LEAD_SECTION_SCORE);
  // best first by relevance (the index order is its ranking; the relevance decides what the chat uses)
  return out.sort((a, b) => b.score - a.score);
}

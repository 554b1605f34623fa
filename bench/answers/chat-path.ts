/**
 * The chat's retrieval-only path, straight from an index (no app), for the bench tools that classify failures:
 * DEFAULT_RETRIEVE_K candidates → relevances (+ the best article's other sections, leadSections) → passagesToQuote(relevant, retrieved, question) → quoteOf.
 */
import { DEFAULT_MIN_SCORE, DEFAULT_RETRIEVE_K } from "../../api/src/chat/answer/answer.service";
import { passagesToQuote, quoteOf } from "../../api/src/chat/answer/quotes";
import type { Passage } from "../../api/src/chat/answer/types";
import {
  LEAD_SECTION_SCORE,
  leadArticle,
  leadSections,
  relevances,
} from "../../api/src/knowledge/knowledge.retrieval";
import type { KnowledgeIndex } from "../../api/src/search/search.index";

export interface ChatPath {
  /** the candidates as the chat sees them, in retrieval order */
  passages: Passage[];
  /** the candidates at or above the gate, best first */
  relevant: Passage[];
  quoted: Passage[];
  quotes: string[];
}

export async function chatPath(index: KnowledgeIndex, question: string): Promise<ChatPath> {
  const res = await index.retrieve(question, { k: DEFAULT_RETRIEVE_K });
  const scores = relevances(res);
  const lead = leadArticle(res, scores);
  const passages: Passage[] = res.passages.map((p, i) => ({
    articleId: p.articleId,
    title: p.title,
    headingPath: p.headingPath,
    text: p.text,
    score: p.articleId === lead ? Math.max(scores[i], LEAD_SECTION_SCORE) : scores[i],
    ...(p.coverage !== undefined ? { coverage: p.coverage } : {}),
  }));
  for (const p of leadSections(res, scores, (id) => index.passagesOf(id)))
    passages.push({
      articleId: p.articleId,
      title: p.title,
      headingPath: p.headingPath,
      text: p.text,
      score: LEAD_SECTION_SCORE,
    });
  const relevant = passages.filter((p) => p.score >= DEFAULT_MIN_SCORE).sort((a, b) => b.score - a.score);
  const quoted = passagesToQuote(relevant, passages, undefined, question);
  return { passages, relevant, quoted, quotes: quoted.map((p) => quoteOf(p.text, question)) };
}

/**
 * What a retrieval-only answer quotes: the best passage, other articles' only when their evidence is close to it,
 * neighbouring sections of the best passage's article (not always RETRIEVAL_MODE_MAX_PASSAGES), one per section,
 * those whose best sentence answers the question best, the answer opening with the best passage's article; and from
 * each, whole sentences
 * (never cut mid-sentence) around the sentence that answers when the passage is longer than a quote may be.
 */
import {
  analysed,
  passageEvidence,
  type QuestionEvidence,
  questionEvidence,
  sentenceEvidence,
} from "./evidence";
import type { Passage } from "./types";

export { sentences } from "./evidence";

/** how many passages a retrieval-only answer quotes at most */
export const RETRIEVAL_MODE_MAX_PASSAGES = 3;
/** each quote is at most this long (whole sentences) */
export const RETRIEVAL_QUOTE_MAX_CHARS = 700;
/**
 * A passage of another article than the best passage's is quoted only when its relevance is at least this share
 * of the best's: an article whose evidence is clearly weaker is padding, not a second answer.
 */
export const OTHER_ARTICLE_MIN_SHARE = 0.95;
/**
 * ... and its article's best coverage of the question at least this share of the best passage's article's: the
 * relevance saturates near 1 for every good passage, the coverage (how much of the question the article's best
 * section holds) still tells a clearly better article from padding. Applies when retrieval reports coverage.
 */
export const OTHER_ARTICLE_MIN_COVERAGE_SHARE = 0.9;
/**
 * A passage of another article whose coverage is not close is still quoted when its relevance is at least this
 * share of the best's and its best sentence answers the question better than the best passage's by more than
 * OTHER_ARTICLE_EVIDENCE_MARGIN (evidence.ts, 0..1): coverage counts the question's words anywhere in a section,
 * the sentence evidence whether one sentence holds the telling ones (a right article ranked second or third by
 * its coverage whose section states the answer).
 */
export const OTHER_ARTICLE_EVIDENCE_MIN_SHARE = 0.85;
export const OTHER_ARTICLE_EVIDENCE_MARGIN = 0.05;
/**
 * ... and at a relevance down to this share of the best's when its best sentence answers better than every candidate
 * section of the best passage's article by at least OTHER_ARTICLE_CLEAR_MARGIN: the relevance reads the whole
 * section (a long section holding the question's words apart outranks the short rule that states them together),
 * the sentence evidence whether one sentence holds them.
 */
export const OTHER_ARTICLE_CLEAR_MIN_SHARE = 0.5;
export const OTHER_ARTICLE_CLEAR_MARGIN = 0.3;
/**
 * Another section of the best passage's article is quoted when its relevance reaches this (below the gate): the
 * question is covered (the best passage passed the gate), the article is the one that answers it, and the
 * sentence that answers often sits in a neighbouring section (the rule next to its example, the deadline next
 * to the procedure). Given the question, such a section below the gate is quoted only when one of its sentences
 * (read with its heading) holds a word of the question: otherwise it only filled a slot (an answer need not
 * quote RETRIEVAL_MODE_MAX_PASSAGES). A passage that passed the gate may still be quoted without a literal word:
 * the search's lexicon and thesaurus found it (a synonym question's answer).
 */
export const LEAD_ARTICLE_MIN_SCORE = 0.1;

/**
 * A candidate's sentence evidence as the quote choice reads it: a heading naming a deadline (evidence.ts
 * DEADLINE_HEADING) counts for the lead article's sections only (`leadArticleId`: the best relevant passage's
 * article), so another article's deadline section is not let in beside the answer as padding.
 */
export function quoteEvidence(
  p: Pick<Passage, "text" | "headingPath" | "articleId">,
  ev: QuestionEvidence,
  leadArticleId: string | undefined,
): number {
  return passageEvidence(p, ev, p.articleId === leadArticleId);
}

/**
 * The passages to quote, best first, one per section, at most `max`: the best relevant passage; other relevant
 * passages of other articles close to it (OTHER_ARTICLE_MIN_SHARE), or whose sentence answers clearly better
 * (OTHER_ARTICLE_EVIDENCE_MIN_SHARE, OTHER_ARTICLE_EVIDENCE_MARGIN; further below the best, by one passage, when it
 * answers by far better: OTHER_ARTICLE_CLEAR_MIN_SHARE, OTHER_ARTICLE_CLEAR_MARGIN), each such article by its
 * sections that answer best (answeringSections); and other sections of the best passage's article among all
 * `retrieved` passages from LEAD_ARTICLE_MIN_SCORE up. `relevant` passed the caller's gate; nothing is quoted when
 * it is empty. Given the `question`, the passages after the first are taken by how well
 * their best sentence answers it (evidence.ts, over the retrieved candidates), not by their relevance, which
 * saturates near 1 for every good passage: of the best article's sections, the one holding the answering sentence
 * is quoted, not the neighbours that share the question's topic words. The answer opens with the best passage's
 * article (the article search ranks first), with the quoted section of it whose sentence answers best (the best
 * passage among equals): the first retrieved section of the right article is often its introduction or a neighbour,
 * and the answering sentence then came second or third. Another article never opens the answer.
 */
export function passagesToQuote(
  relevant: Passage[],
  retrieved: Passage[] = relevant,
  max = RETRIEVAL_MODE_MAX_PASSAGES,
  question?: string,
): Passage[] {
  const sorted = [...relevant].sort((a, b) => b.score - a.score);
  const top = sorted[0];
  if (!top) return [];
  const lead = retrieved.filter((p) => p.articleId === top.articleId && p.score >= LEAD_ARTICLE_MIN_SCORE);
  const coverage = new Map<string, number>();
  for (const p of retrieved)
    if (p.coverage !== undefined)
      coverage.set(p.articleId, Math.max(coverage.get(p.articleId) ?? 0, p.coverage));
  const leadCoverage = coverage.get(top.articleId);
  const closeCoverage = (p: Passage) =>
    leadCoverage === undefined ||
    (coverage.get(p.articleId) ?? 0) >= leadCoverage * OTHER_ARTICLE_MIN_COVERAGE_SHARE;
  const ev = question === undefined ? undefined : questionEvidence(question, retrieved);
  const evidence = new Map<Passage, number>();
  const evidenceOf = (p: Passage) => {
    if (!ev) return 0;
    let e = evidence.get(p);
    if (e === undefined) {
      e = quoteEvidence(p, ev, top.articleId);
      evidence.set(p, e);
    }
    return e;
  };
  // another article whose relevance is close and whose best sentence answers clearly better than every candidate
  // section of the first passage's article (not only the first passage: when a neighbouring section of the lead
  // article answers as well, that section is quoted, and the other article would be padding)
  let leadEvidence: number | undefined;
  const leadBest = () => {
    leadEvidence ??= Math.max(evidenceOf(top), ...lead.map(evidenceOf));
    return leadEvidence;
  };
  const answersBetter = (p: Passage) =>
    ev !== undefined &&
    p.score >= top.score * OTHER_ARTICLE_EVIDENCE_MIN_SHARE &&
    evidenceOf(p) > leadBest() + OTHER_ARTICLE_EVIDENCE_MARGIN;
  const admitted = sorted.filter(
    (p) =>
      p.articleId !== top.articleId &&
      ((p.score >= top.score * OTHER_ARTICLE_MIN_SHARE && closeCoverage(p)) || answersBetter(p)),
  );
  // an article none of whose passages is close, by its one passage whose sentence answers clearly better (one slot:
  // an article already let in gets none more)
  if (ev !== undefined) {
    const clearly = sorted.filter(
      (p) =>
        p.articleId !== top.articleId &&
        p.score >= top.score * OTHER_ARTICLE_CLEAR_MIN_SHARE &&
        evidenceOf(p) >= leadBest() + OTHER_ARTICLE_CLEAR_MARGIN,
    );
    for (const p of clearly) if (!admitted.some((a) => a.articleId === p.articleId)) admitted.push(p);
    admitted.sort((a, b) => b.score - a.score);
  }
  const others = ev === undefined ? admitted : answeringSections(admitted, sorted, evidenceOf, leadBest());
  const rest = [...sorted.filter((p) => p.articleId === top.articleId), ...lead, ...others];
  if (!ev) rest.sort((a, b) => b.score - a.score);
  else rest.sort((a, b) => evidenceOf(b) - evidenceOf(a) || b.score - a.score);
  const sections = new Set<string>();
  const out: Passage[] = [];
  const passed = new Set(relevant);
  for (const p of [top, ...rest]) {
    if (out.length >= max) break;
    // a section below the gate is quoted for its sentences only: none holding a word of the question, it is filler
    if (ev && p !== top && !passed.has(p) && evidenceOf(p) <= 0) continue;
    const section = [p.articleId, ...p.headingPath].join("\u0000");
    if (sections.has(section)) continue;
    sections.add(section);
    out.push(p);
  }
  if (ev) {
    let opening = out[0];
    for (const p of out)
      if (p.articleId === top.articleId && evidenceOf(p) > evidenceOf(opening)) opening = p;
    if (opening !== out[0]) {
      const after = out.filter((p) => p !== opening);
      after.sort((a, b) => evidenceOf(b) - evidenceOf(a) || b.score - a.score);
      return [opening, ...after];
    }
  }
  return out;
}

/**
 * The sections an article admitted beside the lead article (`admitted`, best relevance first) is quoted by: as many
 * of its relevant sections (`relevant`) as were admitted, those whose best sentence answers best; a section that was
 * not admitted itself only when it answers better than every candidate section of the lead article (`leadEvidence`).
 * The passage that got an article admitted is the one closest to the question as a whole (often its introduction),
 * not always the one stating the answer; a second article is quoted for its answer, and an article already in the
 * answer needs no margin (OTHER_ARTICLE_EVIDENCE_MARGIN guards letting one in). Best relevance first.
 */
function answeringSections(
  admitted: Passage[],
  relevant: Passage[],
  evidenceOf: (p: Passage) => number,
  leadEvidence: number,
): Passage[] {
  const slots = new Map<string, number>();
  for (const p of admitted) slots.set(p.articleId, (slots.get(p.articleId) ?? 0) + 1);
  const was = new Set(admitted);
  const candidates = relevant
    .filter((p) => slots.has(p.articleId) && (was.has(p) || evidenceOf(p) > leadEvidence))
    .sort((a, b) => evidenceOf(b) - evidenceOf(a) || b.score - a.score);
  const out: Passage[] = [];
  for (const p of candidates) {
    const left = slots.get(p.articleId) ?? 0;
    if (left <= 0) continue;
    out.push(p);
    slots.set(p.articleId, left - 1);
  }
  return out.sort((a, b) => b.score - a.score);
}

/** Shorten at a word boundary (a single sentence longer than a quote may be). */
function cutAtWord(text: string, max: number): string {
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * The quote of a passage for a question: its plain text when short enough, otherwise a run of whole sentences of at
 * most `max` characters around the sentence that answers best (evidence.ts; the earliest among equals): of the runs
 * that hold it, the one whose sentences hold the most of the question (the longest among equals).
 */
export function quoteOf(text: string, question: string, max = RETRIEVAL_QUOTE_MAX_CHARS): string {
  const a = analysed(text);
  if (a.plain.length <= max) return a.plain;
  const parts = a.sentences;
  const ev = questionEvidence(question, [{ text }]);
  const hits = parts.map((s, i) => sentenceEvidence(s, ev, a.words[i]));
  let answer = 0;
  for (let i = 1; i < parts.length; i++) if (hits[i] > hits[answer]) answer = i;
  let best = { from: 0, to: 0, score: -1 };
  for (let from = answer; from >= 0; from--) {
    let length = 0;
    for (let i = from; i < answer; i++) length += parts[i].length;
    let score = 0;
    for (let i = from; i < answer; i++) score += hits[i];
    for (let to = answer; to < parts.length; to++) {
      length += parts[to].length;
      if (length > max) break;
      score += hits[to];
      if (score > best.score || (score === best.score && to + 1 - from > best.to - best.from))
        best = { from, to: to + 1, score };
    }
  }
  if (best.to === 0) return cutAtWord(parts[answer].trim(), max);
  return parts.slice(best.from, best.to).join("").trim();
}

/**
 * The knowledge-gap report: questions the chat answered with "not covered" (the chat records each one in
 * knowledge_gaps when an answer is written with knowledgeGap = true: no passage found, or the model cited no
 * source), grouped so that one missing article shows as one line.
 *
 * Grouping uses the search's Danish analysis (search.analyzer.ts: lower-casing, snowball stemming, folding
 * æ/ø/å, stop words and question words dropped): each question becomes its set of content-word stems. Two stems
 * match when equal, or when one extends the other by at most 2 letters (the stemmer leaves "parkeringsplad" /
 * "parkeringsplads"), or when both are long and one edit apart (a typo). Two questions are similar when the
 * soft Jaccard index of their stem sets (matched stems ÷ stems in either) is at least GAP_SIMILARITY. Questions
 * join the first group (newest first) holding a similar question; a question without content words groups only
 * with the same folded text.
 */
import { analyse, boundedEditDistance, fold } from "../search/search.analyzer";

export const GAP_SIMILARITY = 0.5;
export const GAP_EXAMPLES = 3;

export interface RawGap {
  question: string;
  timestamp: Date;
}

export interface KnowledgeGapView {
  /** the group's newest question */
  question: string;
  count: number;
  lastAskedAt: Date;
  /** up to GAP_EXAMPLES distinct wordings, newest first */
  examples: string[];
}

function stemsMatch(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 4 && long.length - short.length <= 2 && long.startsWith(short)) return true;
  return short.length >= 6 && boundedEditDistance(a, b, 1) <= 1;
}

/** Soft Jaccard index of two stem sets (each stem of `a` matched at most once in `b`). */
export function similarity(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const used = new Set<number>();
  let matched = 0;
  for (const x of a) {
    const j = b.findIndex((y, i) => !used.has(i) && stemsMatch(x, y));
    if (j >= 0) {
      used.add(j);
      matched++;
    }
  }
  return matched / (a.length + b.length - matched);
}

interface Group {
  view: KnowledgeGapView;
  members: string[][];
  textKey: string;
  seen: Set<string>;
}

/** Group gaps (any order in; newest first inside a group); biggest groups first, then the most recent. */
export function groupKnowledgeGaps(gaps: RawGap[]): KnowledgeGapView[] {
  const newestFirst = [...gaps].sort((a, b) => b.timestamp.getTime() - a.timestamp.getTime());
  const groups: Group[] = [];
  for (const gap of newestFirst) {
    const question = gap.question.trim().replace(/\s+/g, " ");
    if (!question) continue;
    const stems = [...new Set(analyse(question))];
    const textKey = fold(question.toLowerCase())
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
    const group = groups.find((g) =>
      stems.length === 0
        ? g.members.length === 0 && g.textKey === textKey
        : g.members.some((m) => similarity(stems, m) >= GAP_SIMILARITY),
    );
    if (!group) {
      groups.push({
        view: { question, count: 1, lastAskedAt: gap.timestamp, examples: [question] },
        members: stems.length ? [stems] : [],
        textKey,
        seen: new Set([textKey]),
      });
      continue;
    }
    group.view.count++;
    if (stems.length && group.members.length < 50) group.members.push(stems);
    if (!group.seen.has(textKey) && group.view.examples.length < GAP_EXAMPLES) {
      group.seen.add(textKey);
      group.view.examples.push(question);
    }
  }
  return groups
    .map((g) => g.view)
    .sort((a, b) => b.count - a.count || b.lastAskedAt.getTime() - a.lastAskedAt.getTime());
}

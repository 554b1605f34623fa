/**
 * Scoring of one run of the evaluation set: what each question got (search ranking, chat answer) and the figures
 * over all questions and per kind. Pure: no services, so the rules are in one place and easy to read.
 */
import {
  KINDS,
  type Kind,
  type OffTopicGroup,
  type OffTopicQuestion,
  type OnTopicQuestion,
  squash,
} from "./dataset";

/** search results looked at per question (MRR@SEARCH_DEPTH, recall@1, recall@5) */
export const SEARCH_DEPTH = 10;

/** What the product gave for one question. */
export interface Observation {
  /** slugs of the search hits, best first (at most SEARCH_DEPTH) */
  searchHits: string[];
  /** the chat answer: declined ("not in the knowledge base"), or the slugs it cited in citation order */
  declined: boolean;
  cited: string[];
  /** the cited passages as "slug › heading › heading", in citation order */
  sections: string[];
  /** the answer's blockquoted text, read back as plain text (whitespace collapsed) */
  quoted: string;
  /** the answer's status when it was not 'complete' (an error is neither an answer nor a decline) */
  error?: string;
}

export interface OnTopicOutcome {
  id: string;
  kind: Kind;
  question: string;
  expected: string[];
  /** 1-based rank of the first acceptable article in the search hits; null = not in the top SEARCH_DEPTH */
  searchRank: number | null;
  searchTop: string[];
  declined: boolean;
  cited: string[];
  sections: string[];
  /** the answer cites an acceptable article */
  citedCorrect: boolean;
  /** its first citation ([1]) is an acceptable article */
  firstCitedCorrect: boolean;
  /** an answering sentence appears in the quoted text */
  answerInQuote: boolean;
  error?: string;
}

export interface OffTopicOutcome {
  id: string;
  group: OffTopicGroup;
  question: string;
  declined: boolean;
  cited: string[];
  sections: string[];
  searchTop: string[];
  error?: string;
}

/**
 * The quoted passages of a retrieval-only answer as plain text: the blockquote lines without their "> ", with the
 * answer engine's backslash escapes undone, whitespace collapsed.
 */
export function quotedText(markdown: string): string {
  const lines = markdown
    .split("\n")
    .filter((l) => l.startsWith(">"))
    .map((l) => l.replace(/^> ?/, ""));
  return squash(lines.join("\n").replace(/\\(.)/g, "$1"));
}

export function scoreOnTopic(q: OnTopicQuestion, o: Observation): OnTopicOutcome {
  const ok = new Set(q.articles);
  const at = o.searchHits.slice(0, SEARCH_DEPTH).findIndex((s) => ok.has(s));
  return {
    id: q.id,
    kind: q.kind,
    question: q.question,
    expected: q.articles,
    searchRank: at < 0 ? null : at + 1,
    searchTop: o.searchHits.slice(0, 3),
    declined: o.declined,
    cited: o.cited,
    sections: o.sections,
    citedCorrect: !o.declined && o.cited.some((s) => ok.has(s)),
    firstCitedCorrect: !o.declined && o.cited.length > 0 && ok.has(o.cited[0]),
    answerInQuote: !o.declined && q.answers.some((a) => o.quoted.includes(squash(a))),
    ...(o.error ? { error: o.error } : {}),
  };
}

export function scoreOffTopic(q: OffTopicQuestion, o: Observation): OffTopicOutcome {
  return {
    id: q.id,
    group: q.group,
    question: q.question,
    declined: o.declined,
    cited: o.cited,
    sections: o.sections,
    searchTop: o.searchHits.slice(0, 3),
    ...(o.error ? { error: o.error } : {}),
  };
}

/** Figures over a group of on-topic questions; shares in [0, 1]. */
export interface OnTopicFigures {
  n: number;
  recallAt1: number;
  recallAt5: number;
  mrr: number;
  citedCorrect: number;
  firstCitedCorrect: number;
  answerInQuote: number;
  wronglyDeclined: number;
}

export interface OffTopicFigures {
  n: number;
  declined: number;
}

export interface ModeFigures {
  onTopic: OnTopicFigures;
  perKind: Record<Kind, OnTopicFigures>;
  offTopic: OffTopicFigures;
  offTopicPerGroup: Record<OffTopicGroup, OffTopicFigures>;
  errors: number;
}

const share = (n: number, of: number) => (of === 0 ? 0 : n / of);

export function onTopicFigures(outcomes: OnTopicOutcome[]): OnTopicFigures {
  const n = outcomes.length;
  const count = (f: (o: OnTopicOutcome) => boolean) => share(outcomes.filter(f).length, n);
  return {
    n,
    recallAt1: count((o) => o.searchRank === 1),
    recallAt5: count((o) => o.searchRank !== null && o.searchRank <= 5),
    mrr: share(
      outcomes.reduce((sum, o) => sum + (o.searchRank ? 1 / o.searchRank : 0), 0),
      n,
    ),
    citedCorrect: count((o) => o.citedCorrect),
    firstCitedCorrect: count((o) => o.firstCitedCorrect),
    answerInQuote: count((o) => o.answerInQuote),
    wronglyDeclined: count((o) => o.declined),
  };
}

function offTopicFigures(outcomes: OffTopicOutcome[]): OffTopicFigures {
  return { n: outcomes.length, declined: share(outcomes.filter((o) => o.declined).length, outcomes.length) };
}

export function modeFigures(on: OnTopicOutcome[], off: OffTopicOutcome[]): ModeFigures {
  const perKind = Object.fromEntries(
    KINDS.map((k) => [k, onTopicFigures(on.filter((o) => o.kind === k))]),
  ) as Record<Kind, OnTopicFigures>;
  return {
    onTopic: onTopicFigures(on),
    perKind,
    offTopic: offTopicFigures(off),
    offTopicPerGroup: {
      office: offTopicFigures(off.filter((o) => o.group === "office")),
      general: offTopicFigures(off.filter((o) => o.group === "general")),
    },
    errors: [...on, ...off].filter((o) => o.error).length,
  };
}

/** An on-topic question fails when search does not rank an acceptable article first or the answer misses it. */
export function onTopicFailed(o: OnTopicOutcome): boolean {
  return o.searchRank !== 1 || !o.citedCorrect || !o.answerInQuote || Boolean(o.error);
}

/**
 * Suggested follow-up questions after an answer: up to FOLLOW_UPS_MAX short questions drawn from the headings of
 * the articles the answer cited, leaving out the sections it already quoted and anything the question already
 * asks. No model needed. Pure: the article texts are given.
 */
import type { AnswerLanguage, Citation, NumberedSource } from "./types";

export const FOLLOW_UPS_MAX = 3;
/** a heading longer than this makes no short question and is skipped */
export const FOLLOW_UP_HEADING_MAX_LENGTH = 80;

/** The headings of a Markdown article, in order, as plain text (code blocks skipped). */
export function markdownHeadings(markdown: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (m?.[1]) out.push(cleanHeading(m[1]));
  }
  return out.filter(Boolean);
}

/** Heading text as plain words: links as their text, tags, emphasis and code marks removed. */
function cleanHeading(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]*>/g, "")
    .replace(/[*_`[\]\\<>]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** A question or heading compared as words: lower case, punctuation as spaces (also follow-ups.model.ts). */
export const norm = (s: string) =>
  s
    .toLocaleLowerCase("da")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** 'Optjening af ferie' → 'optjening af ferie'; 'SU-regler' and 'Aarhus' style words keep their capitals. */
function lowerFirst(s: string): string {
  const [a, b] = [s.charAt(0), s.charAt(1)];
  return b && b === b.toLocaleLowerCase("da") && a !== a.toLocaleLowerCase("da")
    ? a.toLocaleLowerCase("da") + s.slice(1)
    : s;
}

/**
 * The question about a heading, in the user's language (a heading that is a question is asked as it is). In English
 * the heading is quoted as written: it is the (Danish) article's own words, not part of the English sentence.
 */
export function followUpFor(heading: string, language: AnswerLanguage): string {
  if (heading.endsWith("?")) return heading;
  return language === "en"
    ? `What does it say about “${heading}”?`
    : `Hvad står der om ${lowerFirst(heading)}?`;
}

export interface FollowUpInput {
  question: string;
  /** the answer's citations (what it quoted) */
  citations: Citation[];
  language: AnswerLanguage;
  /** the cited articles' Markdown by id (absent: only the passages' headings are known) */
  articles: Map<string, string>;
  /** the sources the answer was given (their headings stand in for an article's when its text is unknown) */
  sources?: NumberedSource[];
}

/** A cited article: its title and headings (from its text, else from the passages the answer was given). */
export interface CitedArticle {
  articleId: string;
  title: string;
  headings: string[];
}

/** The cited articles in citation order, each with its title and headings (plain text). */
export function citedArticles(input: Omit<FollowUpInput, "question" | "language">): CitedArticle[] {
  const { citations } = input;
  const articleIds = [...new Set(citations.map((c) => c.articleId))];
  return articleIds.map((articleId) => {
    const title = citations.find((c) => c.articleId === articleId)?.title ?? "";
    const text = input.articles.get(articleId);
    const headings = text
      ? markdownHeadings(text)
      : (input.sources ?? [])
          .filter((s) => s.articleId === articleId)
          .map((s) => cleanHeading(s.headingPath[s.headingPath.length - 1] ?? ""))
          .filter(Boolean);
    return { articleId, title, headings };
  });
}

/**
 * Up to FOLLOW_UPS_MAX follow-up questions: one heading per cited article in turn (citation order), each not
 * quoted by the answer, not the article's title, not in the question, and no two alike. [] without citations.
 */
export function suggestFollowUps(input: FollowUpInput): string[] {
  const { citations, language } = input;
  const question = norm(input.question);
  const quoted = new Set(citations.map((c) => norm(c.headingPath[c.headingPath.length - 1] ?? c.title)));
  const perArticle = citedArticles(input).map(({ title: t, headings }) => {
    const title = norm(t);
    return headings.filter((h) => {
      const n = norm(h);
      return (
        n &&
        h.length <= FOLLOW_UP_HEADING_MAX_LENGTH &&
        n !== title &&
        !quoted.has(n) &&
        !question.includes(n)
      );
    });
  });
  const out: string[] = [];
  const seen = new Set<string>([question]);
  for (let round = 0; out.length < FOLLOW_UPS_MAX; round++) {
    const before = out.length;
    let any = false;
    for (const headings of perArticle) {
      const h = headings[round];
      if (h === undefined) continue;
      any = true;
      const q = followUpFor(h, language);
      if (seen.has(norm(q)) || seen.has(norm(h))) continue;
      seen.add(norm(q));
      seen.add(norm(h));
      out.push(q);
      if (out.length >= FOLLOW_UPS_MAX) break;
    }
    if (!any && out.length === before) break;
  }
  return out;
}

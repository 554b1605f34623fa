/**
 * A query as people type it → the terms the index looks up: whitespace collapsed, cut when long, each word
 * stemmed (stop words dropped), then matched against the vocabulary as a whole word, a compound start, the
 * start of a word still being typed, or else typo-corrected. Never throws: odd input gives no terms.
 */
import { fold, normaliseWord, wordSpans } from "./search.analyzer";
import type { QueryCorrection, QueryInfo } from "./search.types";
import type { Vocabulary } from "./search.vocabulary";

/** Queries longer than this are cut (at a word boundary) before analysis. */
export const MAX_QUERY_LENGTH = 256;
/** At most this many distinct terms of a query are searched. */
export const MAX_QUERY_TERMS = 16;
/** At most this many indexed terms a prefix expands to (for highlighting and compound matching). */
export const MAX_HIGHLIGHT_EXPANSIONS = 500;
/**
 * Appended to every indexed term. orama's term lookup always matches by prefix; searching
 * `term + TERM_END` matches the whole term only, while a bare `term` still matches as a prefix.
 * Terms are letters and digits only, so '_' never occurs inside one.
 */
export const TERM_END = "_";
/** Written words at least this long also match as the start of longer (compound) words. */
export const MIN_PREFIX_LENGTH = 5;

export interface AnalysedQuery {
  info: QueryInfo;
  /** Terms to look up in orama's trees: whole-word terms end in TERM_END, prefix terms do not. */
  oramaTerms: string[];
  /** Index terms whose words are highlighted (query terms plus their prefix expansions). */
  highlight: Set<string>;
}

/** The query text to search: whitespace collapsed and trimmed, cut to MAX_QUERY_LENGTH at a word boundary. */
export function cutQuery(query: string): { text: string; truncated: boolean } {
  let text = query.replace(/\s+/g, " ").trim();
  let truncated = false;
  if (text.length > MAX_QUERY_LENGTH) {
    truncated = true;
    const cut = text.slice(0, MAX_QUERY_LENGTH);
    const lastSpace = cut.lastIndexOf(" ");
    text = (lastSpace > MAX_QUERY_LENGTH / 2 ? cut.slice(0, lastSpace) : cut).trim();
  }
  return { text, truncated };
}

/** Query text → index terms (stemmed, stop words dropped, unknown words typo-corrected). */
export function analyseQuery(query: unknown, vocabulary: Vocabulary): AnalysedQuery {
  const empty = (text = "", truncated = false): AnalysedQuery => ({
    info: { text, truncated, terms: [], corrections: [] },
    oramaTerms: [],
    highlight: new Set(),
  });
  if (typeof query !== "string") return empty();
  const { text, truncated } = cutQuery(query);
  if (!text) return empty(text, truncated);

  const terms: string[] = [];
  const oramaTerms: string[] = [];
  const corrections: QueryCorrection[] = [];
  const highlight = new Set<string>();
  for (const { word } of wordSpans(text)) {
    if (terms.length >= MAX_QUERY_TERMS) break;
    if (word.length < 2) continue;
    const term = normaliseWord(word);
    if (!term || terms.includes(term)) continue;
    const folded = fold(word);
    // 1. An indexed word. Danish compounds: a written word of 5+ letters also matches indexed words that
    // start with it ('indsigt' finds 'indsigtsanmodning'), while a short word only matches whole ('dag' is
    // not 'dagsorden'). The prefix is the word as written: a stem is often too short ('inds').
    const compounds =
      folded.length >= MIN_PREFIX_LENGTH ? vocabulary.termsWithPrefix(folded, MAX_HIGHLIGHT_EXPANSIONS) : [];
    if (vocabulary.hasTerm(term)) {
      terms.push(term);
      highlight.add(term);
      // When the stem is the word itself, the prefix search already covers the whole word.
      if (!compounds.includes(term)) oramaTerms.push(`${term}${TERM_END}`);
      if (compounds.length > 0) oramaTerms.push(folded);
      for (const e of compounds) highlight.add(e);
      continue;
    }
    // 2. The start of indexed words (someone still typing): match as a prefix.
    const expansions = vocabulary.termsWithPrefix(term, MAX_HIGHLIGHT_EXPANSIONS);
    if (expansions.length > 0) {
      terms.push(term);
      oramaTerms.push(term);
      for (const e of expansions) highlight.add(e);
      continue;
    }
    // 3. A typo: the closest indexed word within the typo budget.
    const corrected = vocabulary.correct(word);
    if (corrected && !terms.includes(corrected.term)) {
      terms.push(corrected.term);
      oramaTerms.push(`${corrected.term}${TERM_END}`);
      highlight.add(corrected.term);
      corrections.push({ from: word, to: corrected.word });
    }
    // An unknown word with no close match cannot match anything; it is left out.
  }
  return { info: { text, truncated, terms, corrections }, oramaTerms, highlight };
}

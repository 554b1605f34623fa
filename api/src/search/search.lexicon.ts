/**
 * The curated Danish lexicon of related terms (lexicon/da.json, data, not code): groups of words staff use for
 * the same thing, and what a question's wording means in the articles' terms ("means": one direction only, a
 * word or two words in a row: "lang tid" asks for a "frist", but an article about a "frist" need not say how
 * "lang" anything is). A question word in a group, or a word or pair in "means", also searches those terms, at
 * LEXICON_WEIGHT. Entries are normalised like every indexed word (stemmed, æøå folded), so any inflection of an
 * entry counts; a pair is two meaningful words (stop words are never part of a pair).
 */
import lexicon from "./lexicon/da.json";
import { normaliseWord, wordSpans } from "./search.analyzer";

/** A related term's weight in the query, relative to the question's own word (1). */
export const LEXICON_WEIGHT = 0.5;
/**
 * The weight of what two words in a row mean ("lang tid" → "frist"): lower, since each of the two also counts on
 * its own (bench:answers, calibration half: 0.2-0.4 equal, 0.5 puts the deadlines article first for "hvor lang
 * tid tager introduktionen").
 */
export const LEXICON_PAIR_WEIGHT = 0.4;

let related: Map<string, string[]> | null = null;

const termsOf = (text: string) =>
  wordSpans(text)
    .map((s) => normaliseWord(s.word))
    .filter(Boolean);

function build(
  groups: readonly (readonly string[])[],
  means: Readonly<Record<string, readonly string[]>>,
): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  const add = (key: string, terms: readonly string[]) => {
    const own = out.get(key) ?? new Set<string>();
    for (const o of terms) if (o !== key) own.add(o);
    out.set(key, own);
  };
  for (const group of groups) {
    const terms = [...new Set(group.flatMap(termsOf))];
    for (const t of terms) add(t, terms);
  }
  for (const [asked, meant] of Object.entries(means)) {
    const key = termsOf(asked).join(" ");
    if (key) add(key, meant.flatMap(termsOf));
  }
  return new Map([...out].map(([k, v]) => [k, [...v]]));
}

/**
 * The index terms related to an index term, or meant by a pair of them ("lang tid": pass both, the first as
 * written first), not including the term itself; [] when the lexicon has none.
 */
export function relatedTerms(term: string, next?: string): string[] {
  related ??= build(lexicon.groups, lexicon.means);
  return related.get(next === undefined ? term : `${term} ${next}`) ?? [];
}

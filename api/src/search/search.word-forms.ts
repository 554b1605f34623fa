/**
 * A question word's form as the articles index it, where the Snowball stemmer reads two forms of one word apart:
 * a weak verb's past tense or participle (inflectedAs), an irregular or regular form the index lacks whose
 * dictionary word it has (formAs), a word typed without æøå (asDanish, isDanishWritten). Used by query analysis
 * (search.query.ts); the articles are indexed as written.
 */
import { normaliseWord } from "./search.analyzer";
import { dictionaryBases, irregularLemma, isDanishWord } from "./search.danish";
import type { Vocabulary } from "./search.vocabulary";

/**
 * The index term of a stem the stemmer left inflected: a Danish past tense or participle of a weak verb ends in
 * -t or -te ("mødt", "mødte", "gemt"), which the Snowball stemmer keeps ("moedt", "gemt") while it cuts the
 * articles' "møde", "gemme" to "moed", "gem". An unknown stem ending in t whose stem without it is indexed is that
 * word (not after s: "journalist" is no form of "journalisere"); any other stem is returned as it is.
 */
export function inflectedAs(term: string, vocabulary: Vocabulary): string {
  if (term.length < 4 || !term.endsWith("t") || term.endsWith("st") || vocabulary.hasTerm(term)) return term;
  const base = term.slice(0, -1);
  return vocabulary.hasTerm(base) ? base : term;
}

/** Shortest start left when -ning / -ing is cut off ('ring' and 'ting' are no verbal nouns). */
const MIN_VERB_STEM = 4;

/**
 * The verbs of verbal nouns in -ning / -ing ('overstregning' → 'overstrege', 'registrering' → 'registrere'): Snowball
 * cuts -else to the verb's stem ('anmeldelse' and 'anmelde' are 'anmeld'), never -ning, so a question's noun missed
 * the articles' verb.
 */
function verbsOf(nouns: readonly string[]): string[] {
  const out: string[] = [];
  for (const noun of nouns) {
    const m = /^(.+?)(?:n?ing)$/.exec(noun);
    if (m && m[1].length >= MIN_VERB_STEM) out.push(`${m[1]}e`);
  }
  return out;
}

/**
 * The index term of a word form the index does not have, read as the word it is a form of when the index has that
 * (the Danish dictionary, search.danish.ts): an irregular form by the dictionary's list of them (irregularLemma: a
 * strong verb's participle 'overskrevet', stem 'overskrev', is the articles' 'overskrives', 'overskriv'; a verb whose
 * infinitive ends in a vowel the stemmer keeps, 'foreslå', stems apart from its present tense 'foreslår', so that
 * form, +r, is tried too), else a regular one by its suffix rules (dictionaryBases: 'ugen', which the stemmer leaves
 * as it is, is the articles' 'uge'; 'titlen' is 'titel'), else, for a Danish word, the verb of a verbal noun
 * (verbsOf). Any other term is returned as it is.
 */
export function formAs(word: string, term: string, vocabulary: Vocabulary): string {
  if (vocabulary.hasTerm(term)) return term;
  const lemma = irregularLemma(word);
  const forms = lemma ? [lemma, `${lemma}r`] : [];
  const bases = dictionaryBases(word);
  forms.push(...bases);
  // a misspelt noun is the typo corrector's ('betalling' is 'betaling', not the verb 'betale')
  if (isDanishWritten(word)) forms.push(...verbsOf([word.toLowerCase(), ...bases]));
  for (const form of forms) {
    const base = normaliseWord(form);
    if (base && vocabulary.hasTerm(base)) return base;
  }
  return term;
}

/**
 * A written word read as the form the articles use: its Danish spelling, normalised, its inflection as the
 * indexed form (inflectedAs) in the form the word was written (formAs). Empty when it has no term.
 */
export function articleForm(word: string, vocabulary: Vocabulary): string {
  const stem = inflectedAs(normaliseWord(asDanish(word)), vocabulary);
  return stem && formAs(word, stem, vocabulary);
}

/** A folded word with æ, ø and å written back ('oekonomi' → 'økonomi'). */
export const unfold = (folded: string) =>
  folded.replace(/ae|oe|aa/g, (c) => ({ ae: "æ", oe: "ø", aa: "å" })[c] ?? c);

/**
 * A word typed without a Danish keyboard, written back with æ, ø and å when only that spelling is a Danish word
 * ('aarlige' → 'årlige'); any other word as it is. The stemmer counts 'aa' as two vowels where 'å' is one, so the
 * two spellings can stem apart ('aarlige' → 'aar', the articles' 'årlige' → 'aarl'). Only a word with ae, oe or aa
 * asks the dictionary.
 */
export function asDanish(word: string): string {
  const lower = word.toLowerCase();
  if (!/ae|oe|aa/.test(lower)) return word;
  const danish = unfold(lower);
  return !isDanishWord(lower) && isDanishWord(danish) ? danish : word;
}

/** A Danish word, also when written without a Danish keyboard ('koerer' is 'kører', not a typo of 'fører'). */
export function isDanishWritten(word: string): boolean {
  if (isDanishWord(word)) return true;
  const danish = unfold(word.toLowerCase());
  return danish !== word.toLowerCase() && isDanishWord(danish);
}

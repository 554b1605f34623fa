/**
 * A query as people type it → the terms the index looks up: whitespace collapsed, cut when long, each word
 * stemmed (stop words dropped), then matched against the vocabulary as a whole word, a compound start, the
 * start of a word still being typed, or else typo-corrected. Never throws: odd input gives no terms.
 */
import {
  ASKED_KIND_BRIDGES,
  ASKED_KIND_LINKS,
  ASKED_KIND_MODIFIERS,
  fold,
  isAskedDegree,
  isAskedKind,
  normaliseWord,
  wordSpans,
} from "./search.analyzer";
import { dictionaryBases, isDanishCompound, isDanishWord, splitCompound } from "./search.danish";
import { LEXICON_PAIR_WEIGHT, LEXICON_WEIGHT, relatedTerms } from "./search.lexicon";
import { isThesaurusWord, thesaurusWords } from "./search.thesaurus";
import type { QueryCorrection, QueryInfo } from "./search.types";
import type { Vocabulary } from "./search.vocabulary";
import { articleForm, isDanishWritten } from "./search.word-forms";

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
/** A stem (of a word the index does not have) at least this long matches as the start of indexed words. */
export const MIN_STEM_PREFIX_LENGTH = 4;

/**
 * One meaningful word of the question and every index term that counts as the passage containing it: the word
 * itself (or its typo correction), compounds that start or end with it, words joined with a neighbour, and its
 * related terms from the lexicon. Relevance is judged by how much of the question's concepts a passage covers.
 */
export interface QueryConcept {
  /** the word as written */
  word: string;
  /** index terms that cover it */
  terms: string[];
  /** per term, how fully it covers the word: 1 for the word itself, less for a related term or a compound */
  weights: number[];
  /** a passage word starting with one of these covers it */
  prefixes: string[];
  /** the indexed terms starting with those prefixes (at most MAX_HIGHLIGHT_EXPANSIONS): covering by set lookups */
  prefixed: Set<string>;
  /** how telling the word is (the vocabulary's IDF; highest for a word no article has) */
  idf: number;
  /**
   * what covering the word proves (the relevance gate's view): its IDF when the articles have the word itself (or
   * its correction, or nothing stands for it); for a word only related terms stand for (the lexicon's, the
   * thesaurus's, a compound's parts), the IDF of the best known of those terms: 'approve' read as 'godkende', a
   * word most articles have, proves little, while 'approve' itself is the rarest word there is (no article has it)
   */
  evidenceIdf?: number;
  /**
   * terms from the thesaurus (a word the articles do not have, read as its synonyms they have): weaker evidence
   * than the question's own words or the curated lexicon; a passage covers the concept by one of them only when
   * it also holds another of the question's words by firmer terms (search.coverage.ts)
   */
  loose?: Set<string>;
  /**
   * terms from the curated lexicon (a word's or a pair's: LEXICON_WEIGHT, LEXICON_PAIR_WEIGHT): the same meaning
   * in the secretariat's domain, which the relevance gate reads as firmer evidence than ranking does
   * (search.coverage.ts gateConcepts)
   */
  curated?: Set<string>;
  /**
   * a word nothing reads (no article has it, no related term or compound part stands for it, and it is no Danish
   * word, also as typed without æøå): a misspelling too far from any indexed word, a number, an abbreviation. It
   * is how the question was typed, not a topic the articles lack: its evidence IDF is UNPLACED_EVIDENCE_IDF
   */
  unplaced?: boolean;
  /**
   * for a part of a compound the index does not have ('møde' and 'lokale' of 'mødelokale'), the compound's parts:
   * the relevance gate counts a part as covered only in a text that also holds another of them
   * (search.coverage.ts gateConcepts), since a 'mødelokale' is a kind of 'lokale' the question asks about
   */
  compound?: readonly QueryConcept[];
  /**
   * a gradable word right after "hvor" ("hvor stor", "hvor lang tid": search.analyzer.ts DEGREE_WORDS): part of the
   * question word, asking what kind of fact answers, not what the question is about. Ranking reads it like any word;
   * the relevance gate leaves it out (search.coverage.ts gateConcepts): no article holds "stor" beside the topic, so
   * it weighed as a telling word uncovered and declined questions in staff's words ("hvor stor skal egenkapitalen
   * være?")
   */
  degree?: boolean;
  /**
   * a noun naming the kind of fact asked for, followed by "for" or "om" ("reglerne for", "fristen for":
   * search.analyzer.ts ASKED_KIND_WORDS), and a "sidste" right before it: ranking reads it like any word; the
   * relevance gate leaves it out (search.coverage.ts gateConcepts), the topic being what follows
   */
  kind?: boolean;
}

/**
 * What a passage's lacking an unplaced word (QueryConcept.unplaced) counts as uncovered: nothing. A word no article
 * and no dictionary knows is mostly staff's typing ('månedsafslutingen', '300', 'bst'), and off-topic questions
 * lack the articles' words in real Danish words ('visitkort', 'selvangivelse'), which keep the highest IDF.
 */
export const UNPLACED_EVIDENCE_IDF = 0;

export interface AnalysedQuery {
  info: QueryInfo;
  /** Terms to look up in orama's trees: whole-word terms end in TERM_END, prefix terms do not. */
  oramaTerms: string[];
  /** Per orama term, its weight: 1 for the question's own words, less for related terms. */
  weights: number[];
  /** Index terms whose words are highlighted (query terms plus their prefix expansions). */
  highlight: Set<string>;
  /** The question's meaningful words, each with the terms that cover it. */
  concepts: QueryConcept[];
}

/** Weights of the query's expansions, relative to the question's own words (1). */
export const COMPOUND_HEAD_WEIGHT = 0.6;
export const COMPOUND_PART_WEIGHT = 0.8;
export const COMPOUND_MODIFIER_WEIGHT = 0.4;
/** At most this many compounds ending in a query word are searched. */
const MAX_HEAD_EXPANSIONS = 12;
/** At most this many orama terms per query, expansions included. */
const MAX_ORAMA_TERMS = 64;
/**
 * A thesaurus word's weight, relative to the question's own word (1): below the curated lexicon's (a thesaurus
 * knows every sense of a word, not the one the question means).
 */
export const THESAURUS_WEIGHT = 0.4;
/** At most this many thesaurus words stand for one question word, and for all of a question's words. */
export const MAX_THESAURUS_PER_WORD = 4;
export const MAX_THESAURUS_PER_QUERY = 12;
/**
 * A thesaurus word stands for a question word only when its index term has at least this many letters: short
 * terms are where unrelated words meet ('tal' is a number and speech, 'sid' a side and sitting).
 */
export const MIN_THESAURUS_TERM = 5;
/** Which of a word's thesaurus relations are read: synonyms always; broader / narrower terms (measured). */
export const THESAURUS_BROADER = false;
export const THESAURUS_NARROWER = false;

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

class QueryBuilder {
  readonly oramaTerms: string[] = [];
  readonly weights: number[] = [];
  readonly highlight = new Set<string>();
  readonly concepts: QueryConcept[] = [];
  /** thesaurus words the query may still add (MAX_THESAURUS_PER_QUERY) */
  thesaurusLeft = MAX_THESAURUS_PER_QUERY;

  constructor(readonly vocabulary: Vocabulary) {}

  /**
   * The thesaurus words of a term that the articles have (at most MAX_THESAURUS_PER_WORD, within the query's
   * budget), the thesaurus's first senses first.
   */
  thesaurus(word: string, term: string): string[] {
    if (this.thesaurusLeft <= 0) return [];
    const w = thesaurusWords(word, term, THESAURUS_BROADER);
    const out: string[] = [];
    const lists = [w.synonyms, THESAURUS_BROADER ? w.broader : [], THESAURUS_NARROWER ? w.narrower : []];
    const limit = Math.min(MAX_THESAURUS_PER_WORD, this.thesaurusLeft);
    for (const list of lists) {
      for (const t of list) {
        if (out.length >= limit) break;
        if (lettersOf(t) >= MIN_THESAURUS_TERM && !out.includes(t) && this.vocabulary.hasTerm(t)) out.push(t);
      }
    }
    this.thesaurusLeft -= out.length;
    return out;
  }

  /** Thesaurus words covering `concept`, at THESAURUS_WEIGHT (see QueryConcept.loose). */
  loose(concept: QueryConcept, terms: readonly string[]): void {
    concept.loose ??= new Set();
    for (const t of terms) {
      if (concept.terms.includes(t)) continue;
      concept.loose.add(t);
      this.exact(concept, t, THESAURUS_WEIGHT);
    }
  }

  /** Search `orama` at `weight` (the higher weight wins when it is already searched). */
  search(orama: string, weight: number): void {
    const i = this.oramaTerms.indexOf(orama);
    if (i >= 0) this.weights[i] = Math.max(this.weights[i], weight);
    else if (this.oramaTerms.length < MAX_ORAMA_TERMS) {
      this.oramaTerms.push(orama);
      this.weights.push(weight);
    }
  }

  /** An index term as a whole word covering `concept`. */
  exact(concept: QueryConcept, term: string, weight: number): void {
    const i = concept.terms.indexOf(term);
    if (i < 0) {
      concept.terms.push(term);
      concept.weights.push(weight);
    } else concept.weights[i] = Math.max(concept.weights[i], weight);
    this.search(`${term}${TERM_END}`, weight);
    if (weight >= 1) this.highlight.add(term);
  }

  /** A term of the curated lexicon covering `concept` (see QueryConcept.curated). */
  curated(concept: QueryConcept, term: string, weight: number): void {
    this.exact(concept, term, weight);
    concept.curated ??= new Set();
    concept.curated.add(term);
  }

  /** Related terms (lexicon) and compounds ending in the term, at lower weights. */
  expand(concept: QueryConcept, term: string, weight = 1): void {
    for (const r of relatedTerms(term)) {
      if (this.vocabulary.hasTerm(r)) this.curated(concept, r, LEXICON_WEIGHT * weight);
    }
    if (term.length >= 4) {
      for (const h of this.vocabulary.termsWithSuffix(term, MAX_HEAD_EXPANSIONS)) {
        this.exact(concept, h, COMPOUND_HEAD_WEIGHT * weight);
      }
    }
  }

  concept(word: string): QueryConcept {
    // every concept has the same fields from the start (one object shape for the coverage loops)
    const c: QueryConcept = {
      word,
      terms: [],
      weights: [],
      prefixes: [],
      prefixed: new Set(),
      idf: 0,
      unplaced: false,
    };
    this.concepts.push(c);
    return c;
  }

  /** The concept's IDF from the best-known of its own terms. */
  settle(c: QueryConcept, ownTerms: string[]): void {
    let df = 0;
    for (const t of ownTerms) df = Math.max(df, this.vocabulary.articlesWith(t));
    c.idf = this.vocabulary.idf(df);
  }
}

/** The shortest head a split keeps in the word an inflected form is a form of ('dag' of 'arbejdsdag'). */
const MIN_BASE_HEAD = 3;

/**
 * The parts of a compound the index does not have, or null: a word that starts with a stop word ("overhovedet",
 * "underskrive") is a particle and a word, not two things; its parts would be a stop word no passage is counted
 * for and a fragment, two telling words no article has where the question has one. An inflected form splits only
 * where the word it is a form of splits too: "forskellen" is a form of "forskel", whose "forsk" leaves "el", so no
 * compound, though "forsk" + "ellen" read as two words; "arbejdsdagene" is one of "arbejdsdag", arbejd(s) + dag.
 */
function compoundParts(word: string): [string, string] | null {
  const parts = splitCompound(word);
  if (!parts?.every((p) => normaliseWord(p))) return null;
  const bases = dictionaryBases(word);
  if (bases.length === 0) return parts;
  const w = word.toLowerCase();
  const modifier = w.slice(0, w.length - parts[1].length);
  const splitsToo = (base: string) => {
    const head = base.slice(modifier.length);
    return base.startsWith(modifier) && head.length >= MIN_BASE_HEAD && isDanishWord(head);
  };
  return bases.some(splitsToo) ? parts : null;
}

/**
 * Danish verb particles (a closed word class) as they start the joined verb: 'tage imod' is 'modtage', 'sende ind'
 * 'indsende', 'betale tilbage' 'tilbagebetale', 'skrive under' 'underskrive'. Keys are folded (æøå written out).
 * Not the prepositions that mostly follow a verb as such ('arbejde med' is no 'medarbejde', 'klage til' no
 * 'tilklage'): med, til, fra, på, om.
 */
const PARTICLES: ReadonlyMap<string, string> = new Map([
  ["imod", "mod"],
  ["mod", "mod"],
  ["ind", "ind"],
  ["ud", "ud"],
  ["op", "op"],
  ["ned", "ned"],
  ["af", "af"],
  ["over", "over"],
  ["under", "under"],
  ["frem", "frem"],
  ["tilbage", "tilbage"],
  ["sammen", "sammen"],
  ["bort", "bort"],
  ["hjem", "hjem"],
]);

/**
 * How many Danish letters an index term has: a folded æ, ø or å ('ae', 'oe', 'aa', as terms are stored and as
 * people type without a Danish keyboard) is one letter ('koer', the stem of 'kører', has three).
 */
export function lettersOf(term: string): number {
  return term.length - (term.match(/ae|oe|aa/g)?.length ?? 0);
}

/** QueryConcept.evidenceIdf: the IDF of the best known term standing for a word the articles do not have. */
function evidenceIdf(c: QueryConcept, vocabulary: Vocabulary): number {
  if (c.unplaced) return UNPLACED_EVIDENCE_IDF;
  if (c.terms.length === 0 || c.weights.some((w) => w >= 1)) return c.idf;
  let df = 0;
  for (const t of c.terms) df = Math.max(df, vocabulary.articlesWith(t));
  return Math.min(c.idf, vocabulary.idf(df));
}

/** Query text → index terms (stemmed, stop words dropped, unknown words typo-corrected, related terms added). */

export function analyseQuery(query: unknown, vocabulary: Vocabulary): AnalysedQuery {
  const empty = (text = "", truncated = false): AnalysedQuery => ({
    info: { text, truncated, terms: [], corrections: [] },
    oramaTerms: [],
    weights: [],
    highlight: new Set(),
    concepts: [],
  });
  if (typeof query !== "string") return empty();
  const { text, truncated } = cutQuery(query);
  if (!text) return empty(text, truncated);

  const q = new QueryBuilder(vocabulary);
  const terms: string[] = [];
  const corrections: QueryCorrection[] = [];
  let previous: { word: string; term: string; concept: QueryConcept } | null = null;
  // the word written before, stop words included ('hvor' of 'hvor stor')
  let written: string | undefined;
  // a kind noun ('reglerne') and the word before it that belongs to it ('sidste'), until a link ('for') marks them
  let kind: QueryConcept[] | null = null;
  for (const { word } of wordSpans(text)) {
    if (terms.length >= MAX_QUERY_TERMS) break;
    if (kind) {
      const f = fold(word);
      if (ASKED_KIND_LINKS.has(f)) for (const k of kind) k.kind = true;
      if (!ASKED_KIND_BRIDGES.has(f)) kind = null;
    }
    const degree = isAskedDegree(written, word);
    const before = written;
    written = word;
    // a verb and its particle written apart ('tage imod', 'sende ind') as the articles join them ('modtage')
    const particle = PARTICLES.get(fold(word));
    if (particle !== undefined && previous) {
      const joined = normaliseWord(particle + previous.word);
      if (joined && joined !== previous.term && vocabulary.hasTerm(joined)) {
        q.exact(previous.concept, joined, 1);
        previous = null;
        continue; // the particle has no meaning of its own
      }
    }
    const term = articleForm(word, vocabulary);
    if (word.length < 2 || !term) {
      previous = null;
      continue;
    }
    if (terms.includes(term)) {
      // a word already asked ('tidligere' and 'tid' stem alike) may still finish a pair ('lang tid')
      for (const r of previous ? relatedTerms(previous.term, term) : []) {
        if (previous && vocabulary.hasTerm(r)) q.curated(previous.concept, r, LEXICON_PAIR_WEIGHT);
      }
      continue;
    }
    const folded = fold(word);
    const c = q.concept(word);
    if (degree) c.degree = true;
    if (isAskedKind(word)) {
      const modifier =
        before !== undefined && previous?.word === before && ASKED_KIND_MODIFIERS.has(fold(before))
          ? previous.concept
          : undefined;
      kind = modifier ? [modifier, c] : [c];
    }
    // 1. An indexed word. Danish compounds: a written word of 5+ letters also matches indexed words that
    // start with it ('indsigt' finds 'indsigtsanmodning'), while a short word only matches whole ('dag' is
    // not 'dagsorden'). The prefix is the word as written: a stem is often too short ('inds').
    const compounds =
      folded.length >= MIN_PREFIX_LENGTH ? vocabulary.termsWithPrefix(folded, MAX_HIGHLIGHT_EXPANSIONS) : [];
    if (vocabulary.hasTerm(term)) {
      terms.push(term);
      q.highlight.add(term);
      c.terms.push(term);
      c.weights.push(1);
      // When the stem is the word itself, the prefix search already covers the whole word.
      if (!compounds.includes(term)) q.search(`${term}${TERM_END}`, 1);
      if (compounds.length > 0) {
        q.search(folded, 1);
        c.prefixes.push(folded);
        for (const e of compounds) c.prefixed.add(e);
      }
      for (const e of compounds) q.highlight.add(e);
      q.expand(c, term);
      q.settle(c, [term]);
    } else {
      // the start of indexed words: the word as written (an inflection the stemmer cut differently from the
      // article's: 'dissens' → 'dis', the article's 'dissenser' → 'dissens'), else its stem when long enough to
      // tell or written that short ('akt'): the 3-letter stem 'dis' of 'dissens' starts unrelated words
      // ('dispensation')
      const prefix = compounds.length > 0 ? folded : term;
      const expansions =
        compounds.length > 0
          ? compounds
          : lettersOf(term) >= MIN_STEM_PREFIX_LENGTH || term === folded
            ? vocabulary.termsWithPrefix(term, MAX_HIGHLIGHT_EXPANSIONS)
            : [];
      const related = relatedTerms(term).filter((r) => vocabulary.hasTerm(r));
      const parts = expansions.length > 0 || related.length > 0 ? null : compoundParts(word);
      const synonyms = expansions.length > 0 || related.length > 0 || parts ? [] : q.thesaurus(word, term);
      if (expansions.length > 0) {
        // 2. The start of indexed words (someone still typing): match as a prefix.
        terms.push(term);
        q.search(prefix, 1);
        c.prefixes.push(prefix);
        for (const e of expansions) {
          q.highlight.add(e);
          c.prefixed.add(e);
        }
        q.expand(c, term);
        q.settle(c, expansions.slice(0, 20));
      } else if (related.length > 0) {
        // 3. A word the index does not have, but related terms it has (the lexicon: 'deadline', 'approve',
        // 'CV'): a known word, never "corrected" into another one ('vote' is no typo of 'noteres').
        q.expand(c, term);
        q.settle(c, []);
      } else if (synonyms.length > 0) {
        // 3b. A word the index does not have, but thesaurus words it has ('regning' for an article's
        // 'faktura'): the question's word read as those, at a lower weight.
        q.loose(c, synonyms);
        q.expand(c, term);
        q.settle(c, []);
      } else if (!isDanishWritten(word) && !isThesaurusWord(word) && vocabulary.correct(word)) {
        // 4. A typo: the closest indexed word within the typo budget. A real Danish word is never "corrected"
        // into another one: it is a word the knowledge base does not have.
        const corrected = vocabulary.correct(word) as NonNullable<ReturnType<Vocabulary["correct"]>>;
        if (!terms.includes(corrected.term)) {
          terms.push(corrected.term);
          q.exact(c, corrected.term, 1);
          corrections.push({ from: word, to: corrected.word });
          q.expand(c, corrected.term);
        }
        q.settle(c, [corrected.term]);
      } else if (parts) {
        // 5. A compound the index does not have: its parts ('arbejdslaptop' → 'arbejd' + 'laptop').
        // The head says what the thing is ('sommerfest' is a party): it covers the word as a near-whole; the
        // modifier alone covers it only partly ('sommer' in 'sommerferie' is not a 'sommerfest').
        q.concepts.pop();
        const siblings: QueryConcept[] = [];
        parts.forEach((part, i) => {
          const weight = i === parts.length - 1 ? COMPOUND_PART_WEIGHT : COMPOUND_MODIFIER_WEIGHT;
          const pc = q.concept(part);
          siblings.push(pc);
          pc.compound = siblings;
          // a part in an inflected form is read as the form the articles use ('varslet' of
          // 'udmeldelsesvarslet' as 'varsel'), like a whole word
          const pt = articleForm(part, vocabulary);
          if (pt && vocabulary.hasTerm(pt)) q.exact(pc, pt, weight);
          if (pt) q.expand(pc, pt, weight);
          q.settle(pc, pt ? [pt] : []);
        });
      } else {
        // A word no article has, with no close match: no passage covers it.
        q.expand(c, term);
        q.settle(c, []);
        if (
          c.terms.length === 0 &&
          !isDanishWritten(word) &&
          !isThesaurusWord(word) &&
          !isDanishCompound(word)
        )
          c.unplaced = true;
      }
    }
    // 6. A compound written apart ('sikkerheds introduktionen'): the joined word covers both. Two words the
    // lexicon reads together ('lang tid' asks for a 'frist'): its terms cover both.
    if (previous) {
      const joined = normaliseWord(previous.word + word);
      if (joined && vocabulary.hasTerm(joined)) {
        for (const own of [previous.concept, c]) q.exact(own, joined, 1);
      }
      for (const r of relatedTerms(previous.term, term)) {
        if (!vocabulary.hasTerm(r)) continue;
        for (const own of [previous.concept, c]) q.curated(own, r, LEXICON_PAIR_WEIGHT);
      }
    }
    previous = { word, term, concept: q.concepts[q.concepts.length - 1] };
  }
  for (const c of q.concepts) c.evidenceIdf = evidenceIdf(c, vocabulary);
  return {
    info: { text, truncated, terms, corrections },
    oramaTerms: q.oramaTerms,
    weights: q.weights,
    highlight: q.highlight,
    concepts: q.concepts,
  };
}

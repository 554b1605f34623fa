import { stemmer as danishStemmer } from "@orama/stemmers/danish";
import { stopwords as danishStopwords } from "@orama/stopwords/danish";

/**
 * Danish text analysis shared by indexing, querying and highlighting, so that a word in a document
 * and the same word in a query always normalise to the same term.
 *
 * normalise(word) = fold(stem(lowercase(word))), or '' for a stop word:
 * - stemming (snowball, via @orama/stemmers/danish) maps sagsbehandling / sagsbehandlingen /
 *   sagsbehandlinger to one term;
 * - folding after stemming maps æ→ae, ø→oe, å→aa and strips accents, so people without a Danish
 *   keyboard ("udlaeg") still find "udlæg".
 */

/** Question words and fillers that carry no meaning in a search, on top of the snowball list. */
const EXTRA_STOPWORDS = [
  "hvem",
  "hvordan",
  "hvornår",
  "hvorfor",
  "hvilken",
  "hvilket",
  "hvilke",
  "kan",
  "må",
  "gør",
  "får",
  "vores",
  "jeres",
  "hvis",
  // fillers of spoken questions: they say nothing about what is asked
  "gerne",
  "lige",
  "bare",
  "egentlig",
  "faktisk",
  "nogen",
  "tit",
  "ofte",
  "fået",
  "gøre",
  "sige",
  // adverbs of spoken questions ("er den allerede sendt", "helt fra systemerne", "det er jo ..."): rare in the
  // articles, so they counted as telling words no article covers
  "allerede",
  "helt",
  "altså",
  "jo",
  "vel",
  "nok",
  "lidt",
  "stadig",
];

/**
 * The stop words, each also as written without a Danish keyboard (æ→ae, ø→oe, å→aa: "hvornaar", "goer", "naar"):
 * otherwise such a question word counts as a rare content word no article has and dilutes the question's coverage.
 */
const STOPWORDS: ReadonlySet<string> = new Set(
  [...danishStopwords, ...EXTRA_STOPWORDS].flatMap((w) => [
    w,
    w.replace(/[æøå]/g, (c) => ({ æ: "ae", ø: "oe", å: "aa" })[c] ?? c),
  ]),
);

/** Words: runs of letters and digits in any script (so regex-special input simply has none). */
const WORD_RE = /[\p{L}\p{N}]+/gu;

export interface WordSpan {
  /** The word as written. */
  word: string;
  /** Offset of the first character in the analysed text. */
  start: number;
  /** Offset after the last character. */
  end: number;
}

const ASCII_RE = /^[ -~]*$/; // printable ASCII (words never contain control characters)
const DANISH_RE = /[æøå]/g;
const DANISH_MAP: Record<string, string> = { æ: "ae", ø: "oe", å: "aa" };
const foldCache = new Map<string, string>();
const CACHE_LIMIT = 200_000;
const normaliseCache = new Map<string, string>();

/** Lowercase + Danish letters transliterated + accents stripped. */
export function fold(word: string): string {
  const lower = word.toLowerCase();
  if (ASCII_RE.test(lower)) return lower;
  const cached = foldCache.get(lower);
  if (cached !== undefined) return cached;
  let out = lower.replace(DANISH_RE, (c) => DANISH_MAP[c]);
  if (!ASCII_RE.test(out)) out = out.normalize("NFD").replace(/\p{M}+/gu, "");
  // Bounded memo: the vocabulary of a knowledge base is small, but queries are unbounded.
  if (foldCache.size >= CACHE_LIMIT) foldCache.clear();
  foldCache.set(lower, out);
  return out;
}

/**
 * Gradable words that, right after "hvor", ask for a degree: "hvor stor skal egenkapitalen være", "hvor lang tid",
 * "hvor gammel", "hvor mange". With "hvor" they form the question word (what kind of fact answers: a size, a time,
 * an amount), not what the question is about; Danish builds such a question from "hvor" and any gradable adjective
 * or adverb, of which these are the common ones (positive degree, each inflection; "mange", "meget", "tit" and
 * "ofte" are stop words already). The relevance gate leaves them out (QueryConcept.degree, search.coverage.ts
 * gateConcepts). The chat's sentence evidence keeps its own shorter list (ASKING_PHRASE, chat/answer/evidence.ts):
 * one list would change which sentences are quoted, which round 23 did not measure.
 */
export const DEGREE_WORDS: readonly string[] = [
  "stor",
  "stort",
  "store",
  "lang",
  "langt",
  "lange",
  "længe",
  "kort",
  "korte",
  "høj",
  "højt",
  "høje",
  "lav",
  "lavt",
  "lille",
  "små",
  "mange",
  "meget",
  "ofte",
  "tit",
  "hurtig",
  "hurtigt",
  "tidlig",
  "tidligt",
  "sen",
  "sent",
  "gammel",
  "gammelt",
  "gamle",
  "bred",
  "bredt",
  "dyb",
  "dybt",
  "tung",
  "tungt",
  "dyr",
  "dyrt",
  "billig",
  "billigt",
  "svær",
  "svært",
  "nem",
  "nemt",
  "vigtig",
  "vigtigt",
];
const DEGREE: ReadonlySet<string> = new Set(DEGREE_WORDS.map(fold));

/** Whether `word`, written right after `previous`, asks for a degree ("hvor stor", "hvor lang"): DEGREE_WORDS. */
export function isAskedDegree(previous: string | undefined, word: string): boolean {
  return previous !== undefined && fold(previous) === "hvor" && DEGREE.has(fold(word));
}

/**
 * Nouns that name the kind of fact asked for, not the topic: "hvad er **reglerne for** rygning", "hvornår er
 * **fristen for** at melde sig til julefrokosten", "hvilke **regler gælder for** sociale medier". Followed by "for"
 * or "om" (ASKED_KIND_LINKS, across ASKED_KIND_BRIDGES), the noun says that a rule or a deadline answers, like "hvor
 * stor" asks for a size (DEGREE_WORDS); the topic is what follows. The relevance gate leaves them out
 * (QueryConcept.kind, search.coverage.ts gateConcepts): nearly every article states rules and deadlines, so an
 * off-topic question passed on "regler" or "frist" matched in a passage about something else. Every inflection counts,
 * also typed without æøå, by one rule: the word's index term (its stem, folded) is the stem of one of these. The stemmer
 * cuts every inflection of a noun to one stem, except where the plural drops a vowel ("regel", "regler" → "regl"), so
 * such a noun is listed in both.
 */
export const ASKED_KIND_WORDS: readonly string[] = [
  "regel",
  "regler",
  "frist",
  "tidsfrist",
  "procedure",
  "retningslinje",
  "krav",
];
const ASKED_KIND: ReadonlySet<string> = new Set(ASKED_KIND_WORDS.map(normaliseWord));
/** the word that joins the kind noun to the topic asked about ("reglerne **for** X", "reglerne **om** X") */
export const ASKED_KIND_LINKS: ReadonlySet<string> = new Set(["for", "om"]);
/** words that may stand between the kind noun and its link ("regler **der gælder** for", "frist **er der** for") */
export const ASKED_KIND_BRIDGES: ReadonlySet<string> = new Set(["der", "som", "er", "gaelder"]);
/** words that, right before the kind noun, belong to it ("**sidste** frist for"): left out with it */
export const ASKED_KIND_MODIFIERS: ReadonlySet<string> = new Set(["sidste", "seneste", "endelige"]);

/** Whether `word` names the kind of fact asked for when a link follows (ASKED_KIND_WORDS). */
export function isAskedKind(word: string): boolean {
  return ASKED_KIND.has(normaliseWord(word));
}

export function isStopword(lowercaseWord: string): boolean {
  return STOPWORDS.has(lowercaseWord);
}

/** The index term for one word ('' for a stop word). */
export function normaliseWord(word: string): string {
  const lower = word.toLowerCase();
  const cached = normaliseCache.get(lower);
  if (cached !== undefined) return cached;
  const term = STOPWORDS.has(lower) ? "" : fold(danishStemmer(lower));
  if (normaliseCache.size >= CACHE_LIMIT) normaliseCache.clear();
  normaliseCache.set(lower, term);
  return term;
}

/** Every word of a text with its position. */
export function wordSpans(text: string): WordSpan[] {
  const spans: WordSpan[] = [];
  for (const m of text.matchAll(WORD_RE)) {
    const start = m.index ?? 0;
    spans.push({ word: m[0], start, end: start + m[0].length });
  }
  return spans;
}

/** Index terms of a text, each once, in order of first appearance. */
export function analyse(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(WORD_RE)) {
    const term = normaliseWord(m[0]);
    if (term) seen.add(term);
  }
  return [...seen];
}

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), or max+1 as soon as
 * it is certain to exceed max. 'sagsbehandlnig' → 'sagsbehandling' is 1.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = b.length;
  let prevPrev = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, prevPrev[j - 2] + 1);
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prevPrev, prev, cur] = [prev, cur, prevPrev];
  }
  return prev[n] <= max ? prev[n] : max + 1;
}

/** How many edits a typo in a word of this length may contain and still be corrected. */
export function typoBudget(length: number): number {
  if (length <= 3) return 0;
  if (length <= 7) return 1;
  return 2;
}
